"""The middleware protocol: LangChain v1's `AgentMiddleware` hook shapes, on agentc's types.

Input: nothing (definitions only). A middleware is an object with any of the hooks
`before_agent`, `before_model`, `after_model`, `after_agent` — `fn(state, runtime)` returning
None or a state update (which may carry `jump_to`) — and the wrappers
`wrap_model_call(request, handler)` / `wrap_tool_call(request, handler)`; each may be written
`async` instead under an `a` prefix (`abefore_model`, `awrap_model_call`, …). The agent
calls whichever one the class defines (the async one when both are), through one async core
(`chain.py`, the one place that looks for them). A hook written for LangChain ports by
changing its import line.

Invariants: `ModelRequest` and `ToolCallRequest` are frozen; `override(**changes)` returns a
new one (as LangChain's does). A tool call travels as LangChain's dict shape
(`{"name", "args", "id", "type"}`) so `request.tool_call["args"]` works unchanged.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict, TypeVar, runtime_checkable

from ...runtime.algo import ParentCommand
from ...runtime.context import interrupt
from ...runtime.records import dataclass
from ...runtime.types import Command, GraphInterrupt, RunConfig, RunContext
from ..messages import AIMessage, BaseMessage, SystemMessage, ToolCall
from ..providers.base import ChatModel, ToolChoice
from ..tools import Tool, ToolRuntime

if TYPE_CHECKING:
    from ...runtime.store import Store
    from ..structured_output import StructuredOutput

F = TypeVar("F", bound=Callable[..., Any])

StateUpdate = dict[str, Any]  # what a node hook returns: channel writes, maybe `jump_to`
ToolLike = Tool | Callable[..., Any]  # a `Tool`, or a function made one (`tools = [...]`)


# ---------------------------------------------------------------- the runtime a hook gets


class AgentRuntime:
    """What a hook's `runtime` argument holds (LangGraph's `Runtime`, typed).

    `context` is the run's context (`invoke(…, context=…)`, checked against the graph's
    `context` schema; None when none was given), as LangGraph's `Runtime.context` is;
    `store` the run's store; `config` its `RunConfig` (`configurable` is there); `task` the
    node's RunContext;
    `stream_writer(value)` emits a `custom` stream event; `tools` the agent's bound tools.
    agentc adds `run_id` and `thread_id` (per-run and per-thread counters key on them).
    Built once per hook call, so it only holds two references and reads the rest lazily.
    """

    __slots__ = ("task", "tools")

    def __init__(self, task: RunContext | None = None, tools: tuple[Tool, ...] = ()) -> None:
        self.task, self.tools = task, tools

    @property
    def config(self) -> RunConfig | None:
        return self.task.config if self.task is not None else None

    @property
    def context(self) -> Any:
        return self.task.context if self.task is not None else None

    @property
    def store(self) -> Store | None:
        return self.task.store if self.task is not None else None

    @property
    def run_id(self) -> str:
        """The invoke/stream call's id; "" outside a run."""
        return self.task.run_id if self.task is not None else ""

    @property
    def thread_id(self) -> str | None:
        config = self.config
        return config.thread_id if config is not None else None

    def stream_writer(self, payload: Any) -> None:
        if self.task is not None:
            self.task.emit("custom", payload)

    @staticmethod
    def of(ctx: RunContext | None, tools: Sequence[Tool] = ()) -> AgentRuntime:
        return AgentRuntime(ctx, tools if isinstance(tools, tuple) else tuple(tools))


def ask_person(runtime: AgentRuntime | ToolRuntime | None, value: Any) -> Any:
    """`interrupt(value)` from a hook: through the hook's task when it has one, else the
    current task."""
    if isinstance(runtime, (AgentRuntime, ToolRuntime)) and runtime.task is not None:
        return runtime.task.interrupt(value)
    return interrupt(value)


# ---------------------------------------------------------------- model calls


