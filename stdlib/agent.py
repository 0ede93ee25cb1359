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

import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..compiler.ir import AgentSpec, BranchSpec, Graph, ModelSpec, NodeSpec, OutputStrategy, \
    ToolSpec
from ..runtime.types import Send, factory
from . import routing
from .messages import REMOVE_ALL_MESSAGES, AIMessage, BaseMessage, RemoveMessage, \
    SystemMessage, ToolCall, ToolMessage
from .providers.base import ChatModel, ModelRequest, ToolDefinition
from .structured_output import OutputSchema, StructuredOutput, handle_provider_strategy, \
    handle_tool_strategy, schema_from_spec
from .tools import CallEnv, Tool, ToolDefinitionError, as_tool, make_tool, run_tool, \
    unknown_tool_message

from ..runtime.serde import register_type  # noqa: E402

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


@dataclass(slots=True)
class ModelChooser:
    """The fixed model, or per run the one the caller names (A4)."""

    spec: ModelSpec
    base_dir: str
    default: ChatModel | None = None
    per_run: dict[str, ChatModel] = field(default_factory=dict)

    def fixed_spec(self) -> ModelSpec:
        options = {k: v for k, v in self.spec.options.items() if k != "configurable"}
        return self.spec.model_copy(update={"options": options})

    def pick(self, ctx: Any) -> ChatModel:
        if is_configurable(self.spec) and ctx is not None:
            chosen = ctx.config.configurable.get("model")
            if isinstance(chosen, str) and chosen:
                if chosen not in self.per_run:
                    self.per_run[chosen] = resolve_model(
                        model_spec_from_string(chosen, self.spec.span), self.base_dir)
                return self.per_run[chosen]
        if self.default is None:
            self.default = resolve_model(self.fixed_spec(), self.base_dir)
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


def bind_tool(spec: ToolSpec, env: Any) -> Tool:
    """A tool of the IR made callable; the spec's name and flags are authoritative."""
    if spec.agent is not None:
        return agent_tool(spec, env)
    if spec.ref is None:
        raise AgentSetupError(f"tool `{spec.name}` names no Python function")
    obj = env.load(spec.ref)
    try:
        t = as_tool(obj) if isinstance(obj, Tool) else make_tool(obj, name=spec.name)
    except ToolDefinitionError as exc:
        raise AgentSetupError(f"tool `{spec.name}` ({spec.ref.key}): {exc}") from None
    return t.with_options(name=spec.name, return_direct=spec.return_direct or t.return_direct,
                          response_format=spec.response_format)


def agent_tool(spec: ToolSpec, env: Any) -> Tool:
    """H1: another agent run as a tool; the model's `request` becomes its user message."""
    graph = env.subgraph(spec.agent)

    async def run_agent(request: str) -> str:
        result = await graph.ainvoke({"messages": [{"role": "user", "content": request}]})
        messages = result.get("messages") or []
        return messages[-1].text if messages else ""

    run_agent.__name__ = spec.name
    return make_tool(run_agent, name=spec.name, description=spec.description or spec.name,
                     return_direct=spec.return_direct)


def bind_output(agent: AgentSpec, env: Any) -> StructuredOutput | None:
    if agent.output is None:
        return None
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
    return ToolMessage(content=f"Tool call {name} with id {call.id} could not be executed - "
                               "arguments were malformed or truncated.",
                       name=name, tool_call_id=call.id, status="error")


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


# ---------------------------------------------------------------- the model node

