"""The durable engine: the `Engine` of an API process whose runs execute in worker processes.

Input: `RunJob`s from the routes. Output: the same answers as `InProcessEngine` — events,
outcomes, cancels — read from the database, so this process holds no run state: any API
process can stream any run, and a client whose API process died rejoins on another with
`Last-Event-ID`. Each job is enqueued as a DBOS workflow (id: the run id) on the
`agentc_runs` queue, partitioned by thread id (one active run per thread across every
worker: `worker.py` says what guarantees what once a run is running). Invariants: the
multitask strategies are decided here from the runs' rows (`reject` raises `ThreadBusy`;
`interrupt` / `rollback` cancel the thread's runs and wait until they have stopped);
a cancel is written first (`serve_cancels`) and then, for a run still queued, DBOS's
cancel takes it off the queue — a worker that dequeues it in between sees the row and
ends it before it starts; events and ends are read from the database, never from memory,
when a notification says the run changed (`notify.RunSignals`: one listening connection
for all the waiters, not a poll per waiter), and at least every `notify.FALLBACK_S`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, Callable
from dataclasses import replace
from typing import Any, TypeVar

from dbos import EnqueueOptions

from .dbos_setup import APP_VERSION, QUEUE, WORKFLOW, JsonSerializer, client, system_schema
from .engine import RunEvent, RunJob, RunOutcome, ThreadBusy
from .models import CancelAction
from .notify import POLL_S, RunSignals
from .repo import RunRow
from .repo_pg import PostgresRepository
from .worker import job_json

ACTIVE = ("pending", "running")
WORKFLOW_RUNNING = ("ENQUEUED", "PENDING")  # DBOS's statuses of a workflow not ended yet
T = TypeVar("T")


class DurableEngine:
    def __init__(self, repo: PostgresRepository, url: str) -> None:
        self.repo = repo
        self.client = client(url)
        self.schema = system_schema(url)
        self.serializer = JsonSerializer()
        self.signals = RunSignals(repo.db.connect)

    async def submit(self, job: RunJob) -> None:
        tid = job.thread_id
        busy = [] if job.temporary else await self._off(self.repo.active_runs, tid, job.run_id)
        if busy and job.multitask_strategy == "reject":
            raise ThreadBusy(job.thread_id, busy[0])
        if busy and job.multitask_strategy in ("interrupt", "rollback"):
            action: CancelAction = (
                "rollback" if job.multitask_strategy == "rollback" else "interrupt"
            )
            for run_id in busy:
                await self.cancel(run_id, action)
        options: EnqueueOptions = {
            "queue_name": QUEUE,
            "workflow_name": WORKFLOW,
            "workflow_id": job.run_id,
            "queue_partition_key": job.thread_id,
            "app_version": APP_VERSION,
        }
        await asyncio.to_thread(self.client.enqueue, options, job_json(job))

    async def _off(self, fn: Callable[..., T], *args: Any) -> T:
        """A repository call on the repository's own threads (never queued behind the
        DBOS client's blocking calls)."""
        return await asyncio.get_running_loop().run_in_executor(self.repo.executor, fn, *args)

    async def cancel(self, run_id: str, action: CancelAction) -> bool:
        row = await self._off(self.repo.get_run, run_id)
        if row is None:
            return False
        if row.status not in ACTIVE:
            return True
        await self._off(self.repo.ask_cancel, run_id, action)
        if await self._queued(run_id):
            await asyncio.to_thread(self.client.cancel_workflow, run_id)
            if action == "rollback":
                await self._off(self.repo.delete_run, run_id)
            else:
                ended = replace(row, status="interrupted", updated_at=time.time())
                await self._off(self.repo.put_run, ended)
            return True
        await self._ended(run_id)
        return True

    async def _queued(self, run_id: str) -> bool:
        def status() -> str | None:
            try:
                return str(self.client.retrieve_workflow(run_id).get_status().status)
            except Exception:  # not enqueued yet (or gone): not on the queue either
                return None

        return await asyncio.to_thread(status) == "ENQUEUED"

    async def _ended(self, run_id: str) -> RunRow | None:
        """Wait until the run's row says it has ended (None: rolled back, deleted)."""
        while True:
            changed = self.signals.watch(run_id, rows_only=True)  # its events do not end it
            row = await self._off(self.repo.get_run, run_id)
            if row is None or row.status not in ACTIVE:
                return row
            await self.signals.wait(changed)

    async def events(
        self, run_id: str, after_id: int | None = None
    ) -> AsyncGenerator[RunEvent, None]:
        last = max(after_id or 0, 0)
        while True:
            changed = self.signals.watch(run_id)
            row = await self._off(self.repo.get_run, run_id)
            ended = row is None or row.status not in ACTIVE  # read before the events
            batch = await self._off(self.repo.events_after, run_id, last)
            for event in batch:
                last = event.id
                yield event
            if not batch:
                if ended:
                    return
                await self.signals.wait(changed)

    async def join(self, run_id: str) -> RunOutcome | None:
        if await self._off(self.repo.get_run, run_id) is None:
            return None
        await self._ended(run_id)
        while True:  # its row ends a moment before its workflow does
            found = await self._off(self.repo.workflow_outcome, self.schema, run_id)
            if found is None or found[0] not in WORKFLOW_RUNNING:
                break
            await asyncio.sleep(POLL_S)
        done = None
        if found is not None and found[0] == "SUCCESS" and found[1] is not None:
            done = self.serializer.deserialize(found[1])
        if not isinstance(done, dict):  # cancelled while queued, or never enqueued
            return RunOutcome("interrupted", None)
        return RunOutcome(done.get("status", "success"), done.get("result"))

    def active(self, thread_id: str) -> bool:
        return bool(self.repo.active_runs(thread_id))

    async def close(self) -> None:
        await asyncio.to_thread(self.signals.close)
        await asyncio.to_thread(self.client.destroy)
