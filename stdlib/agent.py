"""The nodes and routers an `agent { … }` block lowers to (docs/agent-template.md).

Input: at bind time, the `ir.Graph` (its `agent` is the `ir.AgentSpec`) and a `BindEnv`; at
run time, the state and a `RunContext`. Output: state updates (model replies, tool answers,
the structured answer) and route labels or `Send`s.

Seats held here: B1 (the system prompt is prepended to every call and never saved), B2
(the whole history goes), B4/E10 (unanswered malformed calls with an id are repaired before
each call), B5/A8 (every local tool and every provider tool, every step), B6/C3 (tool_choice
None, or "any" under tool-strategy output), A4 (one model; per run when configurable), A7
(tools keyed by name, last one wins), F12 (the answer cleared by each call that made none),
E1–E5, C2, C5, G1–G8 (through `tools.py`, `routing.py`, `structured_output.py`).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..ir import (
    AgentSpec,
    BranchSpec,
    CheckpointKind,
    Graph,
    HookPoint,
    ModelSpec,
    NodeSpec,
    OutputStrategy,
    ToolSpec,
)
from ..runtime.types import Command, GraphInterrupt, RunConfig, Send, Slot, StreamMode, factory
from . import routing
from .messages import (
    REMOVE_ALL_MESSAGES,
    AIMessage,
    BaseMessage,
    RemoveMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
)
from .providers.base import ChatModel, ModelRequest, ToolDefinition

if TYPE_CHECKING:  # imported where used: only agents that declare `output` pay for it
    from .structured_output import OutputSchema, StructuredOutput
from ..runtime.serde import register_type  # noqa: E402
from .middleware import base as mw_base
from .middleware.base import (
    AgentRuntime,
    ExtendedModelResponse,
    ModelResponse,
    ToolCallRequest,
    tool_call_dict,
)
from .middleware.binding import BoundMiddleware, bound_middleware
from .middleware.chain import Handler, hook_caller, model_chain, tool_chain
from .tools import (
    CallEnv,
    Tool,
    ToolDefinitionError,
    ToolRuntime,
    as_tool,
    make_tool,
    run_tool,
    unknown_tool_message,
)

# A pending tool task (a Send's payload) is saved with the step that will run it.
register_type(ToolCall, "message.tool_call")

TOOL_CALL_KEY = "__tool_call__"  # the Send payload of one tool task (E5)
STATE_KEY = "__state__"


class AgentSetupError(ValueError):
    """An agent that cannot be bound: a tool that is not a tool, a model that will not load."""


# ---------------------------------------------------------------- model resolution


def resolve_model(spec: ModelSpec, base_dir: str) -> ChatModel:
    """The model a spec names, through the providers registry (A1, A2)."""
    try:
        from .providers.registry import resolve_model as registry_resolve
    except ImportError:  # the registry is optional while it is being written
        registry_resolve = None
    if registry_resolve is not None:
        return registry_resolve(spec, base_dir)
    if spec.provider == "scripted":
        from .providers.scripted import ScriptedModel

        return ScriptedModel.from_spec(spec, base_dir)
    raise AgentSetupError(f"no provider registry to resolve model `{spec.spec}`")


def model_spec_from_string(text: str, span: Any) -> ModelSpec:
    from .providers.resolve import parse_model_string

    if text == "scripted" or text.startswith("scripted:"):
        return ModelSpec(spec=text, provider="scripted", name=text.partition(":")[2], span=span)
    provider, name = parse_model_string(text)
    return ModelSpec(spec=text, provider=provider, name=name, span=span)


def is_configurable(spec: ModelSpec) -> bool:
    """A4: `model "…" { configurable: true }` lets `RunConfig.configurable["model"]` pick
    the model per run (LangChain: create_agent("") → a _ConfigurableModel)."""
    return bool(spec.options.get("configurable"))


# The model a chooser builds, given its graph's name, its spec and a thunk that resolves
# the real one: `agentc run --record/--replay` wraps or replaces it (cassettes). Bound at
# bind time from the context the caller sets with `model_source(...)`.
ModelSource = Callable[[str, ModelSpec, Callable[[], ChatModel]], ChatModel]
_MODEL_SOURCE: contextvars.ContextVar[ModelSource | None] = contextvars.ContextVar(
    "agentc_model_source", default=None
)


@contextlib.contextmanager
def model_source(source: ModelSource) -> Iterator[None]:
    """Graphs bound inside this block build their fixed models through `source`."""
    token = _MODEL_SOURCE.set(source)
    try:
        yield
    finally:
        _MODEL_SOURCE.reset(token)


@dataclass(slots=True)
class ModelChooser:
    """The fixed model, or per run the one the caller names (A4)."""

    spec: ModelSpec
    base_dir: str
    default: ChatModel | None = None
    per_run: dict[str, ChatModel] = field(default_factory=dict)
    graph: str = ""
    source: ModelSource | None = field(default_factory=_MODEL_SOURCE.get)

    def fixed_spec(self) -> ModelSpec:
        options = {k: v for k, v in self.spec.options.items() if k != "configurable"}
        return self.spec.model_copy(update={"options": options})

    def pick(self, ctx: Any) -> ChatModel:
        if is_configurable(self.spec) and ctx is not None:
            chosen = ctx.config.configurable.get("model")
            if isinstance(chosen, str) and chosen:
                if chosen not in self.per_run:
                    self.per_run[chosen] = resolve_model(
                        model_spec_from_string(chosen, self.spec.span), self.base_dir
                    )
                return self.per_run[chosen]
        if self.default is None:
            spec = self.fixed_spec()
            make = lambda: resolve_model(spec, self.base_dir)  # noqa: E731
            self.default = make() if self.source is None else self.source(self.graph, spec, make)
        return self.default


# ---------------------------------------------------------------- binding an agent


def agent_of(graph: Graph) -> AgentSpec:
    if graph.agent is None:
        raise AgentSetupError(f"graph `{graph.name}` is not an agent; the agent nodes need one")
    return graph.agent


def all_tool_specs(agent: AgentSpec) -> list[ToolSpec]:
    """A7: middleware tools first, then the agent's; a later name replaces an earlier one."""
    by_name: dict[str, ToolSpec] = {}
    for spec in [t for m in agent.middleware for t in m.tools] + list(agent.tools):
        by_name[spec.name] = spec
    return list(by_name.values())


