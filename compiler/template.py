"""The `agent` template: an agent's settings → the graph create_agent builds (seat A11).

Input: `AgentParts` — the agent's resolved model, tools, structured output, middleware (in
declaration order), extra state, limits, checkpoint, interrupts and store, all IR values
already (settings not written take defaults.py's values). Output: an `ir.Graph` of kind
AGENT, exactly as `docs/agent-template.md` describes (nodes, positions, static edges and
branches of langchain 1.4.10's factory.py:1717-1890). Invariant: pure — no diagnostics
(the checker ran first), no I/O. Declared in the prelude as `template agent`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import agentc.ir as ir

from . import defaults

AGENT_IMPL = "agentc.stdlib.agent"
HOOK_ORDER = (
    ir.HookPoint.BEFORE_AGENT,
    ir.HookPoint.BEFORE_MODEL,
    ir.HookPoint.AFTER_MODEL,
    ir.HookPoint.AFTER_AGENT,
)
WRAP_MODEL = (ir.HookPoint.WRAP_MODEL_CALL, ir.HookPoint.DYNAMIC_PROMPT)


@dataclass(frozen=True)
class AgentParts:
    name: str
    spec: ir.AgentSpec
    span: ir.SourceSpan
    state: tuple[ir.ChannelSpec, ...] = ()
    limits: ir.Limits = field(default_factory=lambda: defaults.limits(ir.GraphKind.AGENT))
    checkpoint: ir.CheckpointSpec = field(default_factory=defaults.checkpoint)
    interrupts: tuple[ir.InterruptSpec, ...] = ()
    store: ir.StoreSpec | None = None  # I1
    trace: ir.TraceSpec | None = None  # `trace …`: where `agentc run` sends spans
    context: str | None = None  # `context Ctx`: a Program.schemas name
    doc: str | None = None


def _impl(attr: str) -> ir.ImportRef:
    return ir.ImportRef(module=AGENT_IMPL, attr=attr)


def has_tools_node(spec: ir.AgentSpec) -> bool:
    """A11: local tools (the agent's, an MCP server's or a middleware's) or some
    wrap_tool_call."""
    return (
        bool(spec.tools)
        or bool(spec.mcp_tools)
        or any(m.tools or ir.HookPoint.WRAP_TOOL_CALL in m.hooks for m in spec.middleware)
    )


@dataclass(frozen=True)
class Positions:
    entry: str
    loop_entry: str
    loop_exit: str
    exit: str
    with_hook: dict[ir.HookPoint, list[ir.MiddlewareSpec]]


def positions(spec: ir.AgentSpec) -> Positions:
    w = {p: [m for m in spec.middleware if p in m.hooks] for p in HOOK_ORDER}
    ba, bm = w[ir.HookPoint.BEFORE_AGENT], w[ir.HookPoint.BEFORE_MODEL]
    am, aa = w[ir.HookPoint.AFTER_MODEL], w[ir.HookPoint.AFTER_AGENT]
    loop_entry = f"{bm[0].name}.before_model" if bm else "model"
    entry = f"{ba[0].name}.before_agent" if ba else loop_entry
    loop_exit = f"{am[0].name}.after_model" if am else "model"
    exit_ = f"{aa[-1].name}.after_agent" if aa else ir.END
    return Positions(entry, loop_entry, loop_exit, exit_, w)


def lower_agent(parts: AgentParts) -> ir.Graph:
    spec, span = parts.spec, parts.span
    pos = positions(spec)
    builder = _Builder(span, pos)
    builder.nodes.append(
        ir.NodeSpec(name="model", kind=ir.NodeKind.MODEL, impl=_impl("model_node"), span=span)
    )
    if has_tools_node(spec):
        builder.nodes.append(
            ir.NodeSpec(name="tools", kind=ir.NodeKind.TOOLS, impl=_impl("tool_node"), span=span)
        )
    for m in spec.middleware:
        for point in HOOK_ORDER:
            if point in m.hooks:
                builder.nodes.append(
                    ir.NodeSpec(
                        name=f"{m.name}.{point.value}",
                        kind=ir.NodeKind.HOOK,
                        impl=_impl("hook_node"),
                        config={"middleware": m.name, "point": point.value},
                        span=m.span,
                    )
                )
    builder.edge(ir.START, pos.entry)
    _loop_edges(builder, spec)
    _hook_chains(builder, pos)
    return ir.Graph(
        name=parts.name,
        kind=ir.GraphKind.AGENT,
        state=_channels(parts),
        nodes=builder.nodes,
        edges=builder.edges,
        branches=builder.branches,
        interrupts=list(parts.interrupts),
        limits=parts.limits,
        checkpoint=parts.checkpoint,
        store=parts.store,
        trace=parts.trace,
        agent=spec,
        context=parts.context,
        doc=parts.doc,
        span=span,
    )


@dataclass
class _Builder:
    span: ir.SourceSpan
    pos: Positions
    nodes: list[ir.NodeSpec] = field(default_factory=list)
    edges: list[ir.EdgeSpec] = field(default_factory=list)
    branches: list[ir.BranchSpec] = field(default_factory=list)

    def edge(self, source: str, target: str) -> None:
        self.edges.append(ir.EdgeSpec(source=source, target=target, span=self.span))

    def branch(self, source: str, router: str, routes: dict[str, str], label: str) -> None:
        self.branches.append(
            ir.BranchSpec(
                source=source,
                kind=ir.BranchKind.ROUTER,
                router=_impl(router),
                router_config={"exit": self.pos.exit, "loop_entry": self.pos.loop_entry},
                routes=routes,
                label=label,
                span=self.span,
            )
        )

    def middleware_edge(self, name: str, default: str, jumps: list[ir.JumpTarget]) -> None:
        """langchain factory.py `_add_middleware_edge`: a branch when the hook may jump."""
        if not jumps:
            self.edge(name, default)
            return
        routes = {"default": default}
        if ir.JumpTarget.END in jumps:
            routes["end"] = self.pos.exit
        if ir.JumpTarget.TOOLS in jumps:
            routes["tools"] = "tools"
        if ir.JumpTarget.MODEL in jumps and name != self.pos.loop_entry:
            routes["model"] = self.pos.loop_entry
        self.branch(name, "hook_router", routes, "jump_to")


def _loop_edges(b: _Builder, spec: ir.AgentSpec) -> None:
    pos = b.pos
    tool_output = spec.output is not None and spec.output.strategy in (
        ir.OutputStrategy.TOOL,
        ir.OutputStrategy.AUTO,
    )
    if has_tools_node(spec):
        direct = any(t.return_direct for t in spec.tools) or tool_output  # C5, G2
        # Always a branch, as factory.py:1755 adds it (get_graph marks it conditional);
        # the `end` route exists only when the run can end after tools.
        routes = {"model": pos.loop_entry}
        if direct:
            routes["end"] = pos.exit
        b.branch("tools", "tools_to_model", routes, "return_direct" if direct else "tools done")
        routes = {"tools": "tools", "end": pos.exit}
        wraps = any(p in m.hooks for m in spec.middleware for p in WRAP_MODEL)
        if spec.output is not None or pos.loop_exit != "model" or wraps:  # C2
            routes["model"] = pos.loop_entry
        b.branch(pos.loop_exit, "model_to_tools", routes, "tool calls")
    elif tool_output:
        b.branch(
            pos.loop_exit,
            "model_to_model",
            {"model": pos.loop_entry, "end": pos.exit},
            "structured output",
        )
    elif pos.loop_exit == "model":
        b.edge("model", pos.exit)
    else:
        first = pos.with_hook[ir.HookPoint.AFTER_MODEL][0]
        b.middleware_edge(pos.loop_exit, pos.exit, _jumps(first, ir.HookPoint.AFTER_MODEL))


def _jumps(m: ir.MiddlewareSpec, point: ir.HookPoint) -> list[ir.JumpTarget]:
    return list(m.jumps.get(point, []))


def _hook_chains(b: _Builder, pos: Positions) -> None:
    w = pos.with_hook
    _chain(b, w[ir.HookPoint.BEFORE_AGENT], ir.HookPoint.BEFORE_AGENT, pos.loop_entry)
    _chain(b, w[ir.HookPoint.BEFORE_MODEL], ir.HookPoint.BEFORE_MODEL, "model")
    am = w[ir.HookPoint.AFTER_MODEL]
    if am:  # after_model and after_agent hooks run in reverse declaration order
        b.edge("model", f"{am[-1].name}.after_model")
    _chain(b, am[::-1], ir.HookPoint.AFTER_MODEL, None)  # the last one is the loop exit
    _chain(b, w[ir.HookPoint.AFTER_AGENT][::-1], ir.HookPoint.AFTER_AGENT, ir.END)


def _chain(
    b: _Builder, hooks: list[ir.MiddlewareSpec], point: ir.HookPoint, then: str | None
) -> None:
    """Each `point` hook node flows into the next, in the order given; the last into `then`."""
    for m1, m2 in itertools.pairwise(hooks):
        b.middleware_edge(f"{m1.name}.{point.value}", f"{m2.name}.{point.value}", _jumps(m1, point))
    if hooks and then is not None:
        b.middleware_edge(f"{hooks[-1].name}.{point.value}", then, _jumps(hooks[-1], point))


def _channels(parts: AgentParts) -> list[ir.ChannelSpec]:
    span = parts.span
    base = [
        ir.ChannelSpec(
            name="messages",
            type=ir.TypeSpec(
                display="messages", json_schema={"type": "array", "items": {"type": "object"}}
            ),
            reducer=defaults.MESSAGES_REDUCER,
            span=span,
        ),
        ir.ChannelSpec(
            name="jump_to",
            type=ir.TypeSpec(
                display='"model" | "tools" | "end"?',
                json_schema={"anyOf": [{"enum": ["model", "tools", "end"]}, {"type": "null"}]},
            ),
            input=False,
            output=False,
            ephemeral=True,
            span=span,
        ),
        ir.ChannelSpec(
            name="structured_response",
            type=ir.TypeSpec(display="any", json_schema={}),
            input=False,
            span=span,
        ),
    ]
    seen = {c.name for c in base}
    extra = list(parts.state) + [c for m in parts.spec.middleware for c in m.state]
    for c in extra:
        if c.name not in seen:
            seen.add(c.name)
            base.append(c)
    return base
