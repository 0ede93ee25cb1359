"""A worker process: durable runs as DBOS workflows over PostgreSQL.

Input: the served files' graphs, the `postgresql://` database every API process and worker
shares, and the runs the API processes enqueue (`durable.DurableEngine`). Output: each run
executed once to its end by one of the live workers, its events in `serve_run_events`, its
thread and run rows updated, its outcome the workflow's result.

One run is one DBOS workflow, whose id is the run id, queued on `agentc_runs` with the
thread id as its partition key and one run at a time per partition, so a thread has one
active run across every worker. The workflow runs the run's start, its superstep loop
(the runtime's executor, journaled by `DbosJournal`: `runtime/journal.py`) and its settle,
and records each of them as it ends in the run's journal (`serve_journal`, one row in one
statement: `journal_pg.py`):

- `agentc_start` marks the run running and the thread busy, and records the checkpoint
  the run starts from (what a rollback returns to; what the loop loads, with the number of
  its pending writes then) and the thread's latest checkpoint.
- each task of a superstep (a model call, a tool call) is an entry `agentc_task:<node>`
  whose output is the task's result (JSON by the runtime's serde), and each save (a
  superstep's checkpoint: one row in one statement; the pending writes of a pause or a
  failure) an entry `agentc_checkpoint` / `agentc_writes` whose output is what it saved.
- `agentc_settle` writes the thread's status and values (or rolls the run back).

An entry is written only while the execution that writes it owns the workflow (DBOS's
ownership token, read under a share lock in the same statement), as DBOS guards its own
steps; the workflow itself has no DBOS steps (each would cost DBOS two transactions).

A worker that recovers a workflow runs it again from the start, as DBOS does: it reads the
run's journal once, the loop loads the same checkpoint and writes, and every entry the
journal recorded returns its recorded output without running, so the finished tasks of the
superstep the dead worker was in are not run again and no superstep is saved twice (the
first save made for real looks whether it landed before the worker died); events are not
published again while it replays. Only a task that was still running runs again. Runs
without a thread are not journaled: one whose worker died starts again from its input. A
run's journal is deleted when the next run of its thread starts (its workflow has ended
by then).

Cancel is a row in `serve_cancels`: the run's watch sees it (woken by its notification,
`notify.RunSignals`; read again at least every `notify.FALLBACK_S`) and the loop stops
before its next superstep, the thread keeping the superstep it has saved; a run that had
not started yet ends at `agentc_start`. Nothing is retried here (a node's own retry
policy, E7, retries inside its task; a crashed workflow is recovered, which is not a retry
of a task that failed). Workers beat in
`serve_workers`; a live worker removes the row of one whose beat lapsed and asks DBOS to
recover that executor's pending workflows (`DBOS._recover_pending_workflows`: DBOS 3.4
has no public call for it outside Conductor), which re-enqueues them on their queue and
partition for any live worker to take (DBOS's re-enqueue admits exactly one runner).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import uuid
from dataclasses import asdict, dataclass, replace
from typing import Any

from dbos import DBOS

from agentc.runtime.journal import Pin, journaled

from .assistants import Registry
from .dbos_setup import APP_VERSION, POLL_S, QUEUE, WORKFLOW, config
from .engine import RunEvent, RunJob, RunOutcome
from .errors import exception_payload, log
from .execute import GraphExecutor
from .journal_pg import DbosJournal, Entries, open_entries, owner
from .notify import CANCEL_CHANNEL, RunSignals
from .repo_pg import PostgresRepository

JSON = Any
BEAT_S = 1.0  # how often a worker says it is alive
LAPSE_S = 6.0  # a worker silent this long is dead: its runs go to a live one
FLUSH_S = 0.02


def job_json(job: RunJob) -> JSON:
    return asdict(job)


def job_of(data: JSON) -> RunJob:
    return RunJob(**{**data, "stream_modes": tuple(data.get("stream_modes") or ())})


@dataclass(frozen=True, slots=True)
class WorkerOptions:
    url: str
    concurrency: int = 32  # runs one worker executes at once (asyncio tasks of DBOS's loop)
    beat_s: float = BEAT_S
    lapse_s: float = LAPSE_S
    verbose: bool = False  # DBOS's and the worker's own lines at INFO


class EventLog:
    """A run's events, numbered after those already stored, written in small batches."""

    def __init__(self, repo: PostgresRepository, run_id: str, stored: int) -> None:
        self.repo, self.run_id = repo, run_id
        self.next_id = stored + 1
        self.resumed = self.next_id > 1
        self._buffer: list[RunEvent] = []
        self._wake = asyncio.Event()
        self._closing = False

    def emit(self, event: str, data: JSON) -> None:
        if event == "metadata" and self.resumed:
            return  # a client already has this run's metadata event
        self._buffer.append(RunEvent(self.next_id, event, data))
        self.next_id += 1
        self._wake.set()

    async def flush(self) -> None:
        batch, self._buffer = self._buffer, []
        if batch:
            await asyncio.to_thread(self.repo.add_events, self.run_id, batch)

    async def pump(self) -> None:
        """Write batches until `close`; one batch at a time, in order, so a reader that has
        seen event n never misses one below it."""
        while not self._closing:
            await self._wake.wait()
            self._wake.clear()
            await self.flush()
            await asyncio.sleep(FLUSH_S)
        await self.flush()

    def close(self) -> None:
        self._closing = True
        self._wake.set()


