"""Typed stream events: what `stream` / `astream` yield (never plain dicts).

Input: nothing (definitions only). Each event names its `mode` (a `StreamMode`), the step
it belongs to and, for task events, the node; `ns` is empty for the root graph and
`node:task` segments for events forwarded from a subgraph.
"""

from __future__ import annotations

import enum
from dataclasses import field
from typing import Any, ClassVar

from agentc.runtime.records import dataclass
from agentc.runtime.types import Interrupt, StreamMode


@dataclass(frozen=True, slots=True)
class ValuesEvent:
    mode: ClassVar[StreamMode] = StreamMode.VALUES
    step: int
    values: dict[str, Any]


@dataclass(frozen=True, slots=True)
class UpdatesEvent:
    mode: ClassVar[StreamMode] = StreamMode.UPDATES
    step: int
    node: str
    update: dict[str, Any] | None  # None: the task wrote nothing (LangGraph's `{node: None}`)
    # replayed from the node's cache: LangGraph's `updates` chunk then also carries
    # `"__metadata__": {"cached": True}`
    cached: bool = False


@dataclass(frozen=True, slots=True)
class InterruptEvent:
    """The run paused (sent in `values` and `updates` modes, as LangGraph's `__interrupt__`)."""

    mode: ClassVar[StreamMode] = StreamMode.UPDATES
    step: int
    interrupts: tuple[Interrupt, ...]


@dataclass(frozen=True, slots=True)
class MessagesEvent:
    mode: ClassVar[StreamMode] = StreamMode.MESSAGES
    step: int
    node: str
    payload: Any
    ns: str = ""


@dataclass(frozen=True, slots=True)
class CustomEvent:
    mode: ClassVar[StreamMode] = StreamMode.CUSTOM
    step: int
    node: str
    payload: Any
    ns: str = ""


class DebugKind(str, enum.Enum):
    TASK = "task"
    TASK_RESULT = "task_result"
    CHECKPOINT = "checkpoint"


@dataclass(frozen=True, slots=True)
class DebugEvent:
    mode: ClassVar[StreamMode] = StreamMode.DEBUG
    step: int
    kind: DebugKind
    payload: dict[str, Any]


# ---- the `events` mode: each model call and each tool call as a start and an end (or an
# error), as LangChain's `astream_events` `on_chat_model_*` / `on_tool_*` events. Every one
# names its call (`run_id`, shared by its start and its end), the task that made it
# (`node`, `task_id`, `step`) and where that task runs (`ns`: "" at the top, the child's
# namespace inside a subgraph or an agent used as a tool). Built only when a reader asked
# for the mode (`RunContext.streams(StreamMode.EVENTS)`).


@dataclass(frozen=True, slots=True)
class CallEvent:
    """What every model and tool call event says: which call, which task, where it runs."""

    mode: ClassVar[StreamMode] = StreamMode.EVENTS
    step: int
    node: str
    run_id: str  # one per call, shared by its start and its end (or error)
    ns: str  # "" at the top, the child's checkpoint namespace in a nested run
    task_id: str


@dataclass(frozen=True, slots=True)
class ModelCallEvent(CallEvent):
    model: str  # the model's name (`ChatModel.name`)
    provider: str


@dataclass(frozen=True, slots=True)
class ModelStart(ModelCallEvent):
    kind: ClassVar[str] = "model_start"
    messages: tuple[Any, ...]  # what the model is sent, the system message first
    options: dict[str, Any] = field(default_factory=dict)  # temperature, max_tokens, stop …


@dataclass(frozen=True, slots=True)
class ModelEnd(ModelCallEvent):
    kind: ClassVar[str] = "model_end"
    message: Any  # the reply, an `AIMessage`
    usage: Any  # its `usage_metadata` (None: the provider reported none)


@dataclass(frozen=True, slots=True)
class ModelError(ModelCallEvent):
    kind: ClassVar[str] = "model_error"
    error: BaseException  # what the call raised (raised on after this event)


@dataclass(frozen=True, slots=True)
class ToolCallEvent(CallEvent):
    tool: str
    call_id: str
    input: dict[str, Any]  # the call's arguments, as the model wrote them (in every event)


@dataclass(frozen=True, slots=True)
class ToolStart(ToolCallEvent):
    kind: ClassVar[str] = "tool_start"


@dataclass(frozen=True, slots=True)
class ToolEnd(ToolCallEvent):
    kind: ClassVar[str] = "tool_end"
    output: Any  # the answer: a `ToolMessage`, or the `Command` the tool returned
    status: str  # "success", or "error" for an error answer the model reads


@dataclass(frozen=True, slots=True)
class ToolError(ToolCallEvent):
    kind: ClassVar[str] = "tool_error"
    error: BaseException  # what the tool raised, not turned into an answer (fails the step)


RunEvent = ModelStart | ModelEnd | ModelError | ToolStart | ToolEnd | ToolError
RUN_EVENTS = (ModelStart, ModelEnd, ModelError, ToolStart, ToolEnd, ToolError)

Event = (
    ValuesEvent
    | UpdatesEvent
    | InterruptEvent
    | MessagesEvent
    | CustomEvent
    | DebugEvent
    | RunEvent
)
