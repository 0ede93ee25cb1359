"""Hand-built IR for the review tools' tests, shaped as docs/agent-template.md lowers agents.

These stand in for compiled examples where the compiler is not needed (render and explain
read only the IR), and pin shapes the examples do not cover: middleware clusters, jumps,
interrupts, a checkpointer, structured output, return_direct tools.
"""

from __future__ import annotations

from agentc import ir

FILE = "fixture.agent"
AGENT = "agentc.stdlib.agent"


def span(line: int, col: int = 3, file: str = FILE) -> ir.SourceSpan:
    return ir.SourceSpan(
        file=file,
        line=line,
        col=col,
        end_line=line,
        end_col=col + 10,
        offset=line * 40 + col,
        end_offset=line * 40 + col + 10,
    )


def ref(attr: str, module: str = AGENT) -> ir.ImportRef:
    return ir.ImportRef(module=module, attr=attr)


def tool(name: str, line: int, *, return_direct: bool = False) -> ir.ToolSpec:
    return ir.ToolSpec(
        name=name,
        description=f"{name} a file.",
        parameters={"type": "object"},
        ref=ir.ImportRef(module="./tools.py", attr=name, is_file=True),
        return_direct=return_direct,
        span=span(line, 10),
    )


def messages_channel() -> ir.ChannelSpec:
    return ir.ChannelSpec(
        name="messages",
        type=ir.TypeSpec(display="messages", json_schema={}),
        reducer=ref("add_messages", "agentc.stdlib.messages"),
        span=span(1),
    )


def hook(mw: str, point: str) -> ir.NodeSpec:
    return ir.NodeSpec(
        name=f"{mw}.{point}",
        kind=ir.NodeKind.HOOK,
        impl=ref("hook_node"),
        config={"middleware": mw, "point": point},
        span=span(1),
    )


def node(name: str, kind: ir.NodeKind, impl: str = "") -> ir.NodeSpec:
    factory = {ir.NodeKind.MODEL: "model_node", ir.NodeKind.TOOLS: "tool_node"}.get(kind)
    target = (
        ref(factory) if factory else ir.ImportRef(module="./review.py", attr=impl, is_file=True)
    )
    return ir.NodeSpec(name=name, kind=kind, impl=target, span=span(1))


def edge(source: str, target: str) -> ir.EdgeSpec:
    return ir.EdgeSpec(source=source, target=target, span=span(1))


def router(source: str, attr: str, routes: dict[str, str], label: str | None = None):
    return ir.BranchSpec(
        source=source,
        kind=ir.BranchKind.ROUTER,
        router=ref(attr),
        routes=routes,
        label=label,
        span=span(1),
    )


def calculator() -> ir.Graph:
    """examples/calculator.agent as the template lowers it: model ⇄ tools (A11)."""
    agent = ir.AgentSpec(
        model=ir.ModelSpec(spec="scripted", provider="scripted", name="", span=span(8)),
        prompt="You are a careful calculator.",
        prompt_span=span(14),
        tools=[tool("add", 15)],
    )
    return ir.Graph(
        name="calculator",
        kind=ir.GraphKind.AGENT,
        state=[messages_channel()],
        nodes=[node("model", ir.NodeKind.MODEL), node("tools", ir.NodeKind.TOOLS)],
        edges=[edge(ir.START, "model"), edge("tools", "model")],
        branches=[
            router("model", "model_to_tools", {"tools": "tools", "end": ir.END}, "tool calls")
        ],
        limits=ir.Limits(steps=ir.Bound(value=9999)),
        checkpoint=ir.CheckpointSpec(kind=ir.CheckpointKind.NONE),
        agent=agent,
        span=span(7, 1),
    )


def review_loop() -> ir.Graph:
    """examples/review_loop.agent: a hand-built graph with a `when` branch."""
    approved = ir.FieldCond(name="approved")
    branch = ir.BranchSpec(
        source="check",
        kind=ir.BranchKind.WHEN,
        cases=[
            ir.BranchCase(condition=approved, target="publish", span=span(19)),
            ir.BranchCase(condition=None, target="write", span=span(20)),
        ],
        span=span(19),
    )
    return ir.Graph(
        name="review_loop",
        kind=ir.GraphKind.GRAPH,
        state=[],
        nodes=[
            node("write", ir.NodeKind.PYTHON, "write_draft"),
            node("check", ir.NodeKind.PYTHON, "check_draft"),
            node("publish", ir.NodeKind.PYTHON, "publish"),
        ],
        edges=[edge(ir.START, "write"), edge("write", "check"), edge("publish", ir.END)],
        branches=[branch],
        limits=ir.Limits(steps=ir.Bound(value=25, span=span(23))),
        checkpoint=ir.CheckpointSpec(kind=ir.CheckpointKind.NONE),
        doc="Draft, check and publish, retrying until the check passes.",
        span=span(5, 1),
    )


