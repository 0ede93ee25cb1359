"""One run's spans, recorded from the runtime's `events` and `debug` streams as they arrive.

Input: the run's events (model and tool calls with their `run_id`, `ns`, step and task;
the `debug` stream's task starts, task results and checkpoints), the program's facts and,
when contents are on, a `Redactor`. Output: the run's spans as plain records
(`records.Rec`, in a `RunTrace`) handed to an outlet (`ship.py`) when the run ends —
`invoke_agent {name}` (or `invoke_workflow {name}` for a graph block) for the run, `chat
{model}` per model call, `execute_tool {tool}` per tool call, a span per middleware hook
node (and per node of a graph block), and an `invoke_agent` span for each sub-agent,
nested under the tool call (or node) that ran it. Invariants: nothing here makes an SDK
span; parents are named explicitly (events arrive from worker threads too, so nothing
relies on the ambient context); one lock guards the maps; a span's constant attributes
come from `Templates`, built once per construct, and only what varies is added per span;
every span this recorder starts is ended when the run ends, however it ends (a pause
leaves `agentc.paused`, a failure the run's `error.type`); a run of more than `CHUNK`
ended spans hands them on as it goes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import NonRecordingSpan, SpanKind

import agentc.ir as ir
from agentc.runtime.events import (
    DebugEvent,
    DebugKind,
    MessagesEvent,
    ModelEnd,
    ModelError,
    ModelStart,
    ToolEnd,
    ToolError,
    ToolStart,
)
from agentc.stdlib.messages import AIMessage, BaseMessage

from . import attrs as a
from . import content
from .content import Redactor
from .facts import GraphFacts, ProgramFacts
from .records import CHUNK, CLIENT, INTERNAL, Ids, Rec, RunTrace, now
from .templates import Templates

Sink = Callable[[Any], None]


@dataclass(frozen=True, slots=True)
class RunInfo:
    """What one run is: the graph, its thread, how its caller reads it."""

    graph: GraphFacts
    thread: str | None
    streaming: bool  # the caller streams `messages`: model calls stream (time to first chunk)
    redactor: Redactor | None  # None: no contents on spans
    run_id: str | None = None  # the caller's id of the run (`metadata.run_id`: agentc serve)


@dataclass(frozen=True, slots=True)
class _Tool:
    span: Rec
    tool: str


@dataclass(frozen=True, slots=True)
class _Child:
    span: Rec
    parent: Rec
    facts: GraphFacts | None


class Outlet(Protocol):
    """Where a run's records go (`ship.Shipper`, or `Replay` for a tracer not the SDK's)."""

    def begin(self, run: RunTrace) -> None: ...
    def ship(self, run: RunTrace) -> None: ...


class RunRecorder:
    run: RunTrace  # these four set by `start`, called first
    root: Rec
    root_context: Context
    recording: bool

    def __init__(
        self,
        ids: Ids,
        program: ProgramFacts,
        info: RunInfo,
        templates: Templates,
        outlet: Outlet,
    ) -> None:
        self.ids, self.program, self.info, self.templates = ids, program, info, templates
        self.outlet = outlet
        self.new_id = ids.span_id
        self.lock = threading.Lock()
        self.tasks: dict[str, Rec] = {}  # top-level task id → its node span
        self.calls: dict[str, Rec] = {}  # run_id → chat / execute_tool span
        self.tool_tasks: dict[tuple[str, str, str], _Tool] = {}  # (ns, node, task) → its call
        self.children: dict[str, _Child] = {}  # a nested run's ns → its agent span
        self.first: dict[tuple[str, str, int], tuple[Rec, int]] = {}  # awaiting a chunk
        self.checkpoint: str | None = None
        self.tokens = [0, 0]

    # ---- the run

    def start(self, value: Any) -> Rec:
        g = self.info.graph
        attrs = self.templates.run(g)
        if self.info.thread is not None:
            attrs[a.CONVERSATION] = attrs["session.id"] = self.info.thread
        if self.info.run_id is not None:
            attrs[a.RUN_ID] = self.info.run_id
        if not isinstance(value, (dict, type(None))):
            attrs["agentc.resumed"] = True
        elif self.info.redactor is not None and value:
            attrs.update(_run_input(value, self.info.redactor))
        name = f"{g.operation} {g.name}"
        self.run, self.recording = self.ids.open(name, attrs, self.info.run_id)
        self.root = root = Rec(name, self.new_id(), None, attrs, INTERNAL)
        self.run.started.append(root)
        # the caller's context (baggage and all) with the run's span in it
        context = self.run.context_of(root.span_id)
        self.root_context = trace.set_span_in_context(NonRecordingSpan(context))
        if self.recording:
            self.outlet.begin(self.run)
        return root

    def tee(self, sink: Sink | None, modes: frozenset[Any]) -> Sink:
        """The run's sink: every event to this recorder, the caller's modes to the caller."""
        on = self.on
        if sink is None:
            return on

        def both(event: Any) -> None:
            on(event)
            if event.mode in modes:
                sink(event)

        return both

    def done(self, values: dict[str, Any], paused: bool) -> None:
        with self.lock:
            self._close_all(None, paused)
            root = self.root
            if paused:
                root.attrs[a.PAUSED] = True
            if self.info.redactor is not None:
                root.attrs.update(_run_output(values, self.info.redactor))
            self._end_root()

    def fail(self, exc: BaseException) -> None:
        with self.lock:
            self._close_all(exc, False)
            self._error(self.root, exc)
            self._end_root()

    def _end_root(self) -> None:
        inp, out = self.tokens
        last: a.Attrs = {a.INPUT_TOKENS: inp, a.OUTPUT_TOKENS: out} if inp or out else {}
        if self.checkpoint is not None:
            last[a.CHECKPOINT] = self.checkpoint
        if last:
            self.root.attrs.update(last)
        self._end(self.root)
        if self.recording:
            self.outlet.ship(self.run)

    def _close_all(self, exc: BaseException | None, paused: bool) -> None:
        """Spans still open when the run ends: a call a pause cut short, a failed step."""
        if not (self.calls or self.tasks or self.children):
            self.tool_tasks.clear()
            return
        leftover = [*self.calls.values(), *self.tasks.values()]
        leftover += [c.span for c in reversed(self.children.values())]
        for span in leftover:
            if exc is not None:
                self._error(span, exc)
            elif paused:
                span.attrs[a.PAUSED] = True
            self._end(span)
        for table in (self.calls, self.tasks, self.children, self.tool_tasks):
            table.clear()

    # ---- events

    def on(self, event: Any) -> None:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            with self.lock:
                handler(self, event)

    def _model_start(self, e: ModelStart) -> None:
        call = (e.node, e.model, e.provider)
        attrs = self.templates.chat(self._facts(e.ns), call, e.options, self.info.streaming)
        self._place(attrs, e.step, e.node, e.ns)
        if self.info.redactor is not None:
            attrs.update(content.chat_input(e.messages, self.info.redactor))
        parent = self._parent(e.ns, e.node, e.task_id)
        span = self._start(f"chat {e.model}", parent, attrs, CLIENT)  # a model server
        self.calls[e.run_id] = span
        if self.info.streaming:
            self.first[(e.ns, e.node, e.step)] = (span, time.monotonic_ns())

    def _model_end(self, e: ModelEnd | ModelError) -> None:
        span = self.calls.pop(e.run_id, None)
        self.first.pop((e.ns, e.node, e.step), None)
        if span is None:
            return
        if isinstance(e, ModelError):
            self._error(span, e.error)
        else:
            span.attrs.update(a.chat_response(e))
            if isinstance(e.message, AIMessage) and e.message.usage_metadata is not None:
                self.tokens[0] += e.message.usage_metadata.input_tokens
                self.tokens[1] += e.message.usage_metadata.output_tokens
            if self.info.redactor is not None:
                span.attrs.update(content.chat_output(e.message, self.info.redactor))
        self._end(span)

    def _chunk(self, e: MessagesEvent) -> None:
        if not self.first:
            return
        waiting = self.first.pop((e.ns, e.node, e.step), None)
        if waiting is not None:
            span, began = waiting
            span.attrs[a.TTFC] = (time.monotonic_ns() - began) / 1e9

    def _tool_start(self, e: ToolStart) -> None:
        attrs = self.templates.tool(self._facts(e.ns), e.tool)
        if e.call_id:
            attrs[a.TOOL_CALL_ID] = e.call_id
        self._place(attrs, e.step, e.node, e.ns)
        if self.info.redactor is not None:
            attrs.update(content.tool_input(e.input, self.info.redactor))
        span = self._start(f"execute_tool {e.tool}", self._parent(e.ns, e.node, e.task_id), attrs)
        self.calls[e.run_id] = span
        self.tool_tasks[(e.ns, e.node, e.task_id)] = _Tool(span, e.tool)

    def _tool_end(self, e: ToolEnd | ToolError) -> None:
        span = self.calls.pop(e.run_id, None)
        key = (e.ns, e.node, e.task_id)
        if key in self.tool_tasks and self.tool_tasks[key].span is span:
            del self.tool_tasks[key]
        if span is None:
            return
        self._end_children(span)
        if isinstance(e, ToolError):
            self._error(span, e.error)
        else:
            if e.status == "error":  # an error answer the model reads (the call failed)
                span.attrs[a.ERROR_TYPE] = "tool_error"
                span.error = ""
            if self.info.redactor is not None:
                span.attrs.update(content.tool_output(e.output, self.info.redactor))
        self._end(span)

    def _debug(self, e: DebugEvent) -> None:
        if e.kind is DebugKind.CHECKPOINT:
            self.checkpoint = str(e.payload.get("id"))
        elif e.kind is DebugKind.TASK:
            for task in e.payload.get("tasks", ()):
                self._task_start(e.step, str(task["node"]), str(task["id"]))
        elif e.kind is DebugKind.TASK_RESULT:
            span = self.tasks.pop(str(e.payload.get("id")), None)
            if span is not None:
                self._end_children(span)
                self._end(span)

    def _task_start(self, step: int, node: str, task_id: str) -> None:
        """A span for a middleware hook node, and for each node of a graph block (an
        agent's model and tools nodes are told by their calls' spans instead)."""
        g = self.info.graph
        if node == ir.START or (g.is_agent and node not in g.hooks):
            return
        attrs = self.templates.node(g, node)
        self._place(attrs, step, node, "")
        self.tasks[task_id] = self._start(node, self.root, attrs)

    # ---- parents

    def _parent(self, ns: str, node: str, task_id: str) -> Rec:
        if not ns:
            return self.tasks.get(task_id, self.root)
        return self._child(ns).span

    def _child(self, ns: str) -> _Child:
        """The agent span of a nested run (made at its first event), under the tool call
        or node whose task ran it (`ns` ends in that task's `node:task[:key]`)."""
        found = self.children.get(ns)
        if found is not None:
            return found
        parent_ns, _, segment = ns.rpartition("|")
        node, _, rest = segment.partition(":")
        task = self._task_of(parent_ns, node, rest)
        call = self.tool_tasks.get((parent_ns, node, task))
        parent = call.span if call is not None else self._parent(parent_ns, node, task)
        name = self._child_graph(parent_ns, node, call)
        facts = self.program.of(name) if name is not None else None
        label = name or node
        op = facts.operation if facts is not None else "invoke_agent"
        attrs: a.Attrs = {a.OPERATION: op, a.AGENT_NAME: label, **a.kind_hints(op)}
        if facts is not None and facts.source:
            attrs[a.SOURCE] = facts.source
        if self.info.thread is not None:
            attrs[a.CONVERSATION] = self.info.thread
        child = _Child(self._start(f"{op} {label}", parent, attrs), parent, facts)
        self.children[ns] = child
        return child

    def _task_of(self, parent_ns: str, node: str, rest: str) -> str:
        """The task id in `task` or `task:key` (task ids hold colons too: `1:helper`)."""
        keyless = rest.rpartition(":")[0]
        for task in (rest, keyless) if keyless else (rest,):
            if (parent_ns, node, task) in self.tool_tasks or (not parent_ns and task in self.tasks):
                return task
        return rest

    def _child_graph(self, parent_ns: str, node: str, call: _Tool | None) -> str | None:
        """Which graph a nested run runs: the agent tool's, or the subgraph node's."""
        facts = self._facts(parent_ns)
        if facts is None:
            return None
        if call is not None:
            tool = facts.tools.get(call.tool)
            return tool.agent if tool is not None else None
        return facts.children.get(node)

    def _facts(self, ns: str) -> GraphFacts | None:
        return self.info.graph if not ns else self._child(ns).facts

    def _end_children(self, parent: Rec) -> None:
        if not self.children:
            return
        for ns in [ns for ns, c in self.children.items() if c.parent is parent]:
            child = self.children.pop(ns)
            self._end_children(child.span)
            self._end(child.span)

    # ---- helpers

    def _start(self, name: str, parent: Rec, attrs: a.Attrs, kind: SpanKind = INTERNAL) -> Rec:
        rec = Rec(name, self.new_id(), parent.span_id, attrs, kind)
        self.run.started.append(rec)
        return rec

    def _end(self, rec: Rec) -> None:
        rec.end = now()
        ended = self.run.ended
        ended.append(rec)
        if len(ended) >= CHUNK and self.recording and rec is not self.root:
            self.outlet.ship(self.run.split())  # a long run's ended spans go on before its end

    def _place(self, attrs: a.Attrs, step: int, node: str, ns: str) -> None:
        """What a call or node span adds to its template: where in the run it is."""
        attrs[a.SUPERSTEP] = step
        attrs[a.NODE] = node
        if not ns and self.checkpoint is not None:
            attrs[a.CHECKPOINT] = self.checkpoint  # the checkpoint this step started from
        if self.info.thread is not None:
            attrs[a.CONVERSATION] = self.info.thread

    def _error(self, span: Rec, exc: BaseException) -> None:
        span.attrs[a.ERROR_TYPE] = a.error_type(exc)
        r = self.info.redactor  # a message may quote the run's data: only with contents on
        span.error = r.text(f"{type(exc).__name__}: {exc}") if r is not None else ""


def _run_input(value: dict[str, Any], r: Redactor) -> a.Attrs:
    messages = value.get("messages")
    if isinstance(messages, list) and all(isinstance(m, BaseMessage) for m in messages):
        text = r.dumps([content.message(m) for m in messages])
    else:
        text = r.dumps(value)
    return {"input.value": text, "input.mime_type": "application/json"}


def _run_output(values: dict[str, Any], r: Redactor) -> a.Attrs:
    messages = values.get("messages")
    if isinstance(messages, list) and messages and isinstance(messages[-1], BaseMessage):
        return {"output.value": r.text(messages[-1].text)}
    return {"output.value": r.dumps(values), "output.mime_type": "application/json"}


_HANDLERS: dict[type, Callable[[RunRecorder, Any], None]] = {
    ModelStart: RunRecorder._model_start,
    ModelEnd: RunRecorder._model_end,
    ModelError: RunRecorder._model_end,
    ToolStart: RunRecorder._tool_start,
    ToolEnd: RunRecorder._tool_end,
    ToolError: RunRecorder._tool_end,
    DebugEvent: RunRecorder._debug,
    MessagesEvent: RunRecorder._chunk,
}