def bind_tool(spec: ToolSpec, env: Any, own: Mapping[str, Tool] | None = None) -> Tool:
    """A tool of the IR made callable; the spec's name and flags are authoritative. A tool
    a middleware adds (no `ref`) is the middleware object's own (`own`, by name)."""
    if spec.agent is not None:
        return agent_tool(spec, env)
    if spec.ref is None and own is not None and spec.name in own:
        return own[spec.name]
    if spec.ref is None:
        raise AgentSetupError(f"tool `{spec.name}` names no Python function")
    obj = env.load(spec.ref)
    try:
        t = as_tool(obj) if isinstance(obj, Tool) else make_tool(obj, name=spec.name)
    except ToolDefinitionError as exc:
        raise AgentSetupError(f"tool `{spec.name}` ({spec.ref.key}): {exc}") from None
    return t.with_options(
        name=spec.name,
        return_direct=spec.return_direct or t.return_direct,
        response_format=spec.response_format,
    )


def agent_tool(spec: ToolSpec, env: Any) -> Tool:
    """H1: another agent run as a tool; the model's `request` becomes its user message and
    the child's last message its answer. H2: the child runs under its own bound step limit,
    not what is left of the parent's. H3: with a parent checkpointer the child saves into
    the parent's store under the tool task's namespace (same saver, not the same history),
    unless the child says `checkpoint none`; a pause inside the child pauses the parent,
    and resuming the parent resumes the child."""
    child = env.subgraph(spec.agent)
    lent = (
        child.graph.checkpoint.kind is not CheckpointKind.NONE
        or child.graph.checkpoint.span is None
    )  # an explicit `checkpoint none` opts out (H3)

    async def run_agent(request: str, runtime: ToolRuntime) -> str:
        value: Any = {"messages": [{"role": "user", "content": request}]}
        outcome = await run_child(child, value, runtime, lent)
        messages = outcome.get("messages") or []
        return messages[-1].text if messages else ""

    run_agent.__name__ = spec.name
    return make_tool(
        run_agent,
        name=spec.name,
        description=spec.description or spec.name,
        return_direct=spec.return_direct,
    )