def _guarded_middleware() -> list[ir.MiddlewareSpec]:
    review = ir.MiddlewareSpec(
        name="human_review",
        declared="human_review",
        impl=ref("HumanInTheLoop", "agentc.stdlib.middleware.human_in_the_loop"),
        config={
            "interrupt_on": {"delete_file": True, "read_file": False},
            "interrupt_mode": "batched",
        },
        hooks=[ir.HookPoint.AFTER_MODEL, ir.HookPoint.WRAP_TOOL_CALL],
        seats=["D9", "D10", "D11", "D12"],
        span=span(12, 5),
    )
    limit = ir.MiddlewareSpec(
        name="model_call_limit",
        declared="model_call_limit",
        impl=ref("ModelCallLimit", "agentc.stdlib.middleware.call_limits"),
        config={"thread": None, "run": 10, "exit_behavior": "end"},
        hooks=[ir.HookPoint.BEFORE_MODEL, ir.HookPoint.AFTER_MODEL],
        jumps={ir.HookPoint.BEFORE_MODEL: [ir.JumpTarget.END]},
        seats=["F8"],
        span=span(13, 5),
    )
    return [review, limit]


def guarded() -> ir.Graph:
    """An agent with review, a call limit, structured output, an interrupt and a checkpoint."""
    output = ir.OutputSpec(schemas=["Answer"], strategy=ir.OutputStrategy.TOOL, span=span(10))
    agent = ir.AgentSpec(
        model=ir.ModelSpec(
            spec="openai:gpt-4o-mini",
            provider="openai",
            name="gpt-4o-mini",
            options={"max_retries": 2},
            span=span(8),
        ),
        prompt="Tidy the workspace.",
        prompt_span=span(9),
        tools=[
            tool("read_file", 10),
            tool("delete_file", 10),
            tool("report", 10, return_direct=True),
        ],
        output=output,
        middleware=_guarded_middleware(),
    )
    loop_entry, loop_exit = "model_call_limit.before_model", "human_review.after_model"
    nodes = [
        node("model", ir.NodeKind.MODEL),
        node("tools", ir.NodeKind.TOOLS),
        hook("human_review", "after_model"),
        hook("model_call_limit", "before_model"),
        hook("model_call_limit", "after_model"),
    ]
    edges = [
        edge(ir.START, loop_entry),
        edge("model", "model_call_limit.after_model"),
        edge("model_call_limit.after_model", loop_exit),
    ]
    branches = [
        router(loop_entry, "hook_router", {"default": "model", "end": ir.END}, "jump_to"),
        router(
            loop_exit,
            "model_to_tools",
            {"tools": "tools", "end": ir.END, "model": loop_entry},
            "tool calls",
        ),
        router("tools", "tools_to_model", {"model": loop_entry, "end": ir.END}),
    ]
    return ir.Graph(
        name="janitor",
        kind=ir.GraphKind.AGENT,
        state=[messages_channel()],
        nodes=nodes,
        edges=edges,
        branches=branches,
        interrupts=[ir.InterruptSpec(when=ir.InterruptWhen.BEFORE, node="tools", span=span(16))],
        limits=ir.Limits(
            steps=ir.Bound(value=25, span=span(14)),
            step_timeout_s=ir.Bound(value=30, span=span(14, 20)),
        ),
        checkpoint=ir.CheckpointSpec(
            kind=ir.CheckpointKind.SQLITE, path=".agentc/state.db", span=span(17)
        ),
        agent=agent,
        span=span(6, 1),
    )


def program(*graphs: ir.Graph) -> ir.Program:
    return ir.Program(source=ir.SourceRef(file=FILE, sha256="0" * 64), graphs=list(graphs))


ALL = {"calculator": calculator, "review_loop": review_loop, "janitor": guarded}