class Worker:
    def __init__(self, registry: Registry, repo: PostgresRepository, options: WorkerOptions):
        self.registry, self.repo, self.options = registry, repo, options
        self.executor = GraphExecutor(registry, repo)
        self.executor_id = f"agentc-{uuid.uuid4()}"
        self.cancels = RunSignals(repo.db.connect, CANCEL_CHANNEL)
        self._stop = threading.Event()
        self.dbos_schema = "dbos"  # DBOS's tables (`launch` reads where they are)

    async def execute(self, data: JSON) -> JSON:
        """The workflow: start, the superstep loop, settle, each journaled."""
        job = job_of(data)
        entries = await open_entries(self.repo, owner(self.dbos_schema), job)
        begun = await entries.once("agentc_start", lambda: self.start(job))
        fresh = not entries.replaying  # this execution ran the start (it is not a recovery)
        outcome: JSON = {"status": "interrupted", "result": None}
        if begun.get("cancelled") is None:
            outcome = await self.supersteps(job, begun, entries, fresh)
        return await entries.once("agentc_settle", lambda: self.settle(job, begun, outcome))

    # ---- the journaled parts

    async def start(self, job: RunJob) -> JSON:
        asked = await asyncio.to_thread(self.repo.cancel_asked, job.run_id)
        if asked is not None:
            return {"cancelled": asked}
        if not job.temporary:
            await asyncio.to_thread(self.repo.forget_journals, job.thread_id, job.run_id)
        await self.executor.start(job)
        begun = self.executor.begun(job.run_id)
        return {**begun, "writes": await self._writes(job, begun["head"]), "cancelled": None}

    async def _writes(self, job: RunJob, head: str | None) -> int:
        """How many pending writes the checkpoint the run loads has (read off the loop)."""
        if job.temporary or head is None:
            return 0
        writes = self.registry.backends.checkpointer.writes
        return len(await asyncio.to_thread(writes, job.thread_id, "", head))

    async def supersteps(self, job: RunJob, begun: JSON, entries: Entries, fresh: bool) -> JSON:
        """The superstep loop (its tasks and saves are entries of the journal)."""
        self.executor.adopt(job.run_id, begun)
        job = job if job.durability else replace(job, durability="sync")
        pin = Pin(begun.get("head"), int(begun.get("writes") or 0))
        journal = None if job.temporary else DbosJournal(job.thread_id, pin, entries, fresh)
        stored = await asyncio.to_thread(self.repo.last_event_id, job.run_id)
        events = EventLog(self.repo, job.run_id, stored)
        pump = asyncio.create_task(events.pump())
        running = asyncio.create_task(self._run(job, journal, events))
        watch = asyncio.create_task(self._watch(job.run_id, running, journal))
        cancelled = None
        try:
            outcome = await running
        except asyncio.CancelledError:
            cancelled = self.repo.cancel_asked(job.run_id)
            if cancelled is None:
                raise  # the worker is stopping: the run is recovered elsewhere
            outcome = RunOutcome("interrupted", None)
        except Exception as exc:  # the executor reports a run's own failures; this is ours
            payload = exception_payload(exc)
            events.emit("error", payload)
            outcome = RunOutcome("error", {"__error__": payload})
        finally:
            watch.cancel()
            events.close()
            await pump
        if journal is not None:  # asked while it ran (it stopped, or it had no next step)
            cancelled = await asyncio.to_thread(self.repo.cancel_asked, job.run_id)
        asked = self.executor.begun(job.run_id).get("asked")
        return {"status": outcome.status, "result": outcome.result, "cancelled": cancelled,
                "asked": asked}  # fmt: skip

    async def _run(self, job: RunJob, journal: DbosJournal | None, events: EventLog) -> RunOutcome:
        if journal is None:
            return await self.executor.run(job, events.emit)

        def emit(event: str, data: JSON) -> None:
            if not journal.replaying:  # a replay's events were published by the first run
                events.emit(event, data)

        with journaled(journal):
            return await self.executor.run(job, emit)

    async def _watch(
        self, run_id: str, running: asyncio.Task[RunOutcome], journal: DbosJournal | None
    ) -> None:
        """Until the run ends: a cancel stops a journaled run before its next superstep,
        and cuts a run without a thread off at once."""
        while not running.done():
            asked = self.cancels.watch(run_id)
            if await asyncio.to_thread(self.repo.cancel_asked, run_id) is not None:
                if journal is None:
                    running.cancel()
                else:
                    journal.cancelled = True
                return
            await self.cancels.wait(asked)

    async def settle(self, job: RunJob, begun: JSON, outcome: JSON) -> JSON:
        self.executor.adopt(job.run_id, {**begun, "asked": outcome.get("asked")})
        if begun.get("cancelled") is not None:  # never started
            if begun["cancelled"] == "rollback":
                await self.executor.roll_back(job, started=False)
            else:
                await self.executor.finish(job, RunOutcome("interrupted", None))
        elif outcome.get("cancelled") == "rollback":
            await self.executor.roll_back(job, started=True)
        else:
            await self.executor.finish(job, RunOutcome(outcome["status"], outcome["result"]))
        return {"status": outcome["status"], "result": outcome["result"]}

    # ---- the process

    def launch(self) -> None:
        install(self)
        settings = config(self.options.url, self.executor_id, verbose=self.options.verbose)
        self.dbos_schema = str(settings.get("dbos_system_schema") or "dbos")
        DBOS(config=settings)
        DBOS.launch()
        DBOS.register_queue(
            QUEUE,
            partition_concurrency=1,
            worker_concurrency=self.options.concurrency,
            polling_interval_sec=POLL_S,
            on_conflict="always_update",
        )
        self.repo.beat(self.executor_id)
        threading.Thread(target=self._keep, name="agentc-heartbeat", daemon=True).start()
        log.info("worker %s (%s) started", self.executor_id, APP_VERSION)

    def _keep(self) -> None:
        while not self._stop.wait(self.options.beat_s):
            try:
                self.repo.beat(self.executor_id)
                for dead in self.repo.claim_lapsed(self.options.lapse_s):
                    if dead != self.executor_id:
                        # DBOS 3.4 offers this without Conductor only as its internal call
                        handles = DBOS._recover_pending_workflows([dead])
                        log.warning("worker %s lapsed: %d runs recovered", dead, len(handles))
            except Exception as exc:  # the database is away: try again at the next beat
                log.warning("heartbeat failed: %s: %s", type(exc).__name__, exc)

    def stop(self) -> None:
        """Stop taking runs; the runs in flight go to a live worker at its next beat."""
        self._stop.set()
        DBOS.destroy(workflow_completion_timeout_sec=0)
        self.cancels.close()
        with contextlib.suppress(Exception):
            self.repo.lapse(self.executor_id)


def install(w: Worker) -> None:
    """Register the workflow with DBOS (before `DBOS.launch`)."""

    @DBOS.workflow(name=WORKFLOW)
    async def run(data: JSON) -> JSON:
        return await w.execute(data)
