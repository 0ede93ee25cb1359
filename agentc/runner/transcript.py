"""The transcript of a run: the runtime's events printed as they arrive.

Input: the runtime's stream events (`updates`, `debug`, and with `--stream`
`messages`), from the event loop and from the worker threads of sync nodes. Output: lines on
`out` — each message once, each state write of a graph block, each task's own time (its
step's start, from the `debug` task event, to its own `task_result`) and token usage; the
counts `summary.finish` reports; at a pause, the resume value (`ask`). Invariants: events
are handled one at a time under a lock; a task's time is never the run's total; `quiet`
(`--json`) prints nothing on `out` and sends informational lines to stderr.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TYPE_CHECKING, Any, TextIO

from .errors import UsageError
from .lines import LiveMessage, LiveShown, clip, render_message, show, usage_text
from .pauses import NO_ANSWER, DecisionsFile
from .pauses import answer as answer_in_terminal

if TYPE_CHECKING:
    from agentc.runtime import Interrupt
    from agentc.runtime.events import DebugEvent, Event


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
    ) -> None:
        self.out, self.quiet, self.stream, self.full = out, quiet, stream, full
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
        self.model_calls = 0
        self.tokens_in = self.tokens_out = 0
        self.live = LiveMessage(out)

    def sink(self, event: Event) -> None:
        now = time.perf_counter()
        with self.lock:
            self.handle(event, now)

    def handle(self, event: Event, now: float) -> None:
        from agentc.runtime.events import DebugEvent, MessagesEvent, UpdatesEvent

        if isinstance(event, DebugEvent):
            self.debug(event, now)
        elif isinstance(event, MessagesEvent):
            if not event.ns and not self.quiet:  # the agent's own model, not a child's
                self.live.delta(event.payload)
        elif isinstance(event, UpdatesEvent) and isinstance(event.update, dict):
            self.update(event.step, event.node, event.update)

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

    def update(self, step: int, node: str, update: dict[str, Any]) -> None:
        took = self.took_ms(step, node)
        self.state_writes(node, update, took)
        for m in update.get("messages") or []:
            key = getattr(m, "id", None) or str(id(m))
            if key in self.seen or getattr(m, "type", None) in (None, "remove", "human"):
                continue
            self.seen.add(key)
            self.message(m, node, took)

    def state_writes(self, node: str, update: dict[str, Any], took: float | None) -> None:
        """Writes to channels other than `messages` (a graph block's state), one line each."""
        writes = {
            k: v
            for k, v in update.items()
            if k not in ("messages", "structured_response") and not k.startswith("_")
        }
        if self.quiet or not writes:
            return
        for key, value in writes.items():
            print(f"{node} → {key} = {clip(show(value), self.full)}", file=self.out)
        if "messages" not in update:
            print(f"  [{node}{_timing(took)}]", file=self.out)

    def message(self, m: Any, node: str, took: float | None) -> None:
        if m.type == "ai":
            self.count_call(m)
        if self.quiet:
            return
        shown = self.live.end() if m.type == "ai" else LiveShown()
        for line in render_message(m, shown):
            print(clip(line, self.full), file=self.out)
        print(f"  [{node}{_timing(took)}{usage_text(m)}]", file=self.out)

    def count_call(self, m: Any) -> None:
        """One more model call, and its tokens where the provider reported them."""
        self.model_calls += 1
        usage = m.usage_metadata
        if usage:
            self.tokens_in += usage.input_tokens
            self.tokens_out += usage.output_tokens

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


def _timing(took: float | None) -> str:
    return f" · {took:.1f} ms" if took is not None else ""