async def run_child(child: Any, value: Any, runtime: ToolRuntime, lent: bool) -> dict:
    """Run a child graph from inside a tool call (H2, H3), as the runtime's subgraph nodes do."""
    from ..runtime.inputs import ResumeMap

    ctx = runtime.context
    if ctx is None or not hasattr(ctx, "task_id"):  # called outside a run: a plain invoke
        return await child.ainvoke(value, RunConfig())
    own = f"{ctx.node}:{ctx.task_id}:{runtime.tool_call_id or ''}"
    ns = f"{ctx.ns}|{own}" if ctx.ns else own
    thread = ctx.config.thread_id
    saver = ctx.checkpointer if lent and thread is not None else None
    config = RunConfig(
        thread_id=thread, configurable=ctx.config.configurable, tags=ctx.config.tags
    )  # recursion_limit None: the child's own (H2)
    if saver is not None and (last := saver.get(thread, ns)) is not None and last.next:
        value = Command(resume=ResumeMap(ctx.resumes)) if ctx.resumes else None
    run_spec = child.spec(
        config,
        modes=ctx.modes & _FORWARDED,
        sink=_forward(ctx, own),
        ns=ns,
        checkpointer=saver,
        store=ctx.store,
    )  # I1: parent's store
    outcome = await child.run(value, run_spec)
    if outcome.paused:
        raise GraphInterrupt(outcome.interrupts)
    return outcome.values


_FORWARDED = frozenset({StreamMode.MESSAGES, StreamMode.CUSTOM})


def _forward(ctx: Any, own: str) -> Any:
    """The child's `messages`/`custom` events, passed on to the parent's readers."""
    if ctx.sink is None:
        return None

    def sink(event: Any) -> None:
        if getattr(event, "mode", None) in _FORWARDED:
            ns = f"{own}|{event.ns}" if event.ns else own
            ctx.sink(type(event)(event.step, event.node, event.payload, ns))

    return sink


def middleware_tools(bound: Sequence[BoundMiddleware]) -> dict[str, Tool]:
    """The tools middleware objects bring (their `tools` attribute), by name."""
    own: dict[str, Tool] = {}
    for b in bound:
        for t in getattr(b.obj, "tools", None) or ():
            try:
                made = as_tool(t)
            except ToolDefinitionError as exc:
                raise AgentSetupError(
                    f"middleware `{b.name}` brings a tool that is not one: {exc}"
                ) from None
            own[made.name] = made
    return own


def bind_tools(graph: Graph, env: Any) -> list[Tool]:
    """Every local tool of the agent (A7: later names win), middleware tools included."""
    agent = agent_of(graph)
    bound = bound_middleware(graph, env)
    own = middleware_tools(bound)
    specs = all_tool_specs(agent)
    tools = {s.name: bind_tool(s, env, own) for s in specs}
    if any(n.name == "tools" for n in graph.nodes):  # a Python middleware's `tools` too
        for name, t in own.items():
            tools.setdefault(name, t)
    return list(tools.values())


def bind_output(agent: AgentSpec, env: Any) -> StructuredOutput | None:
    if agent.output is None:
        return None
    from .structured_output import StructuredOutput, schema_from_spec

    program = env.program
    schemas: dict[str, OutputSchema] = {}
    for name in agent.output.schemas:
        spec = next((s for s in program.schemas if s.name == name), None)
        if spec is None:
            raise AgentSetupError(f"output schema `{name}` is not declared in the program")
        schemas[name] = schema_from_spec(spec, env.load)
    return StructuredOutput.from_spec(agent.output, schemas)


