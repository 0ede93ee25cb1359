"""Tools: a Python function made callable by the model, and one tool call run to its answer.

Input: a Python function (plain or decorated with `@tool`), a `ToolCall` from the model, the
agent's state and the task's `RunContext`. Output: a `Tool` (name, description, argument
schema: B11) and, per call, a `ToolMessage` or a validated `Command` (or a list of them).

Invariants (each cites its seat):
- B11: the name is `__name__`, the description the whole docstring (dedented, stripped),
  the schema comes from the signature and type hints; a function without a docstring is
  refused when the tool is built.
- E4: parameters annotated `InjectedState`, `InjectedStore`, `InjectedToolCallId` or typed
  `ToolRuntime` are hidden from the model's schema and filled in just before the call; a
  value the model supplied for one of them is dropped. The store is the run's long-term
  store (I1, `runtime/store.py`), never the checkpointer; a tool declaring `InjectedStore`
  in a run without one fails the run (`StoreRequiredError`); `ToolRuntime.store` is None.
- E2: the model's arguments are validated before the call; a failure is answered with an
  error `ToolMessage` that lists only model-controlled arguments.
- E3: any other exception stops the run, except a `ToolException` from a tool that sets
  `handle_tool_error`, which becomes an error reply.
- B8/E9: return values are formatted as LangChain's core + ToolNode do, never truncated.
- C7/D3/E11: a returned `Command` must answer its own call when it updates messages.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from ..ir import InjectedArg, InjectedKind
from ..runtime.errors import StoreRequiredError
from ..runtime.types import Command, CommandGraph, RunConfig
from .messages import REMOVE_ALL_MESSAGES, RemoveMessage, ToolCall, ToolMessage, coerce_messages

ResponseFormat = Literal["content", "content_and_artifact"]

# B8: content blocks a tool may return as-is (langchain_core TOOL_MESSAGE_BLOCK_TYPES).
BLOCK_TYPES = frozenset(
    {
        "text",
        "image_url",
        "image",
        "json",
        "search_result",
        "custom_tool_call_output",
        "document",
        "file",
    }
)

# E1 / E2 / E3: the texts the model reads (langgraph prebuilt/tool_node.py templates).
INVALID_TOOL_NAME_TEMPLATE = "Error: {name} is not a valid tool, try one of [{names}]."
INVOCATION_ERROR_TEMPLATE = (
    "Error invoking tool '{name}' with kwargs {kwargs} with error:\n"
    " {error}\n Please fix the error and try again."
)


class ToolException(Exception):
    """Raised by a tool to report a failure the model may read (with `handle_tool_error`)."""


class ToolDefinitionError(TypeError):
    """A Python function that cannot be a tool (no docstring, unsupported signature)."""


class ToolCommandError(ValueError):
    """A tool returned a `Command` or list that does not answer its own call (E11)."""


# ---------------------------------------------------------------- injection markers (E4)


class _Marker:
    kind: InjectedKind

    def __init__(self, field: str | None = None) -> None:
        self.field = field

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.field!r})" if self.field else type(self).__name__


class InjectedState(_Marker):
    """`Annotated[dict, InjectedState]` or `Annotated[list, InjectedState("messages")]`."""

    kind = InjectedKind.STATE


class InjectedStore(_Marker):
    """`Annotated[Store, InjectedStore]`: the run's long-term store (I1; required, E4)."""

    kind = InjectedKind.STORE


class InjectedToolCallId(_Marker):
    kind = InjectedKind.TOOL_CALL_ID


@dataclass(frozen=True, slots=True)
class ToolRuntime:
    """What a tool typed `runtime: ToolRuntime` receives (E4)."""

    state: Mapping[str, Any]
    tool_call_id: str | None
    config: RunConfig
    store: Any = None  # I1: the run's long-term store, or None
    context: Any = None  # the task's RunContext

    def emit(self, payload: Any) -> None:
        """Send a `custom` stream event."""
        if self.context is not None:
            self.context.emit("custom", payload)


# ---------------------------------------------------------------- the Tool


class ToolCost:
    """How long a sync tool's calls take, to decide whether it may run inline on the event
    loop (E5; the runtime's rule for sync nodes): after `PROVE` consecutive calls under
    `CHEAP_NS` it runs inline; its first inline call over `CHEAP_NS` sends it back to the
    pool for good. A slow call in a worker thread only restarts the proof, since there a
    wait for the GIL reads as time spent. Advisory counters: races are harmless."""

    __slots__ = ("cheap", "proven", "slow")
    CHEAP_NS = 50_000  # under the cost of the thread hop it replaces
    PROVE = 3

    def __init__(self) -> None:
        self.cheap = self.slow = False
        self.proven = 0

    def observe(self, elapsed_ns: int, inline: bool) -> None:
        if elapsed_ns > self.CHEAP_NS:
            if inline:
                self.slow, self.cheap = True, False
            self.proven = 0
        elif not self.slow and not self.cheap:
            self.proven += 1
            self.cheap = self.proven >= self.PROVE


