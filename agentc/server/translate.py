"""One run's chunks, as read from agentc's `astream`, turned into the SSE events LangGraph's
server sends for the requested stream modes.

Input: the `RunJob` (its modes and labels), the graph's output channels, and each
`(namespace, mode, chunk)` in order. Output: `emit(event, data)` calls — `values` and
`updates` cut to the output channels, `custom` as is, `messages` from `messages-tuple`
(`[chunk, metadata]`, each chunk carrying its reply's id, then a closing chunk with
`chunk_position` "last" when the model call ends), `messages/metadata` and
`messages/partial` for `messages`, and `events` (see `events.py`). Invariants: a mode the
client did not ask for is never sent, though more are read from `astream` than asked:
`events` needs the updates and deltas, and the closing chunk needs the model call's end.
"""

from __future__ import annotations

from typing import Any

from agentc.runtime.events import ModelEnd, ModelError

from .engine import Emit, RunJob
from .events import RunEvents, call_event_json
from .wire import JSON, closing_chunk, delta_json, merge_delta, to_json

_LG_MODES = {"messages-tuple": "messages"}


def langgraph_modes(modes: tuple[str, ...]) -> list[str]:
    """The modes to ask agentc's `astream` for (`messages-tuple` is `messages` there;
    `events` needs the nodes' updates and the model's deltas; a streamed reply's closing
    chunk needs the model call's end, an `events` chunk)."""
    extra: tuple[str, ...] = ()
    if "events" in modes:
        extra = ("updates", "messages")
    elif "messages-tuple" in modes:
        extra = ("events",)
    out: list[str] = []
    for m in (*modes, *extra):
        lg = _LG_MODES.get(m, m)
        if lg not in out:
            out.append(lg)
    return out


class Translator:
    """One run's chunks as SSE events (the `messages` mode keeps each message so far)."""

    def __init__(self, job: RunJob, emit: Emit, outputs: frozenset[str]) -> None:
        self.job = job
        self.emit = emit
        self.outputs = outputs  # the graph's output channels: what `values`/`updates` show
        self.labels: JSON = to_json((job.config or {}).get("metadata") or {})
        self.messages: dict[str, Any] = {}
        # (namespace, node) → the suffix, metadata and id of the reply it is streaming
        self.replying: dict[tuple[tuple[str, ...], str], tuple[str, JSON, Any]] = {}
        self.events: RunEvents | None = None
        if "events" in job.stream_modes:
            self.events = RunEvents(job.graph_id, self.labels, lambda d: emit("events", d))

    def chunk(self, ns: tuple[str, ...], mode: str, chunk: Any) -> None:
        suffix = f"|{'|'.join(ns)}" if ns and self.job.subgraphs else ""
        top = self.events if not ns else None  # a subgraph's calls: call events only
        if mode == "messages":
            wire = self._message(ns, suffix, chunk)
            if top is not None:
                top.delta(str(chunk[1].get("langgraph_node")), wire)
        elif mode == "events":
            if isinstance(chunk, (ModelEnd, ModelError)):
                self._close(ns, chunk.node, top)
            if "events" not in self.job.stream_modes:
                return
            if top is not None:
                top.call(chunk)
            else:
                self.emit(f"events{suffix}", call_event_json(chunk))
        elif mode in ("values", "updates") and not ns:
            data = self._outputs_only(mode, to_json(chunk))
            if mode in self.job.stream_modes:
                self.emit(f"{mode}{suffix}", data)
            if top is not None and mode == "updates":
                top.update(data)
        elif mode in self.job.stream_modes:
            self.emit(f"{mode}{suffix}", to_json(chunk))

    def _outputs_only(self, mode: str, data: Any) -> Any:
        """LangGraph's server streams a run with `output_keys` = the graph's output
        channels: a private channel (the review's edited calls) is in the thread's state,
        not in `values` and `updates` events; a node that wrote only private channels
        shows as `null`."""
        if not isinstance(data, dict):
            return data
        if mode == "values":
            return {k: v for k, v in data.items() if k in self.outputs or k == "__interrupt__"}
        out: dict[str, Any] = {}
        for node, update in data.items():
            if isinstance(update, dict) and node != "__interrupt__":
                kept = {k: v for k, v in update.items() if k in self.outputs}
                update = kept if kept or not update else None
            out[node] = update
        return out

    def _message(self, ns: tuple[str, ...], suffix: str, chunk: Any) -> JSON:
        delta, meta = chunk
        node = meta.get("langgraph_node")
        # as LangGraph's server: the run's config metadata (its labels), then the task's
        meta = {
            **self.labels,
            **to_json(meta),
            "langgraph_path": ["__pregel_pull", node],
            "thread_id": self.job.thread_id,
            "run_id": self.job.run_id,
        }
        key = f"{node}:{meta.get('langgraph_step')}"
        wire = delta_json(delta, f"run-{self.job.run_id}-{key}")
        self.replying[(ns, str(node))] = (suffix, meta, wire["id"])
        if "messages-tuple" in self.job.stream_modes:
            self.emit(f"messages{suffix}", [wire, meta])
        if "messages" in self.job.stream_modes:
            first = key not in self.messages
            self.messages[key] = merge_delta(self.messages.get(key), wire)
            if first:
                self.emit("messages/metadata", {self.messages[key]["id"]: {"metadata": meta}})
            self.emit("messages/partial", [self.messages[key]])
        return wire

    def _close(self, ns: tuple[str, ...], node: str, top: RunEvents | None) -> None:
        """The model call of `node` ended: its streamed reply's closing chunk."""
        replying = self.replying.pop((ns, node), None)
        if replying is None:  # it streamed nothing (no `messages` reader, or no delta)
            return
        suffix, meta, message_id = replying
        wire = closing_chunk(message_id)
        if "messages-tuple" in self.job.stream_modes:
            self.emit(f"messages{suffix}", [wire, meta])
        if top is not None:
            top.delta(node, wire)