def structured_names(agent: AgentSpec, env: Any) -> frozenset[str]:
    """The structured-output tool names (B7), as the model node names them."""
    if agent.output is None or agent.output.strategy is OutputStrategy.PROVIDER:
        return frozenset()
    return bind_output(agent, env).tool_names


# ---------------------------------------------------------------- B4/E10: repair


def invalid_call_message(call: Any) -> ToolMessage | None:
    """The answer LangChain gives a malformed call with an id (factory.py 1.4.10)."""
    if call.id is None:
        return None
    name = call.name or "unknown"
    return ToolMessage(
        content=f"Tool call {name} with id {call.id} could not be executed - "
        "arguments were malformed or truncated.",
        name=name,
        tool_call_id=call.id,
        status="error",
    )


def patch_invalid_tool_calls(messages: Sequence[BaseMessage]) -> list[BaseMessage] | None:
    """B4/E10: the history with malformed, unanswered calls answered; None when unchanged."""
    if not any(isinstance(m, AIMessage) and m.invalid_tool_calls for m in messages):
        return None
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    patched: list[BaseMessage] = []
    changed = False
    for m in messages:
        patched.append(m)
        if not isinstance(m, AIMessage):
            continue
        for call in m.invalid_tool_calls:
            if call.id in answered:
                continue
            answer = invalid_call_message(call)
            if answer is not None:
                patched.append(answer)
                answered.add(answer.tool_call_id)
                changed = True
    return patched if changed else None


class RepairScan:
    """B4/E10 without rescanning the history each call: what was learned about one history
    up to `upto` — the ids of tool answers seen, and the malformed calls with an id still
    unanswered. A later call on the same history (same first message, and the message at
    `upto - 1` still the same object: the runtime's message list only grows, and a
    replacement or removal makes a new list) scans only the messages added since."""

    __slots__ = ("first", "last", "upto", "answered", "pending")
    LIMIT = 1024  # histories remembered per model node (concurrent runs); a miss rescans

    def __init__(self, first: Any) -> None:
        self.first, self.last, self.upto = first, None, 0
        self.answered: set[str] = set()
        self.pending: set[str] = set()

    def fits(self, history: Sequence[BaseMessage]) -> bool:
        n = len(history)
        return n >= self.upto and (self.upto == 0 or history[self.upto - 1] is self.last)

    def advance(self, history: Sequence[BaseMessage]) -> bool:
        """Scan the new messages; True when some malformed call is unanswered."""
        for i in range(self.upto, len(history)):
            m = history[i]
            if isinstance(m, ToolMessage):
                self.answered.add(m.tool_call_id)
                self.pending.discard(m.tool_call_id)
            elif isinstance(m, AIMessage) and m.invalid_tool_calls:
                self.pending.update(
                    c.id
                    for c in m.invalid_tool_calls
                    if c.id is not None and c.id not in self.answered
                )
        self.upto = len(history)
        self.last = history[-1] if history else None
        return bool(self.pending)


def needs_repair(scans: dict[int, RepairScan], history: Sequence[BaseMessage]) -> bool:
    """Whether `patch_invalid_tool_calls` would change `history` (amortised O(new))."""
    if not history:
        return False
    first = history[0]
    scan = scans.get(id(first))
    if scan is None or scan.first is not first or not scan.fits(history):
        if len(scans) >= RepairScan.LIMIT:
            scans.pop(next(iter(scans)))
        scan = scans[id(first)] = RepairScan(first)
    return scan.advance(history)


# ---------------------------------------------------------------- the model node


