"""LangGraph's stream chunks, made from agentc's typed events: what `stream(…,
stream_mode=…)` yields (`mode=` yields the typed events themselves).

Input: the `stream_mode` and `subgraphs` a caller passed, then the run's events in order.
Output: the chunks LangGraph 1.2.24 yields for the same run. Per mode: `values` the output
channels after each step; `updates` `{node: update}` (a cached task's with
`"__metadata__": {"cached": True}`); a pause `{"__interrupt__": (Interrupt, …)}` in
`updates` and, when `interrupt()` asked something (not at a breakpoint), the state with
`__interrupt__` in `values` (in that order, as LangGraph); `messages` `(delta, metadata)`
with LangGraph's `langgraph_step` and `langgraph_node` metadata (the delta is agentc's
`MessageDelta`, read as LangChain's `AIMessageChunk`: `.content`, `.tool_call_chunks`);
`custom` what the node wrote; agentc's own `events` the typed call event. A list of modes
tags each chunk `(mode, chunk)`; `subgraphs=True` puts the namespace tuple first: `(ns,
chunk)` or `(ns, mode, chunk)`. A tuple of modes counts as a list (LangGraph 1.2.24 then
yields untagged chunks of every mode, which cannot be told apart). `debug`, `tasks` and
`checkpoints` carry LangGraph's own payloads (task inputs, triggers, `get_state()`-shaped
checkpoints) that agentc does not build: they are refused with what to use instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, Sequence
from typing import Any

from agentc.runtime.errors import InvalidConfigError
from agentc.runtime.events import (
    RUN_EVENTS,
    CustomEvent,
    Event,
    InterruptEvent,
    MessagesEvent,
    UpdatesEvent,
    ValuesEvent,
)
from agentc.runtime.records import dataclass
from agentc.runtime.types import StreamMode

INTERRUPT_KEY = "__interrupt__"
NS_SEP = "|"
_MODES = {m.value: m for m in StreamMode if m is not StreamMode.DEBUG}
_REFUSED = {
    "debug": 'mode="debug" (agentc\'s typed task, result and checkpoint events)',
    "tasks": 'mode="debug" (agentc\'s typed task and result events)',
    "checkpoints": 'get_state_history(config) after the run, or mode="debug"',
}


@dataclass(frozen=True, slots=True)
class ChunkShape:
    """The modes a `stream_mode` asks for, and how each chunk is wrapped."""

    modes: tuple[StreamMode, ...]
    tagged: bool  # a list of modes: `(mode, chunk)`
    subgraphs: bool  # `(namespace, …)` first


def chunk_shape(stream_mode: str | Sequence[str], subgraphs: bool) -> ChunkShape:
    """What `stream_mode` asks for; an unknown or refused mode is one error saying why."""
    tagged = not isinstance(stream_mode, str)
    names = [stream_mode] if isinstance(stream_mode, str) else list(stream_mode)
    return ChunkShape(tuple(_mode(n) for n in names), tagged, subgraphs)


def _mode(name: object) -> StreamMode:
    key = name.value if isinstance(name, StreamMode) else name
    if isinstance(key, str) and key in _MODES:
        return _MODES[key]
    if isinstance(key, str) and key in _REFUSED:
        raise InvalidConfigError(
            f'stream_mode="{key}" gives LangGraph\'s own payloads, which agentc does not build',
            help=f"use {_REFUSED[key]}",
        )
    known = ", ".join(f'"{m}"' for m in _MODES)
    raise InvalidConfigError(f"stream_mode={key!r} is not a stream mode", help=f"use {known}")


class Chunker:
    """Turns one run's events into LangGraph's chunks; keeps the last values, which a
    pause's `values` chunk repeats."""

    def __init__(self, shape: ChunkShape) -> None:
        self.shape = shape
        self.values: dict[str, Any] = {}

    def chunks(self, event: Event) -> list[Any]:
        """The chunks `event` makes in the modes asked for (a pause makes two)."""
        parts = self._parts(event)
        return [self._wrap(ns, m, chunk) for ns, m, chunk in parts if m in self.shape.modes]

    def _parts(self, event: Event) -> list[tuple[str, StreamMode, Any]]:
        if isinstance(event, ValuesEvent):
            self.values = event.values
            return [("", StreamMode.VALUES, dict(event.values))]
        if isinstance(event, UpdatesEvent):
            chunk: dict[str, Any] = {event.node: event.update}
            if event.cached:
                chunk["__metadata__"] = {"cached": True}
            return [("", StreamMode.UPDATES, chunk)]
        if isinstance(event, InterruptEvent):
            asked = {INTERRUPT_KEY: event.interrupts}
            parts = [("", StreamMode.UPDATES, asked)]
            if event.interrupts:  # a breakpoint (D7) asks nothing: no `values` chunk for it
                parts.append(("", StreamMode.VALUES, {**self.values, **asked}))
            return parts
        if isinstance(event, MessagesEvent):
            meta = {"langgraph_step": event.step, "langgraph_node": event.node}
            return [(event.ns, StreamMode.MESSAGES, (event.payload, meta))]
        if isinstance(event, CustomEvent):
            return [(event.ns, StreamMode.CUSTOM, event.payload)]
        if isinstance(event, RUN_EVENTS):
            return [(event.ns, StreamMode.EVENTS, event)]
        return []  # debug events: not a LangGraph shape (refused above)

    def _wrap(self, ns: str, mode: StreamMode, chunk: Any) -> Any:
        space = tuple(ns.split(NS_SEP)) if ns else ()
        if self.shape.subgraphs:
            return (space, mode.value, chunk) if self.shape.tagged else (space, chunk)
        return (mode.value, chunk) if self.shape.tagged else chunk


async def langgraph_chunks(
    events: AsyncGenerator[Event, None], shape: ChunkShape
) -> AsyncGenerator[Any, None]:
    """The run's events as LangGraph's chunks, in order (the run stops when this does)."""
    chunker = Chunker(shape)
    async with contextlib.aclosing(events):
        async for event in events:
            for chunk in chunker.chunks(event):
                yield chunk