@dataclass(frozen=True)
class ModelRequest:
    """One model call as middleware sees it (LangChain's `ModelRequest`).

    `messages` excludes the system message; `tools` holds the agent's `Tool`s and provider
    tool maps (A8); `response_format` is the agent's structured output (or None);
    `model_settings` become provider options (temperature …).
    """

    model: ChatModel
    messages: list[BaseMessage]
    system_message: SystemMessage | None = None
    tool_choice: ToolChoice = None
    tools: list[Tool | dict[str, Any]] = field(default_factory=list)
    response_format: StructuredOutput | None = None
    state: Mapping[str, Any] = field(default_factory=dict)
    runtime: AgentRuntime | None = None
    model_settings: dict[str, Any] = field(default_factory=dict)

    @property
    def system_prompt(self) -> str | None:
        return self.system_message.text if self.system_message is not None else None

    def override(self, **changes: Any) -> ModelRequest:
        if "system_prompt" in changes:
            if "system_message" in changes:
                raise ValueError("Cannot specify both system_prompt and system_message")
            text = changes.pop("system_prompt")
            changes["system_message"] = None if text is None else SystemMessage(content=text)
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class ModelResponse:
    """What a model handler returns: the new messages and the parsed structured answer."""

    result: list[BaseMessage]
    structured_response: Any = None


@dataclass(frozen=True)
class ExtendedModelResponse:
    """A response plus a `Command` whose update is applied after the model node's own."""

    model_response: ModelResponse
    command: Command | None = None


ModelResult = ModelResponse | ExtendedModelResponse


def as_model_response(value: object) -> ModelResult:
    """A wrapper may return a ModelResponse, an ExtendedModelResponse or a bare AIMessage."""
    if isinstance(value, (ModelResponse, ExtendedModelResponse)):
        return value
    if isinstance(value, AIMessage):
        return ModelResponse(result=[value])
    raise TypeError(
        f"a model-call handler must return a ModelResponse or an AIMessage, "
        f"got {type(value).__name__}"
    )


# ---------------------------------------------------------------- tool calls


class ToolCallDict(TypedDict):
    """LangChain's dict shape of a tool call (`langchain_core.messages.ToolCall`)."""

    name: str
    args: dict[str, Any]
    id: str | None
    type: Literal["tool_call"]


@dataclass(frozen=True)
class ToolCallRequest:
    """One tool call as middleware sees it: the call (a dict), the `Tool` (None when the
    model named an unknown tool, E1), the state and the runtime — a `ToolRuntime` inside
    `wrap_tool_call`; the hook's `AgentRuntime` when a review rule's `when` is asked after
    the model call."""

    tool_call: ToolCallDict
    tool: Tool | None
    state: Mapping[str, Any]
    runtime: ToolRuntime | AgentRuntime | None = None
    available: tuple[Tool, ...] = ()  # every tool of the agent (an edit may name another)

    def override(self, **changes: Any) -> ToolCallRequest:
        return dataclasses.replace(self, **changes)


def tool_call_dict(call: ToolCall) -> ToolCallDict:
    """LangChain's dict shape of a tool call (key order as LangChain writes it)."""
    return {"name": call.name, "args": dict(call.args), "id": call.id, "type": "tool_call"}


def tool_names(tools: Sequence[Tool | str] | None) -> set[str] | None:
    """The names a `tools` setting lists (tools or names); None: every tool."""
    return None if tools is None else {t.name if isinstance(t, Tool) else t for t in tools}


# ---------------------------------------------------------------- the base class


def hook_config(*, can_jump_to: Sequence[str] | None = None) -> Callable[[F], F]:
    """Mark a hook method with the jumps it may make (read statically by the compiler)."""

    def decorate(fn: F) -> F:
        fn.__can_jump_to__ = list(can_jump_to or [])  # type: ignore[attr-defined] - a marker
        return fn

    return decorate


class AgentMiddleware:
    """Subclass and define any hook; the agent calls only the hooks the class defines.

    Class attributes: `state_schema` (extra state channels, declared in the `.agent`
    middleware declaration for built-ins), `tools` (extra tools the middleware brings:
    `Tool`s or functions).
    """

    state_schema: type | None = None
    tools: Sequence[ToolLike] = ()

    @property
    def name(self) -> str:
        return type(self).__name__


class ExitBehavior(str, enum.Enum):
    END = "end"
    ERROR = "error"
    CONTINUE = "continue"
    ASK = "ask"


# Exceptions that steer the graph and must pass every retry/fallback/error handler
# (LangGraph's GraphBubbleUp: interrupts, a Command for the parent graph).
CONTROL_SIGNALS: tuple[type[BaseException], ...] = (GraphInterrupt, ParentCommand)


# ---------------------------------------------------------------- agentc's own extensions


class TextScrubber(Protocol):
    """Filters one streamed reply's text: `feed` each delta, `flush` at the end."""

    def feed(self, text: str) -> str: ...

    def flush(self) -> str: ...


@runtime_checkable
class StreamWatcher(Protocol):
    """A middleware that filters streamed text before a stream reader sees it (D16)."""

    def stream_scrubber(self) -> TextScrubber | None: ...