def split_tools(
    tools: Sequence[Any],
) -> tuple[tuple[ToolDefinition, ...], tuple[dict[str, Any], ...]]:
    """A request's tools as the provider reads them: local definitions, provider maps (A8)."""
    local = tuple(
        ToolDefinition(t.name, t.description, t.parameters)
        for t in tools
        if not isinstance(t, dict)
    )
    return local, tuple(t for t in tools if isinstance(t, dict))


class ModelCall:
    """The model node: middleware wrappers (first declared outermost) around one call.

    Everything is fixed at bind time; the chain of `wrap_model_call`/`dynamic_prompt`
    handlers is built once and reads the task's context from `request.runtime`.
    """

    def __init__(
        self,
        chooser: ModelChooser,
        system: SystemMessage | None,
        tools: Sequence[Tool],
        provider_tools: Sequence[dict[str, Any]],
        output: StructuredOutput | None,
        wrappers: Sequence[Any] = (),
        watchers: Sequence[Any] = (),
    ) -> None:
        self.chooser, self.system, self.output = chooser, system, output
        self.watchers = tuple(watchers)  # D16: middleware that scrub streamed text
        self.tools = tuple(tools)
        self.provider_tools = tuple(provider_tools)
        self.request_tools = [*self.tools, *provider_tools]
        self.mcp: Any = None  # an McpToolset (A9): its tools join at the first call
        self.handler: Handler = model_chain(wrappers, self.execute)
        self.wrapped = bool(wrappers)  # middleware may edit `request.messages` in place
        self.scans: dict[int, RepairScan] = {}

    def provider_request(
        self, req: mw_base.ModelRequest
    ) -> tuple[ModelRequest, OutputStrategy | None]:
        model = req.model
        messages = (
            (req.system_message, *req.messages) if req.system_message else tuple(req.messages)
        )  # B1, B2
        tools, provider = split_tools(req.tools)  # B5, A8
        choice, fmt, strategy = req.tool_choice, None, None  # B6
        output = req.response_format
        if output is not None:
            strategy = output.effective(model.profile, model.name, bool(tools or provider))
            if strategy is OutputStrategy.TOOL:  # G5
                tools, choice = tools + output.tools(), "any"  # B7, C3
            else:
                fmt = output.response_format()  # B7
        return ModelRequest(
            messages=messages,
            tools=tools,
            provider_tools=provider,
            tool_choice=choice,
            response_format=fmt,
            options=dict(req.model_settings),
        ), strategy

    async def generate(self, model: ChatModel, request: ModelRequest, ctx: Any) -> AIMessage:
        """The reply; streamed as `messages` events when a reader asked for them (with
        streamed text scrubbed by PII middleware first, D16)."""
        modes = getattr(ctx, "modes", ())
        if not any(getattr(m, "value", m) == "messages" for m in modes):
            return await model.generate(request)
        import dataclasses

        from .providers.assemble import Assembler
        from .providers.base import MessageDelta

        acc = Assembler()
        scrubbers = [s for w in self.watchers if (s := w.stream_scrubber()) is not None]
        async for delta in model.stream(request):
            acc.add(delta)
            if scrubbers and delta.text:
                text = delta.text
                for s in scrubbers:
                    text = s.feed(text)
                delta = dataclasses.replace(delta, text=text)
            ctx.emit("messages", delta)
        if scrubbers:
            rest = ""
            for s in scrubbers:
                rest = s.feed(rest) + s.flush() if rest else s.flush()
            if rest:
                ctx.emit("messages", MessageDelta(text=rest))
        return acc.message()

    async def execute(self, req: mw_base.ModelRequest) -> ModelResponse:
        """The innermost handler: one provider call and its structured answer (G1–G8)."""
        request, strategy = self.provider_request(req)
        ctx = req.runtime.task if req.runtime is not None else None
        reply = await self.generate(req.model, request, ctx)
        output = req.response_format
        if strategy is OutputStrategy.TOOL:
            from .structured_output import handle_tool_strategy

            outcome = handle_tool_strategy(output, reply)
        elif strategy is OutputStrategy.PROVIDER:
            from .structured_output import handle_provider_strategy

            outcome = handle_provider_strategy(output, reply)
        else:
            return ModelResponse(result=[reply])
        return ModelResponse(
            result=list(outcome.messages), structured_response=outcome.structured_response
        )

    async def __call__(self, state: Mapping[str, Any], ctx: Any) -> Any:
        history = state.get("messages") or ()
        repaired = (
            patch_invalid_tool_calls(list(history)) if needs_repair(self.scans, history) else None
        )  # B4/E10
        if repaired is None:  # the runtime's read-only snapshot, copied only for middleware
            repaired_or_history = list(history) if self.wrapped else history
        else:
            repaired_or_history = repaired
        tools, request_tools = self.tools, self.request_tools
        if self.mcp is not None:  # A9/B10: the server's tools, listed once
            tools = merged_tools(self.tools, await self.mcp.tools())
            request_tools = [*tools, *self.provider_tools]
        request = mw_base.ModelRequest(
            model=self.chooser.pick(ctx),
            messages=repaired_or_history,
            system_message=self.system,
            tools=list(request_tools),
            response_format=self.output,
            state=state,
            runtime=AgentRuntime.of(ctx, tools),
        )
        response = await self.handler(request)
        command = None
        if isinstance(response, ExtendedModelResponse):
            response, command = response.model_response, response.command
        update = self.update(response, repaired)
        if command is not None and getattr(command, "update", None):
            return [update, Command(update=command.update)]
        return update

    def update(self, response: ModelResponse, repaired: list[BaseMessage] | None) -> dict:
        new = list(response.result)
        update: dict[str, Any] = {"messages": new}
        if repaired is not None:  # the repaired history replaces the saved one
            update["messages"] = [RemoveMessage(id=REMOVE_ALL_MESSAGES), *repaired, *new]
        if response.structured_response is not None:
            update["structured_response"] = response.structured_response
        elif self.output is not None:  # F12: a call with no answer clears the old one
            update["structured_response"] = None
        return update


