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
- B8/E9, C7/D3/E11: return values become answers in `tool_results.py` (formatted as
  LangChain's core + ToolNode do, never truncated; a returned `Command` must answer its own
  call when it updates messages).
- E5: a sync body runs where the runtime's one inline policy puts it (`runtime/inline.py`):
  in the thread pool, so parallel calls overlap, unless declared `@inline` or proven cheap.
- `@tool(timeout=30)`: a call's seconds; the tools node answers a late one with an error.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import field, replace
from typing import TYPE_CHECKING, Annotated, Any, TypedDict, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from ..ir import InjectedArg, InjectedKind
from ..runtime.errors import StoreRequiredError
from ..runtime.inline import SyncPolicy, run_sync
from ..runtime.records import dataclass
from ..runtime.schema import tool_json_schema
from ..runtime.types import RunConfig, RunContext
from .messages import ToolCall, ToolMessage
from .tool_results import (
    BLOCK_TYPES,
    ResponseFormat,
    ToolCommandError,
    ToolResult,
    format_content,
    normalize_result,
    validate_command,
    validate_command_list,
)

if TYPE_CHECKING:
    from ..runtime.store import Store

__all__ = [  # what `from agentc.stdlib.tools import …` offers (results re-exported)
    "BLOCK_TYPES",
    "CallEnv",
    "InjectedState",
    "InjectedStore",
    "InjectedToolCallId",
    "ResponseFormat",
    "Tool",
    "ToolCommandError",
    "ToolDefinitionError",
    "ToolException",
    "ToolResult",
    "ToolRuntime",
    "as_tool",
    "format_content",
    "make_tool",
    "normalize_result",
    "run_tool",
    "tool",
    "unknown_tool_message",
    "validate_command",
    "validate_command_list",
]

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
    """What a tool typed `runtime: ToolRuntime` receives (E4): LangChain's ToolRuntime
    (`state`, `context`, `config`, `stream_writer`, `tool_call_id`, `store`, `tools`);
    `context` is the run's (`invoke(…, context=…)`), as LangGraph's; the task running the
    call (agentc's `RunContext`, for interrupts and child runs) is `task`."""

    state: Mapping[str, Any]
    tool_call_id: str | None
    config: RunConfig
    store: Store | None = None  # I1: the run's long-term store, or None
    task: RunContext | None = None  # the task running the call (None: outside a run)
    tools: tuple[Tool, ...] = ()  # every tool of the node running the call

    @property
    def context(self) -> Any:
        """The run's context (None when the run was given none)."""
        return self.task.context if self.task is not None else self.config.context

    @property
    def stream_writer(self) -> Callable[[Any], None]:
        """LangGraph's `StreamWriter`: `runtime.stream_writer(payload)` emits `custom`."""
        return self.emit

    def emit(self, payload: Any) -> None:
        """Send a `custom` stream event."""
        if self.task is not None:
            self.task.emit("custom", payload)


# ---------------------------------------------------------------- the Tool


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
    timeout_s: float | None = None  # each call's bound; None: unbounded (as LangChain's)
    # E5: where a sync body's calls run (`runtime/inline.py`); shared by copies
    policy: SyncPolicy = field(default_factory=SyncPolicy, compare=False, repr=False)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def with_options(self, **changes: Any) -> Tool:
        return replace(self, **changes)


class ToolOptions(TypedDict):
    """The decorator's settings, as `make_tool` takes them."""

    description: str | None
    return_direct: bool
    response_format: ResponseFormat
    handle_tool_error: Any
    timeout: float | None


def tool(
    name_or_fn: Any = None,
    *,
    description: str | None = None,
    return_direct: bool = False,
    response_format: ResponseFormat = "content",
    handle_tool_error: Any = None,
    timeout: float | None = None,
) -> Any:
    """`@tool`, `@tool("name", return_direct=True)`, `@tool(response_format=…, timeout=30)`
    (LangChain's shape, so the compiler's static scan and the runtime read one alike)."""
    options = ToolOptions(
        description=description,
        return_direct=return_direct,
        response_format=response_format,
        handle_tool_error=handle_tool_error,
        timeout=timeout,
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
    timeout: float | None = None,
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
        timeout_s=tool_timeout(tool_name, timeout),
        policy=SyncPolicy.of(fn),
    )


def tool_timeout(name: str, value: object) -> float | None:
    """A tool's `timeout` as seconds: a positive, finite number, or None for none."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
        raise ToolDefinitionError(
            f"tool `{name}` has timeout={value!r}; expected a positive number of seconds, "
            "such as 30 (leave it out for no timeout)"
        )
    return float(value)


def _signature_model(
    fn: Callable[..., Any], name: str
) -> tuple[type[BaseModel], tuple[InjectedArg, ...], frozenset[str]]:
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
    schema = tool_json_schema(model, name)  # a plain class's parameter: ToolSchemaError
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
    store: Store | None = None
    task: RunContext | None = None  # the task running the call
    tools: tuple[Tool, ...] = ()  # every tool of the node (ToolRuntime.tools)


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
    if t.injected:
        kwargs.update(inject(t, call, env))
    try:
        # E5: a sync body in the pool so parallel calls overlap, or inline (declared, or cheap)
        value = await (t.fn(**kwargs) if t.is_async else run_sync(t.policy, t.fn, kwargs))
    except ToolException as exc:
        if not t.handle_tool_error:  # E3: an unhandled failure stops the run
            raise
        return _error_message(call, format_content(_handled_error(exc, t.handle_tool_error)))
    return normalize_result(value, call, t.name, t.response_format)


def validate_args(t: Tool, call: ToolCall) -> dict[str, Any]:
    """The model's arguments, validated and coerced; only keys the model gave (as core)."""
    given = call.args  # read only: what is returned is a new dict
    if t.injected:  # E4: forged values go
        hidden = {a.param for a in t.injected}
        given = {k: v for k, v in given.items() if k not in hidden}
    if t.raw_args:  # E2: tools whose schema is a JSON-schema dict skip validation
        return dict(given)
    # model_validate's own call; a model's `__dict__` holds its fields in order (no extras)
    fields = t.args_model.__pydantic_validator__.validate_python(given).__dict__
    if given.keys() >= fields.keys():  # every field given (the usual call)
        return dict(fields)
    return {k: v for k, v in fields.items() if k in given}


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
                task=env.task,
                tools=env.tools,
            )
    return values


def _store_for(t: Tool, arg: InjectedArg, env: CallEnv) -> Store:
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


def _handled_error(exc: ToolException, flag: Any) -> Any:
    if isinstance(flag, bool):
        return exc.args[0] if exc.args else "Tool execution error"
    if isinstance(flag, str):
        return flag
    return flag(exc)


def _error_message(call: ToolCall, content: Any) -> ToolMessage:
    return ToolMessage(content=content, name=call.name, tool_call_id=call.id or "", status="error")
