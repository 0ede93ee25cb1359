"""A journal: what a durable-execution engine (DBOS; Temporal could follow) does for the loop.

Input: a root run's tasks and saves, as the loop meets them. Output: their results, each
produced once: a run that is executed again after its process died replays what the
journal recorded (a finished task's result, a save's checkpoint id) instead of running it
again, and runs for real from the first thing it did not record. The interface is narrow:
run one task (`task`), make one save (`save`: a superstep's checkpoint, or pending writes),
stop between supersteps (`stop`); enqueueing and cancelling runs belong to the engine.

Without a journal (the default) the loop runs as it always did: `take_journal` answers None
and nothing here is called. With one, the loop must meet the same tasks and saves in the
same order when it replays, so: the run loads the checkpoint its first execution loaded,
with only the pending writes that were there then (`Pin`); a task's result is recorded in
the form it is saved in (`prepared`); a finished task's writes are not saved while its
siblings run (the journal holds them); saves always wait. A save whose effect landed but
whose record did not (the process died in between) is not made twice: the first save a
replay makes for real first looks whether it is already in the store (`landed`).
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from agentc.runtime.algo import Task, TaskResult, prepared
from agentc.runtime.checkpoint import Checkpoint, Checkpointer, PendingWrite
from agentc.runtime.events import DebugKind
from agentc.runtime.records import dataclass
from agentc.runtime.saver import Build, Saver
from agentc.runtime.step import StepEnv, StepRunner
from agentc.runtime.types import Durability

T = TypeVar("T")
Loaded = tuple[list[Checkpoint], list[PendingWrite]]


@dataclass(frozen=True, slots=True)
class Pin:
    """What a run loaded when it first ran: the checkpoint (None: nothing) and how many of
    its pending writes there were."""

    checkpoint_id: str | None
    writes: int


class Journal(Protocol):
    @property
    def thread_id(self) -> str:
        """The thread of the one root run it journals."""
        ...

    @property
    def pin(self) -> Pin | None:
        """What the run loads (None: as an unjournaled run does)."""
        ...

    def take(self) -> bool:
        """True the first time (the run's root loop); its subgraphs and later loops of the
        same context run unjournaled."""
        ...

    async def task(self, task: Task, run: Callable[[], Awaitable[TaskResult]]) -> TaskResult:
        """`run()`'s result, recorded; a recorded one is returned without running it."""
        ...

    async def save(self, kind: str, write: Callable[[bool], Awaitable[T]]) -> T:
        """`write(check)`'s answer, recorded; `check` is True for the first save a replay
        makes for real (it may have landed before the process died)."""
        ...

    def stop(self) -> bool:
        """Between supersteps: True to end the run here (it was cancelled)."""
        ...


_CURRENT: contextvars.ContextVar[Journal | None] = contextvars.ContextVar(
    "agentc_journal", default=None
)


@contextmanager
def journaled(journal: Journal) -> Iterator[None]:
    """Journal the next root run of `journal.thread_id` started in this context."""
    token = _CURRENT.set(journal)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def take_journal(thread_id: str | None, ns: str) -> Journal | None:
    journal = _CURRENT.get()
    if journal is None or ns or thread_id != journal.thread_id or not journal.take():
        return None
    return journal


class JournalRunner(StepRunner):
    """A `StepRunner` whose every task runs through the journal."""

    __slots__ = ("journal",)

    def __init__(self, env: StepEnv, journal: Journal) -> None:
        super().__init__(env)
        self.journal = journal

    async def run_task(
        self, task: Task, view: Mapping[str, Any], step: int, resumes: dict[str, Any], lone: bool
    ) -> TaskResult:
        async def run() -> TaskResult:
            result = await StepRunner.run_task(self, task, view, step, resumes, lone)
            return prepared(self.env.channels, result)

        return await self.journal.task(task, run)


class JournalSaver(Saver):
    """A `Saver` whose saves go through the journal, each waited for, and whose load is
    the run's `Pin`."""

    __slots__ = ("journal", "counts")

    def __init__(
        self,
        journal: Journal,
        store: Checkpointer | None,
        thread: str | None,
        ns: str,
        durability: Durability,
        debug: Callable[..., None] | None,
    ) -> None:
        super().__init__(store, thread, ns, durability, debug)
        self.journal = journal
        self.counts: dict[str | None, int] = {}  # checkpoint id → its pending writes

    async def load(self, checkpoint_id: str | None) -> Loaded | None:
        pin = self.journal.pin
        if pin is None:
            return await super().load(checkpoint_id)
        if pin.checkpoint_id is None:
            return None
        loaded = await super().load(pin.checkpoint_id)
        if loaded is None:
            return None
        chain, writes = loaded
        self.counts[pin.checkpoint_id] = pin.writes
        return chain, writes[: pin.writes]

    async def _put(self, build: Build) -> None:
        self.check()
        ckpt = build(self.parent_id)  # built on a replay too: it takes the channels' deltas

        async def write(check: bool) -> str:
            return await self.io(self._put_once, ckpt, check, wait=True)

        self.parent_id = await self.journal.save("checkpoint", write)
        if self.debug is not None:
            info = {"id": self.parent_id, "step": ckpt.step, "next": [t.node for t in ckpt.next]}
            self.debug(DebugKind.CHECKPOINT, info, ckpt.step)

    def _put_once(self, ckpt: Checkpoint, check: bool) -> str:
        store, thread = self.live, self.thread
        assert thread is not None, "a saver without a thread saves nothing"
        if check:  # landed: the thread's newest checkpoint already hangs off this parent
            newest = store.get(thread, self.ns, None)
            if newest is not None and newest.parent_id == ckpt.parent_id:
                return newest.id
        self._write(store.put, thread, self.ns, ckpt)
        return ckpt.id

    async def put_writes(self, writes: list[PendingWrite], *, wait: bool = False) -> None:
        if not self.active or not writes:
            return
        if self.exit_build is not None:  # the writes hang off a checkpoint: save it first
            build, self.exit_build = self.exit_build, None
            await self._put(build)
        self.check()
        parent = self.parent_id
        before = self.counts.get(parent, 0)
        self.counts[parent] = before + len(writes)

        async def write(check: bool) -> int:
            return await self.io(self._writes_once, parent, writes, before, check, wait=True)

        await self.journal.save("writes", write)

    def _writes_once(
        self, parent: str | None, writes: list[PendingWrite], before: int, check: bool
    ) -> int:
        store, thread = self.live, self.thread
        assert parent is not None and thread is not None, "writes hang off a checkpoint"
        if check and len(store.writes(thread, self.ns, parent)) >= before + len(writes):
            return len(writes)  # landed
        self._write(store.put_writes, self.thread, self.ns, parent, writes)
        return len(writes)
