"""Typed stream events: what `stream` / `astream` yield (never plain dicts).

Input: nothing (definitions only). Each event names its `mode` (a `StreamMode`), the step
it belongs to and, for task events, the node; `ns` is empty for the root graph and
`node:task` segments for events forwarded from a subgraph.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar

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


Event = ValuesEvent | UpdatesEvent | InterruptEvent | MessagesEvent | CustomEvent | DebugEvent