@dataclass(frozen=True, slots=True)
class Tool:
    """A function the model can call. Calling the Tool calls the function unchanged."""

    name: str
    description: str
    fn: Callable[..., Any]
    args_model: type[BaseModel]  # the model-visible arguments only (E4)
    parameters: dict[str, Any]  # JSON Schema the model reads
    is_async: bool = False
    return_direct: bool = False
    response_format: ResponseFormat = "content"
    injected: tuple[InjectedArg, ...] = ()
    handle_tool_error: bool | str | Callable[[ToolException], Any] | None = None
    accepts: frozenset[str] = field(default_factory=frozenset)  # every parameter name
    raw_args: bool = False  # E2: a JSON-schema tool (MCP) gets the model's arguments as given
    # E5: a sync body proven cheap runs on the event loop (see `_invoke`); shared by copies
    cost: ToolCost = field(default_factory=lambda: ToolCost(), compare=False, repr=False)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def with_options(self, **changes: Any) -> Tool:
        return replace(self, **changes)


def tool(
    name_or_fn: Any = None,
    *,
    description: str | None = None,
    return_direct: bool = False,
    response_format: ResponseFormat = "content",
    handle_tool_error: Any = None,
) -> Any:
    """`@tool`, `@tool("name", return_direct=True)`, `@tool(response_format=...)` (LangChain's
    shape, so the compiler's static scan and the runtime read a decorator alike)."""
    options = dict(
        description=description,
        return_direct=return_direct,
        response_format=response_format,
        handle_tool_error=handle_tool_error,
    )
    if callable(name_or_fn):
        return make_tool(name_or_fn, **options)

    def decorate(fn: Callable[..., Any]) -> Tool:
        return make_tool(fn, name=name_or_fn, **options)

    return decorate


def as_tool(obj: Any) -> Tool:
    """A `Tool` as given, or a plain function wrapped with the decorator's defaults (B11)."""
    return obj if isinstance(obj, Tool) else make_tool(obj)


def make_tool(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    return_direct: bool = False,
    response_format: ResponseFormat = "content",
    handle_tool_error: Any = None,
) -> Tool:
    if not callable(fn):
        raise ToolDefinitionError(f"a tool must be a function, got {type(fn).__name__}")
    tool_name = name or getattr(fn, "__name__", None)
    if not tool_name:
        raise ToolDefinitionError(f"cannot name a tool made from {fn!r}; pass a name")
    doc = description if description is not None else inspect.getdoc(fn)
    if not doc:  # B11: LangChain refuses a function without a docstring
        raise ToolDefinitionError(
            f"function `{tool_name}` has no docstring; a tool needs one: the model reads it "
            "as the tool's description"
        )
    model, injected, accepts = _signature_model(fn, tool_name)
    return Tool(
        name=tool_name,
        description=doc.strip(),
        fn=fn,
        args_model=model,
        parameters=tool_schema(model, tool_name, doc.strip()),
        is_async=inspect.iscoroutinefunction(fn),
        return_direct=return_direct,
        response_format=response_format,
        injected=injected,
        handle_tool_error=handle_tool_error,
        accepts=accepts,
    )


def _signature_model(fn: Callable[..., Any], name: str):
    """The pydantic model of the model-visible parameters, and the injected ones (E4)."""
    try:
        hints = get_type_hints(fn, include_extras=True)
    except Exception:  # an unresolvable forward reference: read annotations as Any
        hints = {}
    fields: dict[str, Any] = {}
    injected: list[InjectedArg] = []
    accepts: set[str] = set()
    for param in inspect.signature(fn).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or param.name in ("self", "cls"):
            continue
        accepts.add(param.name)
        ann = hints.get(param.name, Any)
        marker = injected_marker(param.name, ann)
        if marker is not None:
            injected.append(marker)
            continue
        default = ... if param.default is param.empty else param.default
        fields[param.name] = (ann, default)
    model = create_model(name, __config__=ConfigDict(arbitrary_types_allowed=True), **fields)
    return model, tuple(injected), frozenset(accepts)