def merged_tools(local: Sequence[Tool], mcp: Sequence[Tool]) -> tuple[Tool, ...]:
    """A7: keyed by name, MCP tools after the local ones; a later name wins."""
    by_name = {t.name: t for t in local}
    by_name.update((t.name, t) for t in mcp)
    return tuple(by_name.values())


MCP_TOOLSET: Slot[Any] = Slot("agent MCP toolset")


def mcp_toolset(graph: Graph, env: Any) -> Any:
    """The agent's MCP toolset, one per bound graph so its nodes share one listing (A9)."""
    agent = agent_of(graph)
    if not agent.mcp_tools:
        return None
    from .mcp import McpToolset

    return env.shared(MCP_TOOLSET, graph.name, lambda: McpToolset(agent.mcp_tools))


def with_hook(bound: Sequence[BoundMiddleware], *points: HookPoint) -> list[Any]:
    """The objects of the middleware that declare one of `points`, in declaration order."""
    return [b.obj for b in bound if any(b.has(p) for p in points)]


@factory
def model_node(spec: NodeSpec, graph: Graph, env: Any) -> ModelCall:
    agent = agent_of(graph)
    tools = bind_tools(graph, env)
    system = SystemMessage(content=agent.prompt) if agent.prompt is not None else None
    wraps = with_hook(
        bound_middleware(graph, env), HookPoint.WRAP_MODEL_CALL, HookPoint.DYNAMIC_PROMPT
    )
    call = ModelCall(
        chooser=ModelChooser(agent.model, env.base_dir, graph=graph.name),
        system=system,
        tools=tools,
        provider_tools=[p.definition for p in agent.provider_tools],  # A8
        output=bind_output(agent, env),
        wrappers=wraps,
        watchers=[b.obj for b in bound_middleware(graph, env) if hasattr(b.obj, "stream_scrubber")],
    )
    call.mcp = mcp_toolset(graph, env)
    return call


