"""A durable run's journal on PostgreSQL: what a worker records of a run, so a worker that
recovers it after a crash runs only what was not finished.

Input: the run (`RunJob`), the repository's `serve_journal` rows of its earlier executions,
and the DBOS ownership token of the execution running it. Output: `Entries` — the run's
start, each task and save of its superstep loop (`DbosJournal`, the `runtime/journal.py`
protocol) and its settle, in the order the run meets them, each written as one row when it
ends, and each recorded one returned without running again. Invariants: a row is written
only while the execution that writes it owns the workflow (`Owner`, checked in the same
statement, as DBOS checks its own steps); an entry recorded under one name is never
replayed under another (the run met its work in another order: it fails, it does not go
on); runs without a thread record nothing (one whose worker died starts again).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from dbos import DBOS
from dbos._context import current_owner_xid

from agentc.runtime import serde
from agentc.runtime.algo import Task, TaskResult
from agentc.runtime.journal import Pin
from agentc.runtime.types import GraphInterrupt

from .engine import RunJob
from .repo_pg import JournalEntry, Owner, PostgresRepository

JSON = Any
T = TypeVar("T")
Record = Callable[[int, str, JSON], Awaitable[None]]


class Entries:
    """One execution's view of a run's journal: the entries earlier executions recorded,
    and the number of the next one the run meets."""

    def __init__(self, recorded: dict[int, tuple[str, JSON]], record: Record | None) -> None:
        self.recorded, self._record = recorded, record
        self.replaying = bool(recorded)  # until an entry runs for real
        self._seq = 0

    def next(self, name: str) -> tuple[int, JSON | None]:
        """The next entry's number, and its recorded output (None: it runs for real)."""
        seq, self._seq = self._seq, self._seq + 1
        found = self.recorded.pop(seq, None)
        if found is None:
            self.replaying = False
            return seq, None
        if found[0] != name:  # the loop must meet its tasks and saves in the same order
            raise RuntimeError(f"journal entry {seq} is {found[0]}, the run met {name}")
        return seq, found[1]

    async def record(self, seq: int, name: str, output: JSON) -> None:
        if self._record is not None:
            await self._record(seq, name, output)

    async def once(self, name: str, run: Callable[[], Awaitable[JSON]]) -> JSON:
        """`run()`'s answer (a JSON object), recorded; a recorded one without running."""
        seq, out = self.next(name)
        if out is None:
            out = await run()
            await self.record(seq, name, out)
        return out


async def open_entries(repo: PostgresRepository, owns: Owner | None, job: RunJob) -> Entries:
    """The run's journal as its earlier executions left it, written under `owns` (a run
    without a thread: nothing read, nothing written)."""
    if job.temporary:
        return Entries({}, None)
    loop = asyncio.get_running_loop()
    recorded = await loop.run_in_executor(repo.executor, repo.journal, job.run_id)

    async def record(seq: int, name: str, output: JSON) -> None:
        entry = JournalEntry(job.run_id, seq, job.thread_id, name, output)
        await loop.run_in_executor(repo.executor, repo.record, entry, owns)

    return Entries(recorded, record)


def owner(schema: str) -> Owner | None:
    """This execution's ownership of the workflow it runs in (DBOS 3.4 keeps the token in
    its context only: `current_owner_xid`), None outside a workflow."""
    workflow_id = DBOS.workflow_id
    xid = current_owner_xid(workflow_id) if workflow_id else None
    return Owner(schema, workflow_id, xid) if workflow_id and xid else None


class DbosJournal:
    """The superstep loop's journal (`runtime/journal.py`) on a run's `Entries`: each task
    and save an entry."""

    def __init__(self, thread_id: str, pin: Pin, entries: Entries, fresh: bool) -> None:
        self.thread_id, self.pin, self.entries = thread_id, pin, entries
        self.check = not fresh  # the first save made for real may have landed already
        self.cancelled = self.stopped = False
        self._taken = False

    @property
    def replaying(self) -> bool:
        """Until an entry runs for real: events are not published (the first run did)."""
        return self.entries.replaying

    def take(self) -> bool:
        taken, self._taken = self._taken, True
        return not taken

    async def task(self, task: Task, run: Callable[[], Awaitable[TaskResult]]) -> TaskResult:
        name = f"agentc_task:{task.node}"
        seq, out = self.entries.next(name)
        if out is None:
            try:
                out = {"result": serde.encode(await run())}
            except GraphInterrupt as e:  # a pause is a result, not a failure of the task
                out = {"interrupt": serde.encode(list(e.interrupts))}
            await self.entries.record(seq, name, out)
        if "interrupt" in out:
            raise GraphInterrupt(tuple(serde.decode(out["interrupt"])))
        return serde.decode(out["result"])

    async def save(self, kind: str, write: Callable[[bool], Awaitable[T]]) -> T:
        name = f"agentc_{kind}"
        seq, out = self.entries.next(name)
        if out is not None:
            return cast(T, out["saved"])
        check, self.check = self.check, False
        saved = await write(check)
        await self.entries.record(seq, name, {"saved": saved})
        return saved

    def stop(self) -> bool:
        self.stopped = self.stopped or (self.cancelled and not self.replaying)
        return self.stopped