def injected_marker(param: str, ann: Any) -> InjectedArg | None:
    candidates = [ann]
    if get_origin(ann) is Annotated:
        candidates = list(get_args(ann))
    for c in candidates:
        if c is ToolRuntime:
            return InjectedArg(param=param, kind=InjectedKind.RUNTIME)
        if isinstance(c, type) and issubclass(c, _Marker):
            return InjectedArg(param=param, kind=c.kind)
        if isinstance(c, _Marker):
            return InjectedArg(param=param, kind=c.kind, field=c.field)
    return None


def tool_schema(model: type[BaseModel], name: str, description: str) -> dict[str, Any]:
    schema = model.model_json_schema()
    schema["title"] = name
    schema["description"] = description
    schema.setdefault("properties", {})
    return schema


# ---------------------------------------------------------------- running one call


@dataclass(frozen=True, slots=True)
class CallEnv:
    """What a call may be given besides its arguments (E4)."""

    state: Mapping[str, Any]
    config: RunConfig = field(default_factory=RunConfig)
    store: Any = None
    context: Any = None


ToolResult = ToolMessage | Command | list[ToolMessage | Command]


def unknown_tool_message(call: ToolCall, names: list[str]) -> ToolMessage:
    """E1: an unknown name is answered, the run continues."""
    return ToolMessage(
        content=INVALID_TOOL_NAME_TEMPLATE.format(name=call.name, names=", ".join(names)),
        name=call.name,
        tool_call_id=call.id or "",
        status="error",
    )


async def run_tool(t: Tool, call: ToolCall, env: CallEnv) -> ToolResult:
    """Run one call: validate (E2), inject (E4), call, format (B8) or check (E11)."""
    try:
        kwargs = validate_args(t, call)
    except ValidationError as exc:  # E2: told to the model, injected args filtered out
        return _error_message(
            call,
            INVOCATION_ERROR_TEMPLATE.format(
                name=call.name, kwargs=call.args, error=format_validation_error(exc)
            ),
        )
    kwargs.update(inject(t, call, env))
    try:
        value = await _invoke(t, kwargs)
    except ToolException as exc:
        if not t.handle_tool_error:  # E3: an unhandled failure stops the run
            raise
        return _error_message(call, format_content(_handled_error(exc, t.handle_tool_error)))
    return normalize_result(t, call, value)


def validate_args(t: Tool, call: ToolCall) -> dict[str, Any]:
    """The model's arguments, validated and coerced; only keys the model gave (as core)."""
    hidden = {a.param for a in t.injected}
    given = {k: v for k, v in call.args.items() if k not in hidden}  # E4: forged values go
    if t.raw_args:  # E2: tools whose schema is a JSON-schema dict skip validation
        return given
    result = t.args_model.model_validate(given)
    return {k: getattr(result, k) for k in type(result).model_fields if k in given}


def format_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg', 'Unknown error')}")
    return "\n".join(parts)


def inject(t: Tool, call: ToolCall, env: CallEnv) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for arg in t.injected:
        if arg.kind is InjectedKind.STATE:
            values[arg.param] = _state_value(env.state, arg)
        elif arg.kind is InjectedKind.STORE:
            values[arg.param] = _store_for(t, arg, env)
        elif arg.kind is InjectedKind.TOOL_CALL_ID:
            values[arg.param] = call.id
        else:
            values[arg.param] = ToolRuntime(
                state=env.state,
                tool_call_id=call.id,
                config=env.config,
                store=env.store,
                context=env.context,
            )
    return values


def _store_for(t: Tool, arg: InjectedArg, env: CallEnv) -> Any:
    """E4 / I1: the run's long-term store; a tool that declares one fails without it."""
    if env.store is None:
        raise StoreRequiredError(
            f"tool `{t.name}` asks for the long-term store (parameter `{arg.param}`, "
            "InjectedStore), but this run has none",
            help='add `store memory` or `store sqlite(".agentc/memory.db")` to the agent '
            "that is run (an agent used as a tool or node uses the outer run's store), "
            "or pass store=… to agentc.load_agent / runtime.compile",
        )
    return env.store


def _state_value(state: Mapping[str, Any], arg: InjectedArg) -> Any:
    if arg.field is None:
        return state
    if arg.field not in state:
        raise KeyError(arg.field)
    return state[arg.field]


async def _invoke(t: Tool, kwargs: dict[str, Any]) -> Any:
    if t.is_async:
        return await t.fn(**kwargs)
    # E5: sync tool bodies run in the default thread pool so parallel calls overlap; one
    # that has proven cheap runs inline, saving a thread hop that costs more than the call
    # (`ToolCost`).
    cost = t.cost
    if cost.cheap:
        return _timed_call(t.fn, kwargs, cost, True)
    return await asyncio.to_thread(_timed_call, t.fn, kwargs, cost, False)