# ---------------------------------------------------------------- the tools node


class ToolRunner:
    """Runs the tool calls of one task (a Send's one call) or of the last AI message.

    With `wrap_tool_call` middleware each call goes through their chain (first declared
    outermost); an unknown tool reaches the middleware first and is answered (E1) only by
    the innermost handler, as langchain 1.4.10's ToolNode does.
    """

    def __init__(self, tools: Mapping[str, Tool], wrappers: Sequence[Any] = ()) -> None:
        self.tools = dict(tools)
        self.runtime_tools = tuple(self.tools.values())
        self.handler: Handler | None = tool_chain(wrappers, self.execute) if wrappers else None
        self.mcp: Any = None  # an McpToolset (A9): merged in once, at the first call

    async def _merge_mcp(self) -> None:
        merged = merged_tools(self.runtime_tools, await self.mcp.tools())
        self.tools = {t.name: t for t in merged}
        self.runtime_tools, self.mcp = merged, None

    async def __call__(self, state: Any, ctx: Any) -> Any:
        if self.mcp is not None:
            await self._merge_mcp()
        calls, view = self._calls(state)
        env = CallEnv(
            state=view,
            config=getattr(ctx, "config", None) or _default_config(),
            store=getattr(ctx, "store", None),
            context=ctx,
        )
        if len(calls) == 1:
            return as_update(await self.run_one(calls[0], env))
        import asyncio

        results = await asyncio.gather(*(self.run_one(c, env) for c in calls))
        return _merge_updates([as_update(r) for r in results])  # E5: in listed order

    def _calls(self, state: Any) -> tuple[list[ToolCall], Mapping[str, Any]]:
        if isinstance(state, Mapping) and TOOL_CALL_KEY in state:
            return [state[TOOL_CALL_KEY]], state.get(STATE_KEY) or {}
        ai, _ = routing.last_ai_and_tool_messages(state.get("messages") or [])
        return (list(ai.tool_calls) if ai else []), state

    async def run_one(self, call: ToolCall, env: CallEnv) -> Any:
        if self.handler is None:
            return await self.run_plain(call, env)
        runtime = ToolRuntime(
            state=env.state,
            tool_call_id=call.id,
            config=env.config,
            store=env.store,
            context=env.context,
        )
        request = ToolCallRequest(
            tool_call=tool_call_dict(call),
            tool=self.tools.get(call.name),
            state=env.state,
            runtime=runtime,
            available=self.runtime_tools,
        )
        return await self.handler(request)

    async def run_plain(self, call: ToolCall, env: CallEnv) -> Any:
        t = self.tools.get(call.name)
        if t is None:
            return unknown_tool_message(call, list(self.tools))  # E1
        return await run_tool(t, call, env)

    async def execute(self, request: ToolCallRequest) -> Any:
        """The innermost handler: the (possibly edited) call run by its tool."""
        raw = request.tool_call
        call = ToolCall(name=raw["name"], args=dict(raw.get("args") or {}), id=raw.get("id"))
        rt = request.runtime
        env = CallEnv(
            state=request.state,
            config=getattr(rt, "config", None) or _default_config(),
            store=getattr(rt, "store", None),
            context=getattr(rt, "context", None),
        )
        if request.tool is None:
            return unknown_tool_message(call, list(self.tools))  # E1
        return await run_tool(request.tool, call, env)


def _default_config() -> Any:
    return RunConfig()


def as_update(result: Any) -> Any:
    """A tool's answer as a node update: messages in a dict, Commands as they are."""
    if isinstance(result, ToolMessage):
        return {"messages": [result]}
    if isinstance(result, list):
        return [{"messages": [r]} if isinstance(r, ToolMessage) else r for r in result]
    return result


def _merge_updates(updates: list[Any]) -> Any:
    if all(isinstance(u, dict) and set(u) == {"messages"} for u in updates):
        return {"messages": [m for u in updates for m in u["messages"]]}
    flat: list[Any] = []
    for u in updates:
        flat.extend(u if isinstance(u, list) else [u])
    return flat


