"""The `events` stream mode: a run as LangChain's `astream_events` (v2) dicts.

Input: the run's chunks in order — call events (model and tool calls starting, ending,
failing), model deltas from the `messages` mode, node updates from the `updates` mode —
and the run's labels. Output: the dicts LangGraph's server sends as `events`:
`on_chain_start` for the graph, then per node task `on_chain_start` (at its first call
event, or at its update), the calls inside it (`on_chat_model_start`, one
`on_chat_model_stream` per delta, `on_chat_model_end`, `on_tool_*`), `on_chain_stream` and
`on_chain_end` with its update; `on_chain_end` for the graph. Invariants: a model call is
named after LangChain's chat model class for its provider (the model's own name is in the
metadata, `ls_model_name`); a provider without a LangChain class keeps the model's name.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from agentc.runtime.events import (
    CallEvent,
    ModelCallEvent,
    ModelEnd,
    ModelError,
    ModelStart,
    ToolEnd,
    ToolError,
    ToolStart,
)

from .wire import JSON, to_json

# The chat model classes of LangChain's partner packages, by agentc's provider name.
LANGCHAIN_CLASSES = {"openai": "ChatOpenAI", "anthropic": "ChatAnthropic"}

_CALL_EVENTS = {
    ModelStart: "on_chat_model_start",
    ModelEnd: "on_chat_model_end",
    ModelError: "on_chat_model_error",
    ToolStart: "on_tool_start",
    ToolEnd: "on_tool_end",
    ToolError: "on_tool_error",
}


def model_label(event: ModelCallEvent) -> str:
    return LANGCHAIN_CLASSES.get(event.provider, event.model)


def call_event_json(event: CallEvent) -> JSON:
    """A model or tool call event as LangChain's `astream_events` (v2) dict."""
    data: dict[str, Any] = {}
    if isinstance(event, ModelStart):
        data["input"] = {"messages": [to_json(list(event.messages))]}
    elif isinstance(event, ModelEnd):
        data["output"] = to_json(event.message)
    elif isinstance(event, (ToolStart, ToolEnd, ToolError)):
        data["input"] = to_json(event.input)
        if isinstance(event, ToolEnd):
            data["output"] = to_json(event.output)
    if isinstance(event, (ModelError, ToolError)):
        data["error"] = type(event.error).__name__
    meta: dict[str, Any] = {
        "langgraph_node": event.node,
        "langgraph_step": event.step,
        "checkpoint_ns": event.ns,
    }
    if isinstance(event, ModelCallEvent):
        label = model_label(event)
        meta |= {"ls_provider": event.provider, "ls_model_name": event.model}
    else:
        label = event.tool if isinstance(event, (ToolStart, ToolEnd, ToolError)) else "call"
    return _event(_CALL_EVENTS.get(type(event), "on_event"), label, event.run_id, meta, data)


def _event(kind: str, name: str, run_id: str, meta: dict[str, Any], data: JSON) -> JSON:
    return {
        "event": kind,
        "name": name,
        "run_id": run_id,
        "tags": [],
        "metadata": meta,
        "data": data,
        "parent_ids": [],
    }


class RunEvents:
    """One run's `events`: which node tasks are open, which model call streams."""

    def __init__(self, graph_id: str, labels: dict[str, Any], emit: Callable[[JSON], None]):
        self.graph_id, self.labels, self.emit = graph_id, labels, emit
        self.run_id = str(uuid.uuid4())
        self.open: dict[str, str] = {}  # node → the run id of its open task
        self.streaming: dict[str, ModelStart] = {}  # node → its model call in flight

    def start(self, value: Any) -> None:
        self.emit(_event("on_chain_start", self.graph_id, self.run_id, self.labels,
                         {"input": to_json(value)}))  # fmt: skip

    def end(self, values: Any) -> None:
        for node in list(self.open):  # a task that paused or failed ends with the run
            self._close(node, None)
        self.emit(_event("on_chain_end", self.graph_id, self.run_id, self.labels,
                         {"output": to_json(values)}))  # fmt: skip

    def call(self, event: CallEvent) -> None:
        self._opened(event.node, event.step)
        if isinstance(event, ModelStart):
            self.streaming[event.node] = event
        elif isinstance(event, (ModelEnd, ModelError)):
            self.streaming.pop(event.node, None)
        self.emit(call_event_json(event))

    def delta(self, node: str, chunk: JSON) -> None:
        call = self.streaming.get(node)
        if call is None:  # a delta no model call of ours announced: not a chat model's
            return
        meta = {"langgraph_node": node, "langgraph_step": call.step, "checkpoint_ns": call.ns}
        meta |= {"ls_provider": call.provider, "ls_model_name": call.model}
        self.emit(_event("on_chat_model_stream", model_label(call), call.run_id, meta,
                         {"chunk": chunk}))  # fmt: skip

    def update(self, data: Any) -> None:
        """An `updates` chunk: each node in it streamed its update and ended."""
        if not isinstance(data, dict):
            return
        for node, update in data.items():
            if node.startswith("__"):  # `__interrupt__`, `__metadata__`: not a task
                continue
            self._opened(node, None)
            meta = {**self.labels, "langgraph_node": node}
            self.emit(_event("on_chain_stream", node, self.open[node], meta, {"chunk": update}))
            self._close(node, update)

    def _opened(self, node: str, step: int | None) -> None:
        if node in self.open:
            return
        self.open[node] = run_id = str(uuid.uuid4())
        meta = {**self.labels, "langgraph_node": node}
        if step is not None:
            meta["langgraph_step"] = step
        self.emit(_event("on_chain_start", node, run_id, meta, {"input": None}))

    def _close(self, node: str, output: Any) -> None:
        run_id = self.open.pop(node)
        meta = {**self.labels, "langgraph_node": node}
        self.emit(_event("on_chain_end", node, run_id, meta, {"output": output}))
