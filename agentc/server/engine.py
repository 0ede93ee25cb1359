"""The run engine: where runs wait their turn, run, and keep their events for readers.

Input: `RunJob`s (plain data: which graph, what input, which thread, which stream modes).
Output: each run's events, numbered from 1 (`RunEvent.id`, the SSE `id:` a client rejoins
with), and its `RunOutcome`. The routes see only the `Engine` protocol — `submit`,
`cancel`, `events`, `join` — so an engine that runs jobs elsewhere (durable workflows on
PostgreSQL, several workers) can replace `InProcessEngine` without touching a route.

`InProcessEngine` runs jobs as asyncio tasks of the server's event loop. Invariants: one
active run per thread, the others queued in order (F11: one writer per thread); a second
run on a busy thread follows its `multitask_strategy` — `reject` raises `ThreadBusy`,
`enqueue` waits, `interrupt` / `rollback` cancel the thread's runs first (a rolled-back
run is deleted and its thread shows the state from before it); a cancelled run ends
between awaits of its graph, and its thread is free once its task has finished; events of
the last `KEEP_FINISHED` finished runs stay readable.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .errors import exception_payload
from .models import CancelAction, MultitaskStrategy, RunStatus

JSON = Any
Emit = Callable[[str, JSON], None]
KEEP_FINISHED = 1000


@dataclass(frozen=True, slots=True)
class RunJob:
    """One run, as data: everything needed to start it again in another process."""

    run_id: str
    thread_id: str
    assistant_id: str
    graph_id: str
    input: JSON = None
    command: JSON = None  # {resume, update, goto}
    config: JSON = None  # LangGraph's config dict (thread and checkpoint ids filled in)
    context: JSON = None
    stream_modes: tuple[str, ...] = ("values",)
    subgraphs: bool = False
    interrupt_before: JSON = None
    interrupt_after: JSON = None
    durability: str | None = None
    multitask_strategy: MultitaskStrategy = "enqueue"
    temporary: bool = False  # a stateless run: its thread is not kept


@dataclass(frozen=True, slots=True)
class RunEvent:
    id: int
    event: str
    data: JSON


@dataclass(frozen=True, slots=True)
class RunOutcome:
    status: RunStatus
    result: JSON  # what `runs/wait` and `join` answer: the final values (or `__error__`)


class ThreadBusy(Exception):
    """`multitask_strategy: reject` on a thread that has a run."""

    def __init__(self, thread_id: str, run_id: str) -> None:
        super().__init__(thread_id)
        self.thread_id = thread_id
        self.run_id = run_id


class Executor(Protocol):
    """What runs a job and records it (the server's is `execute.GraphExecutor`)."""

    async def start(self, job: RunJob) -> None:
        """The job is about to run: mark it and its thread busy."""
        ...

    async def run(self, job: RunJob, emit: Emit) -> RunOutcome: ...

    async def finish(self, job: RunJob, outcome: RunOutcome) -> None: ...

    async def roll_back(self, job: RunJob, started: bool) -> None:
        """Forget the job: delete its run and show its thread as before it."""
        ...


class Engine(Protocol):
    async def submit(self, job: RunJob) -> None:
        """Queue the job on its thread (`ThreadBusy` under `reject` when busy)."""
        ...

    async def cancel(self, run_id: str, action: CancelAction) -> bool:
        """Stop the run (waiting until it has stopped); False: not a run of this engine."""
        ...

    def events(self, run_id: str, after_id: int | None = None) -> AsyncGenerator[RunEvent, None]:
        """The run's events with ids above `after_id`, live until it ends."""
        ...

    async def join(self, run_id: str) -> RunOutcome | None:
        """The run's outcome once it has ended; None: not a run of this engine."""
        ...

    def active(self, thread_id: str) -> bool:
        """Whether the thread has a running or queued run."""
        ...

    async def close(self) -> None: ...


@dataclass(eq=False, slots=True)
class _Run:
    job: RunJob
    events: list[RunEvent] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    outcome: RunOutcome | None = None
    task: asyncio.Task[None] | None = None
    cancelled: CancelAction | None = None

    def emit(self, event: str, data: JSON) -> None:
        self.events.append(RunEvent(len(self.events) + 1, event, data))
        self._wake()

    def _wake(self) -> None:
        old, self.wake = self.wake, asyncio.Event()
        old.set()

    def end(self, outcome: RunOutcome) -> None:
        self.outcome = outcome
        self.done.set()
        self._wake()


@dataclass(slots=True)
class _Thread:
    active: _Run | None = None
    pending: collections.deque[_Run] = field(default_factory=collections.deque)


class InProcessEngine:
    def __init__(self, executor: Executor) -> None:
        self.executor = executor
        self._runs: dict[str, _Run] = {}
        self._threads: dict[str, _Thread] = {}
        self._finished: collections.deque[str] = collections.deque()

    async def submit(self, job: RunJob) -> None:
        thread = self._threads.setdefault(job.thread_id, _Thread())
        busy = [r for r in (thread.active, *thread.pending) if r is not None]
        if busy and job.multitask_strategy == "reject":
            raise ThreadBusy(job.thread_id, busy[0].job.run_id)
        if busy and job.multitask_strategy in ("interrupt", "rollback"):
            action: CancelAction = (
                "rollback" if job.multitask_strategy == "rollback" else "interrupt"
            )
            for run in busy:
                await self.cancel(run.job.run_id, action)
            thread = self._threads.setdefault(job.thread_id, _Thread())
        run = _Run(job)
        self._runs[job.run_id] = run
        thread.pending.append(run)
        self._pump(job.thread_id)

    def _pump(self, thread_id: str) -> None:
        thread = self._threads.get(thread_id)
        if thread is None or thread.active is not None:
            return
        if not thread.pending:
            del self._threads[thread_id]
            return
        run = thread.pending.popleft()
        thread.active = run
        run.task = asyncio.create_task(self._drive(run))

    async def _drive(self, run: _Run) -> None:
        job = run.job
        outcome = RunOutcome("interrupted", None)
        try:
            await self.executor.start(job)
            outcome = await self.executor.run(job, run.emit)
        except asyncio.CancelledError:
            if run.cancelled is None:  # the server is stopping, not a cancel request
                raise
        except Exception as exc:  # the executor reports a run's own failures; this is its own
            payload = exception_payload(exc)
            run.emit("error", payload)
            outcome = RunOutcome("error", {"__error__": payload})
        finally:
            await self._settle(run, outcome)

    async def _settle(self, run: _Run, outcome: RunOutcome) -> None:
        try:
            if run.cancelled == "rollback":
                await self.executor.roll_back(run.job, started=True)
            else:
                await self.executor.finish(run.job, outcome)
        finally:
            run.end(outcome)
            self._retire(run)
            thread = self._threads.get(run.job.thread_id)
            if thread is not None and thread.active is run:
                thread.active = None
            self._pump(run.job.thread_id)

    def _retire(self, run: _Run) -> None:
        self._finished.append(run.job.run_id)
        while len(self._finished) > KEEP_FINISHED:
            self._runs.pop(self._finished.popleft(), None)

    async def cancel(self, run_id: str, action: CancelAction) -> bool:
        run = self._runs.get(run_id)
        if run is None:
            return False
        if run.done.is_set():
            return True
        run.cancelled = action
        thread = self._threads.get(run.job.thread_id)
        if thread is not None and run in thread.pending:
            thread.pending.remove(run)  # never started: nothing of it to undo but its row
            if action == "rollback":
                await self.executor.roll_back(run.job, started=False)
            else:
                await self.executor.finish(run.job, RunOutcome("interrupted", None))
            run.end(RunOutcome("interrupted", None))
            self._retire(run)
            self._pump(run.job.thread_id)
            return True
        if run.task is not None:
            run.task.cancel()
            await run.done.wait()
        return True

    async def events(
        self, run_id: str, after_id: int | None = None
    ) -> AsyncGenerator[RunEvent, None]:
        run = self._runs.get(run_id)
        if run is None:
            return
        i = max(after_id or 0, 0)
        while True:
            while i < len(run.events):
                i += 1
                yield run.events[i - 1]
            if run.done.is_set():
                return
            wake = run.wake
            if i >= len(run.events) and not run.done.is_set():
                await wake.wait()

    async def join(self, run_id: str) -> RunOutcome | None:
        run = self._runs.get(run_id)
        if run is None:
            return None
        await run.done.wait()
        return run.outcome

    def active(self, thread_id: str) -> bool:
        thread = self._threads.get(thread_id)
        return thread is not None and (thread.active is not None or bool(thread.pending))

    async def close(self) -> None:
        tasks = [r.task for r in self._runs.values() if r.task is not None and not r.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