@factory
def tool_node(spec: NodeSpec, graph: Graph, env: Any) -> ToolRunner:
    wraps = with_hook(bound_middleware(graph, env), HookPoint.WRAP_TOOL_CALL)
    runner = ToolRunner({t.name: t for t in bind_tools(graph, env)}, wraps)
    runner.mcp = mcp_toolset(graph, env)
    return runner


def needs_state(agent: AgentSpec) -> bool:
    """Whether any tool reads the state (E4), so each Send carries a snapshot of it."""
    from ..ir import InjectedKind

    if any(HookPoint.WRAP_TOOL_CALL in m.hooks for m in agent.middleware):
        return True  # a wrap_tool_call reads `request.state` (D12: the reviewer's edits)
    return any(
        a.kind in (InjectedKind.STATE, InjectedKind.RUNTIME)
        for t in all_tool_specs(agent)
        for a in t.injected
    )


# ---------------------------------------------------------------- routers


def _label(route: routing.Route) -> str:
    return route.value


@factory
def model_to_tools(spec: BranchSpec, graph: Graph, env: Any) -> Callable[..., Any]:
    """C2: jump_to wins; no tool calls ends; each pending call is one `tools` task (E5)."""
    agent = agent_of(graph)
    names = structured_names(agent, env)
    with_state = needs_state(agent)

    def route(state: Mapping[str, Any]) -> Any:
        decision = routing.after_model(state, names)
        if isinstance(decision, routing.Route):
            return _label(decision)
        snapshot = dict(state) if with_state else None
        return [Send("tools", {TOOL_CALL_KEY: c, STATE_KEY: snapshot}) for c in decision]

    return route


@factory
def tools_to_model(spec: BranchSpec, graph: Graph, env: Any) -> Callable[..., Any]:
    """C5/G2/G8: back to the model unless all executed tools return directly or a
    structured answer was given."""
    agent = agent_of(graph)
    direct = {t.name: t.return_direct for t in all_tool_specs(agent)}
    names = structured_names(agent, env)

    def route(state: Mapping[str, Any]) -> str:
        return _label(routing.after_tools(state, direct, names))

    return route


@factory
def model_to_model(spec: BranchSpec, graph: Graph, env: Any) -> Callable[..., Any]:
    """C2/G4 with no tools node: retry until a fresh structured answer ends the run."""

    def route(state: Mapping[str, Any]) -> str:
        return _label(routing.after_model_no_tools(state))

    return route


@factory
def hook_router(spec: BranchSpec, graph: Graph, env: Any) -> Callable[..., Any]:
    """A hook with declared jumps: its `jump_to`, else the default edge."""

    def route(state: Mapping[str, Any]) -> str:
        jump = routing.jump_route(state)
        return jump.value if jump is not None else "default"

    return route


# ---------------------------------------------------------------- middleware hooks


@factory
def hook_node(spec: NodeSpec, graph: Graph, env: Any) -> Callable[..., Any]:
    """One middleware hook (before_agent, before_model, after_model, after_agent).

    The node calls the agent's shared middleware object (see `middleware/binding.py`) with
    `(state, runtime)` and returns its update (which may set `jump_to`).
    """
    name, point = spec.config["middleware"], HookPoint(spec.config["point"])
    bound = next((b for b in bound_middleware(graph, env) if b.name == name), None)
    if bound is None:
        raise AgentSetupError(f"hook node `{spec.name}` names unknown middleware `{name}`")
    try:
        hook = hook_caller(bound.obj, point)
    except TypeError:
        raise AgentSetupError(f"middleware `{name}` has no `{point.value}` hook") from None
    tools = tuple(bind_tools(graph, env))

    async def node(state: Mapping[str, Any], ctx: Any) -> Any:
        return await hook(state, AgentRuntime(ctx, tools))

    node.__name__ = spec.name
    return node
