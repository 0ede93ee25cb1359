"""agentc's values in the JSON shapes the LangGraph Agent Server API sends.

Input: what the runtime hands back — state values holding messages (pydantic models),
`Interrupt`s, model deltas (`MessageDelta`), typed call events, snapshots. Output: plain
JSON values (dicts, lists, strings, numbers) in LangGraph's wire shapes: a message is its
LangChain dict (`type`, `content`, `id`, `tool_calls` …), an interrupt `{value, id}`, a
model delta an `AIMessageChunk` dict, a call event an `astream_events` dict. Invariants:
`to_json` never raises on a value it does not know (it sends the type's name, not the
value's repr, so nothing private leaks); times are ISO 8601 in UTC.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from agentc.runtime.snapshots import StateSnapshot
from agentc.runtime.types import Command, Interrupt, Send
from agentc.stdlib.providers.base import MessageDelta

JSON = Any  # a plain JSON value (the wire's own type: anything json.dumps takes)


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat()


def to_json(value: Any) -> JSON:
    """`value` as plain JSON in LangGraph's shapes (see the module docstring)."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if isinstance(value, BaseModel):
        return to_json(value.model_dump(mode="json"))
    if isinstance(value, Interrupt):
        return interrupt_json(value)
    if isinstance(value, MessageDelta):
        return delta_json(value, None)
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (Command, Send)) or dataclasses.is_dataclass(value):
        fields = dataclasses.fields(value)
        return {f.name: to_json(getattr(value, f.name)) for f in fields}
    return {"type": type(value).__name__}  # never the repr: it may hold what it should not


def interrupt_json(interrupt: Interrupt, *, streamed: bool = True) -> JSON:
    """As LangGraph's server: a streamed interrupt always names its `response_schema`
    (null without one); one in a saved state only when it has one."""
    out: dict[str, Any] = {"id": interrupt.id, "value": to_json(interrupt.value)}
    if streamed or interrupt.response_schema is not None:
        out["response_schema"] = to_json(interrupt.response_schema)
    return out


def task_id(snap: StateSnapshot, index: int) -> str:
    """The id a pending task is shown with (agentc's snapshots name the node only)."""
    return f"{snap.config.checkpoint_id}:{snap.next[index]}:{index}"


def thread_interrupts(snap: StateSnapshot) -> dict[str, JSON]:
    """A thread's `interrupts`: by the id of the task that asked, as LangGraph's server."""
    if not snap.interrupts or not snap.next:
        return {}
    return {task_id(snap, 0): [interrupt_json(i, streamed=False) for i in snap.interrupts]}


def delta_json(delta: MessageDelta, message_id: str | None) -> JSON:
    """A model delta as LangChain's `AIMessageChunk` dict (what `messages-tuple` sends)."""
    chunks = [
        {"name": c.name, "args": c.args, "id": c.id, "index": c.index, "type": "tool_call_chunk"}
        for c in delta.tool_call_chunks
    ]
    meta = to_json(delta.response_metadata)
    if delta.finish_reason is not None:  # where LangChain's chunk carries it
        meta = {**meta, "finish_reason": delta.finish_reason}
    return {
        "content": delta.text,
        "additional_kwargs": {},
        "response_metadata": meta,
        "type": "AIMessageChunk",
        "name": None,
        "id": delta.id or message_id,
        "tool_calls": [],
        "invalid_tool_calls": [],
        "tool_call_chunks": chunks,
        "usage_metadata": to_json(delta.usage),
        "chunk_position": None,
    }


def closing_chunk(message_id: str | None) -> JSON:
    """The empty chunk LangChain streams after a reply's last one (`chunk_position`
    "last"): a client knows the message is whole."""
    return {**delta_json(MessageDelta(), message_id), "chunk_position": "last"}


def merge_delta(before: JSON | None, delta: JSON) -> JSON:
    """Two `AIMessageChunk` dicts added, as LangChain's `chunk + chunk` (text joined,
    tool-call pieces of one index joined): what `messages/partial` sends each time."""
    if before is None:
        return dict(delta)
    out = dict(before)
    out["content"] = f"{before['content']}{delta['content']}"
    out["id"] = before["id"] or delta["id"]
    pieces = {c["index"]: dict(c) for c in before["tool_call_chunks"]}
    for c in delta["tool_call_chunks"]:
        old = pieces.get(c["index"])
        if old is None:
            pieces[c["index"]] = dict(c)
        else:
            old["args"] = f"{old['args'] or ''}{c['args'] or ''}"
            old["name"] = old["name"] or c["name"]
            old["id"] = old["id"] or c["id"]
    out["tool_call_chunks"] = [pieces[i] for i in sorted(pieces)]
    out["usage_metadata"] = delta["usage_metadata"] or before["usage_metadata"]
    out["response_metadata"] = {**before["response_metadata"], **delta["response_metadata"]}
    out["chunk_position"] = delta["chunk_position"]
    return out


def checkpoint_json(thread_id: str, checkpoint_id: str | None) -> JSON:
    return {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}


def state_json(thread_id: str, snap: StateSnapshot) -> JSON:
    """A `StateSnapshot` as the API's `ThreadState`."""
    interrupts = [interrupt_json(i, streamed=False) for i in snap.interrupts]
    tasks = [
        {
            "id": task_id(snap, i),
            "name": n,
            "path": ["__pregel_pull", n],
            "error": None,
            "interrupts": interrupts if i == 0 else [],
            "checkpoint": None,
            "state": None,
            "result": None,
        }
        for i, n in enumerate(snap.next)
    ]
    parent = snap.parent_checkpoint_id
    return {
        "values": to_json(snap.values),
        "next": list(snap.next),
        "tasks": tasks,
        "checkpoint": checkpoint_json(thread_id, snap.config.checkpoint_id),
        "checkpoint_id": snap.config.checkpoint_id,  # LangGraph's server sends both forms
        "metadata": {"source": snap.source.value, "step": snap.step, "parents": {}},
        "created_at": iso(snap.created_at),
        "parent_checkpoint": checkpoint_json(thread_id, parent) if parent else None,
        "parent_checkpoint_id": parent,
        "interrupts": interrupts,
    }


def empty_state(thread_id: str) -> JSON:
    """A thread with no saved state yet (no run has written it)."""
    return {
        "values": {},
        "next": [],
        "tasks": [],
        "checkpoint": checkpoint_json(thread_id, None),
        "checkpoint_id": None,
        "metadata": {},
        "created_at": None,
        "parent_checkpoint": None,
        "parent_checkpoint_id": None,
        "interrupts": [],
    }