@dataclass(frozen=True, slots=True)
class ModelCall:
    """Everything the model node fixes at bind time."""

    chooser: ModelChooser
    system: SystemMessage | None
    tools: tuple[ToolDefinition, ...]
    provider_tools: tuple[dict[str, Any], ...]
    output: StructuredOutput | None

    def request(self, model: ChatModel, history: Sequence[BaseMessage]) -> tuple[
            ModelRequest, OutputStrategy | None]:
        messages = (self.system, *history) if self.system else tuple(history)  # B1, B2
        tools, choice, fmt, strategy = self.tools, None, None, None  # B5, B6
        if self.output is not None:
            has_tools = bool(self.tools or self.provider_tools)
            strategy = self.output.effective(model.profile, model.name, has_tools)  # G5
            if strategy is OutputStrategy.TOOL:
                tools, choice = tools + self.output.tools(), "any"  # B7, C3
            else:
                fmt = self.output.response_format()  # B7
        return ModelRequest(messages=messages, tools=tools, provider_tools=self.provider_tools,
                            tool_choice=choice, response_format=fmt), strategy

    @staticmethod
    async def generate(model: ChatModel, request: ModelRequest, ctx: Any) -> AIMessage:
        """The reply; streamed as `messages` events when a reader asked for them."""
        modes = getattr(ctx, "modes", ())
        if not any(getattr(m, "value", m) == "messages" for m in modes):
            return await model.generate(request)
        from .providers.assemble import Assembler
        acc = Assembler()
        async for delta in model.stream(request):
            acc.add(delta)
            ctx.emit("messages", delta)
        return acc.message()

    async def __call__(self, state: Mapping[str, Any], ctx: Any = None) -> dict[str, Any]:
        history = list(state.get("messages") or [])
        repaired = patch_invalid_tool_calls(history)  # B4/E10
        model = self.chooser.pick(ctx)
        request, strategy = self.request(model, repaired or history)
        reply = await self.generate(model, request, ctx)
        if strategy is OutputStrategy.TOOL:
            outcome = handle_tool_strategy(self.output, reply)
        elif strategy is OutputStrategy.PROVIDER:
            outcome = handle_provider_strategy(self.output, reply)
        else:
            outcome = None
        new = list(outcome.messages) if outcome else [reply]
        update: dict[str, Any] = {"messages": new}
        if repaired is not None:  # the repaired history replaces the saved one
            update["messages"] = [RemoveMessage(id=REMOVE_ALL_MESSAGES), *repaired, *new]
        if outcome is not None and outcome.structured_response is not None:
            update["structured_response"] = outcome.structured_response
        elif self.output is not None:  # F12: a call with no answer clears the old one
            update["structured_response"] = None
        return update


@factory
def model_node(spec: NodeSpec, graph: Graph, env: Any) -> ModelCall:
    agent = agent_of(graph)
    tools = [bind_tool(t, env) for t in all_tool_specs(agent)]
    system = SystemMessage(content=agent.prompt) if agent.prompt is not None else None
    return ModelCall(
        chooser=ModelChooser(agent.model, env.base_dir),
        system=system,
        tools=tuple(ToolDefinition(t.name, t.description, t.parameters) for t in tools),
        provider_tools=tuple(p.definition for p in agent.provider_tools),  # A8
        output=bind_output(agent, env))


# ---------------------------------------------------------------- the tools node

@dataclass(frozen=True, slots=True)
class ToolRunner:
    """Runs the tool calls of one task (a Send's one call) or of the last AI message."""

    tools: Mapping[str, Tool]

    async def __call__(self, state: Any, ctx: Any = None) -> Any:
        calls, view = self._calls(state)
        env = CallEnv(state=view, config=getattr(ctx, "config", None) or _default_config(),
                      store=getattr(ctx, "store", None), context=ctx)
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
        t = self.tools.get(call.name)
        if t is None:
            return unknown_tool_message(call, list(self.tools))  # E1
        return await run_tool(t, call, env)


def _default_config() -> Any:
    from ..runtime.types import RunConfig
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
    agent = agent_of(graph)
    return ToolRunner({t.name: bind_tool(t, env) for t in all_tool_specs(agent)})


def needs_state(agent: AgentSpec) -> bool:
    """Whether any tool reads the state (E4), so each Send carries a snapshot of it."""
    from ..compiler.ir import InjectedKind
    return any(a.kind in (InjectedKind.STATE, InjectedKind.RUNTIME)
               for t in all_tool_specs(agent) for a in t.injected)


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

    The middleware's `impl` is a class (built with the validated config as keyword
    arguments) or an object; the node calls its method named after the point with
    `(state, ctx)` and returns its update (which may set `jump_to`).
    """
    agent = agent_of(graph)
    name, point = spec.config["middleware"], spec.config["point"]
    mw = next((m for m in agent.middleware if m.name == name), None)
    if mw is None:
        raise AgentSetupError(f"hook node `{spec.name}` names unknown middleware `{name}`")
    obj = env.load(mw.impl)
    if inspect.isclass(obj):
        obj = obj(**mw.config)
    method = getattr(obj, point, None)
    if method is None and callable(obj):
        method = obj  # a decorated function hook
    if method is None:
        raise AgentSetupError(f"middleware `{name}` has no `{point}` hook")

    async def node(state: Mapping[str, Any], ctx: Any = None) -> Any:
        result = method(state, ctx)
        return await result if inspect.isawaitable(result) else result
    return node
