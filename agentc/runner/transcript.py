"""The transcript of a run: the runtime's events printed as they arrive.

Input: the runtime's stream events (`updates`, `debug`, `custom`, and with `--stream`
`messages`), from the event loop and from the worker threads of sync nodes. Output: lines on
`out` — each node's update (the channels it wrote, then its new messages; in a `graph` block
also a node that wrote nothing), each message once, what nodes send to the stream writer,
each task's own time (its step's start, from the `debug` task event, to its own
`task_result`) and token usage; at a pause, the resume value (`ask`). It holds the run's
`CallCount` (filled at the model, `calls.py`) that `summary.finish` reports. Invariants:
events are handled one at a time under a lock; a task's time is never the run's total;
`quiet` (`--json`) prints nothing on `out` and sends informational lines to stderr.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TYPE_CHECKING, Any, TextIO

from .calls import CallCount
from .errors import UsageError
from .lines import LiveMessage, LiveShown, clip, render_message, show, usage_text
from .pauses import NO_ANSWER, DecisionsFile
from .pauses import answer as answer_in_terminal

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.runtime import Interrupt
    from agentc.runtime.events import DebugEvent, Event
    from agentc.stdlib.providers.retry_events import ModelRetry


class Transcript:
    """Prints each event as the runtime emits it: messages once each, each task's time
    (its step's start to its own finish, from the runtime's `debug` task events), tokens,
    and with `stream` the model's text and tool-call arguments as they arrive."""

    def __init__(
        self,
        out: TextIO,
        *,
        quiet: bool,
        stream: bool,
        decisions: str | None = None,
        full: bool = False,
        graph_block: bool = False,
        conversations: frozenset[str] = frozenset({"messages"}),
        calls: CallCount | None = None,
        hidden: frozenset[str] = frozenset(),
    ) -> None:
        self.out, self.quiet, self.stream, self.full = out, quiet, stream, full
        # the graph's bookkeeping (`jump_to`, middleware's private channels): never shown
        self.hidden = hidden
        self.graph_block = graph_block  # a `graph` block: every node's update is shown
        self.conversations = conversations  # channels of type `messages`, shown as messages
        # the run's model calls, counted at the model (`calls.py`), whichever node makes
        # them: an AI message in an update is no call (a python node may write one)
        self.calls = calls if calls is not None else CallCount()
        try:
            self.decisions = DecisionsFile(decisions) if decisions else None
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        self.lock = threading.Lock()  # sync nodes emit from worker threads
        self.seen: set[str] = set()
        self.started = time.perf_counter()
        self.step_started: dict[int, float] = {}
        self.tasks: dict[tuple[int, str], list[str]] = {}  # (step, node) → task ids, in order
        self.finished: dict[str, float] = {}
        self.live = LiveMessage(out)

    def sink(self, event: Event) -> None:
        now = time.perf_counter()
        with self.lock:
            self.handle(event, now)

    def handle(self, event: Event, now: float) -> None:
        from agentc.runtime.events import CustomEvent, DebugEvent, MessagesEvent, UpdatesEvent

        if isinstance(event, DebugEvent):
            self.debug(event, now)
        elif isinstance(event, MessagesEvent):
            if not event.ns and not self.quiet:  # the agent's own model, not a child's
                self.live.delta(event.payload)
        elif isinstance(event, UpdatesEvent):  # None: the node wrote nothing (LangGraph's)
            update = event.update if isinstance(event.update, dict) else {}
            self.update(event.step, event.node, update, event.cached)
        elif isinstance(event, CustomEvent) and not self.quiet:  # get_stream_writer()(…)
            where = f"{event.ns.split(':')[0]}/{event.node}" if event.ns else event.node
            print(clip(f"{where} · custom: {show(event.payload)}", self.full), file=self.out)

    def debug(self, event: DebugEvent, now: float) -> None:
        """A step's tasks start (the step's clock starts), or one task finishes."""
        from agentc.runtime.events import DebugKind

        if event.kind is DebugKind.TASK:
            self.step_started[event.step] = now
            for t in event.payload.get("tasks", ()):
                self.tasks.setdefault((event.step, t["node"]), []).append(t["id"])
        elif event.kind is DebugKind.TASK_RESULT:
            self.finished[event.payload["id"]] = now

    def took_ms(self, step: int, node: str) -> float | None:
        """The next unreported task of `node` in `step`: its own time, in ms."""
        ids = self.tasks.get((step, node))
        if not ids:
            return None
        done, start = self.finished.get(ids.pop(0)), self.step_started.get(step)
        return None if done is None or start is None else (done - start) * 1000

    def update(self, step: int, node: str, update: dict[str, Any], cached: bool = False) -> None:
        """One node's update: the channels it wrote (`node → n = 1 · log = […]`), then its
        new messages as the agent transcript shows them, then its time."""
        took = self.took_ms(step, node)
        # what --stream printed of this node's reply, its line closed before the writes
        live = self.live.end() if not self.quiet else LiveShown()
        shown = self.state_writes(node + (" (cached)" if cached else ""), update)
        written = [m for k in self.conversations if k in update for m in _listed(update[k])]
        messages = [m for m in map(_as_message, written) if m is not None]
        fresh = [m for m in messages if self.fresh(m)]
        for m in fresh:
            self.message(m, node, took, live if m.type == "ai" else LiveShown())
            live = LiveShown() if m.type == "ai" else live
        if shown and not fresh and not self.quiet:
            print(f"  [{node}{_timing(took)}]", file=self.out)

    def fresh(self, m: Any) -> bool:
        """A message not shown before (a subgraph hands back the whole conversation), and
        not the user's (`you: …` showed it) or a removal."""
        key = getattr(m, "id", None) or str(id(m))
        if key in self.seen or getattr(m, "type", None) in (None, "remove", "human"):
            return False
        self.seen.add(key)
        return True

    def state_writes(self, node: str, update: dict[str, Any]) -> bool:
        """The node's writes to channels other than conversations, on one line when they
        fit (each value clipped), else one line each; True when something was printed.
        In a graph block a node that wrote nothing says so (`node` is marked `(cached)`
        when its update was replayed from its cache)."""
        writes = {
            k: v
            for k, v in update.items()
            if k not in self.conversations
            and k != "structured_response"
            and k not in self.hidden
            and not k.startswith("_")
        }
        silent = self.graph_block and not self.conversations & set(update)  # wrote nothing
        if self.quiet or not (writes or silent):
            return False
        parts = [f"{k} = {clip(show(v), self.full)}" for k, v in writes.items()]
        line = f"{node} → " + (" · ".join(parts) if parts else "(no writes)")
        if len(line) <= WIDE or len(parts) == 1:
            print(line, file=self.out)
        else:
            print(f"{node} →", file=self.out)
            for part in parts:
                print(f"    {part}", file=self.out)
        return True

    def message(self, m: Any, node: str, took: float | None, shown: LiveShown) -> None:
        """`shown`: what of this message --stream already printed (not printed again)."""
        if self.quiet:
            return
        for line in render_message(m, shown):
            print(clip(line, self.full), file=self.out)
        print(f"  [{node}{_timing(took)}{usage_text(m)}]", file=self.out)

    def retry(self, event: ModelRetry) -> None:
        """A provider call failed and is tried again (E8): said as it waits."""
        with self.lock:
            self.say(event.describe())

    def break_off(self) -> None:
        """The run failed or was stopped: a reply half-printed by --stream is ended first."""
        with self.lock:
            if not self.quiet:
                self.live.cut()

    def say(self, text: str) -> None:
        """An informational line: stdout in a transcript, stderr under --json."""
        print(text, file=sys.stderr if self.quiet else self.out)

    def ask(self, interrupts: list[Interrupt]) -> Any:
        """D10: a review pause lists its calls; the answer comes from --decisions, else
        the terminal (approve / edit / reject / respond per call); `NO_ANSWER` when there
        is neither."""
        if self.decisions is not None:
            return self.answer_from_file(interrupts, self.decisions)
        if not sys.stdin.isatty():
            for i in interrupts:
                self.say(f"paused: {show(i.value)}")
            return NO_ANSWER
        return answer_in_terminal(interrupts, sys.stderr if self.quiet else self.out, input)

    def answer_from_file(self, interrupts: list[Interrupt], decisions: DecisionsFile) -> Any:
        for i in interrupts:
            self.say(f"paused: {show(i.value)}")
        try:
            answer = decisions.next()
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        self.say(f"answered from file: {show(answer)}")
        return answer


WIDE = 100  # a node's writes share one line up to this width


def hidden_channels(graph: ir.Graph) -> frozenset[str]:
    """Channels the transcript never shows: those cleared after each step (`jump_to`) and
    the ones a middleware declares private (LangChain's PrivateStateAttr: in neither the
    run's input nor its result), such as `hitl_edited_tool_calls`."""
    own = [c for m in (graph.agent.middleware if graph.agent else ()) for c in m.state]
    private = {c.name for c in own if not c.input and not c.output}
    return frozenset(private | {c.name for c in graph.state if c.ephemeral})


def _as_message(value: Any) -> Any:
    """A written entry as a message: python nodes may write dicts, strings or pairs (A6),
    which the channel reads as messages too; None for what it would not read."""
    if hasattr(value, "type"):
        return value
    from agentc.stdlib.messages import MessageCoercionError, coerce_message

    try:
        return coerce_message(value)
    except (MessageCoercionError, TypeError):
        return None


def _listed(value: Any) -> list[Any]:
    """A conversation write as a list: a node may write one message, not a list."""
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _timing(took: float | None) -> str:
    return f" · {took:.1f} ms" if took is not None else ""