def _timed_call(
    fn: Callable[..., Any], kwargs: dict[str, Any], cost: ToolCost, inline: bool
) -> Any:
    start = time.perf_counter_ns()
    try:
        return fn(**kwargs)
    finally:
        cost.observe(time.perf_counter_ns() - start, inline)


def _handled_error(exc: ToolException, flag: Any) -> Any:
    if isinstance(flag, bool):
        return exc.args[0] if exc.args else "Tool execution error"
    if isinstance(flag, str):
        return flag
    return flag(exc)


def _error_message(call: ToolCall, content: Any) -> ToolMessage:
    return ToolMessage(content=content, name=call.name, tool_call_id=call.id or "", status="error")


# ---------------------------------------------------------------- results (B8, E9, E11)


def format_content(value: Any) -> str | list[Any]:
    """B8/E9: what the model reads for a tool's return value; nothing is cut."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(_is_block_or_str(v) for v in value):
        value = list(value)
        if all(isinstance(v, dict) for v in value):
            return value  # typed content blocks pass
        # a list of plain strings reaches the model as one JSON string (ToolNode's step)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def _is_block_or_str(v: Any) -> bool:
    return isinstance(v, str) or (isinstance(v, dict) and v.get("type") in BLOCK_TYPES)


def normalize_result(t: Tool, call: ToolCall, value: Any) -> ToolResult:
    if isinstance(value, Command):
        return validate_command(value, call)
    if isinstance(value, ToolMessage):
        return value.model_copy(update={"content": format_content(value.content)})
    if (
        isinstance(value, list)
        and value
        and all(isinstance(v, (Command, ToolMessage)) for v in value)
    ):
        return validate_command_list(value, call)
    artifact = None
    if t.response_format == "content_and_artifact":
        if not (isinstance(value, tuple) and len(value) == 2):
            raise ValueError(
                f"tool `{t.name}` has response_format 'content_and_artifact' so it must "
                f"return a (content, artifact) pair; it returned {type(value).__name__}"
            )
        value, artifact = value
    return ToolMessage(
        content=format_content(value), artifact=artifact, name=t.name, tool_call_id=call.id or ""
    )


def validate_command(cmd: Command, call: ToolCall, *, require_answer: bool = True) -> Command:
    """C7/D3/E11: a messages update to this graph must answer the tool's own call."""
    if isinstance(cmd.update, list):  # under create_agent a list-shaped update is refused
        raise ToolCommandError(
            f"tool `{call.name}` returned Command(update=[...]); under an agent a tool's "
            'Command must update a dict, e.g. Command(update={"messages": [ToolMessage(..., '
            "tool_call_id=...)]})"
        )
    if not isinstance(cmd.update, Mapping):
        return cmd
    messages = coerce_messages(cmd.update.get("messages", []))
    if (
        len(messages) == 1
        and isinstance(messages[0], RemoveMessage)
        and messages[0].id == REMOVE_ALL_MESSAGES
    ):
        return cmd
    answered = False
    fixed = []
    for m in messages:
        if isinstance(m, ToolMessage) and m.tool_call_id == call.id:
            m, answered = m.model_copy(update={"name": call.name}), True
        fixed.append(m)
    if require_answer and cmd.graph is CommandGraph.CURRENT and not answered:
        raise ToolCommandError(
            f"tool `{call.name}` returned a Command that updates state but carries no "
            f"ToolMessage for its call {call.id!r}; add ToolMessage(..., tool_call_id="
            f"{call.id!r}) to Command.update['messages']"
        )
    update = dict(cmd.update)
    if "messages" in cmd.update:
        update["messages"] = fixed
    return replace(cmd, update=update)


def validate_command_list(items: list[Any], call: ToolCall) -> list[ToolMessage | Command]:
    """E11: a returned list must hold exactly one answer to the tool's own call."""
    count = 0
    for item in items:
        if isinstance(item, ToolMessage):
            count += item.tool_call_id == call.id
        elif isinstance(item.update, Mapping):
            count += sum(
                isinstance(m, ToolMessage) and m.tool_call_id == call.id
                for m in coerce_messages(item.update.get("messages", []))
            )
    if count != 1:
        raise ToolCommandError(
            f"tool `{call.name}` returned a list with {count} messages bound to tool_call_id "
            f"{call.id!r}; expected exactly one terminating ToolMessage"
        )
    return [
        validate_command(i, call, require_answer=False)
        if isinstance(i, Command)
        else i.model_copy(update={"content": format_content(i.content)})
        for i in items
    ]
