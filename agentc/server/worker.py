"""A worker process: durable runs as DBOS workflows over PostgreSQL.

Input: the served files' graphs, the `postgresql://` database every API process and worker
shares, and the runs the API processes enqueue (`durable.DurableEngine`). Output: each run
executed once to its end by one of the live workers, its events in `serve_run_events`, its
thread and run rows updated, its outcome the workflow's result.

One run is one DBOS workflow, whose id is the run id, queued on `agentc_runs` with the
thread id as its partition key and one run at a time per partition, so a thread has one
active run across every worker. The workflow has three steps:

- `agentc_start` marks the run running and the thread busy, and records the checkpoint
  the run starts from (what a rollback returns to) and the thread's latest checkpoint.
  DBOS records its output, so a recovered run keeps these first decisions.
- `agentc_supersteps` is the superstep loop (the runtime's executor). What keeps finished
  work finished inside it is the checkpointer, not DBOS: every superstep's checkpoint is
  one row written in one statement, and every task that finishes while its siblings still
  run has its writes saved at once (durability `sync`, which durable runs use unless the
  request names another). When a worker dies in the middle of a superstep, the step is not
  recorded, so the worker that recovers the workflow runs it again; it sees that the
  thread has moved past the recorded latest checkpoint and resumes from the thread's
  checkpoint instead of applying the input again: the tasks whose writes were saved are
  not run again, and no superstep is applied twice. Its output (the outcome) is recorded,
  so a run that finished is never run again, even if its worker dies before the last step.
- `agentc_settle` writes the thread's status and values (or rolls the run back).

Cancel is a row in `serve_cancels`: the running step sees it (woken by its notification,
`notify.RunSignals`; read again at least every `notify.FALLBACK_S`) and stops the run,
whose thread keeps the state of its last saved superstep; a run that had not started yet
ends at `agentc_start`. DBOS retries are off (steps are not retried; a crashed workflow is
recovered, which is not a retry of a step that returned an error). Workers beat in
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

from .assistants import Registry
from .dbos_setup import APP_VERSION, POLL_S, QUEUE, WORKFLOW, config
from .engine import RunEvent, RunJob, RunOutcome
from .errors import exception_payload, log
from .execute import GraphExecutor
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

    # ---- the steps

    async def start(self, data: JSON) -> JSON:
        job = job_of(data)
        asked = await asyncio.to_thread(self.repo.cancel_asked, job.run_id)
        if asked is not None:
            return {"cancelled": asked}
        await self.executor.start(job)
        latest = await self._latest(job)
        return {**self.executor.begun(job.run_id), "latest": latest, "cancelled": None}

    async def _latest(self, job: RunJob) -> str | None:
        """The id of the thread's newest checkpoint (read off the loop: it blocks)."""
        if job.temporary:
            return None
        get = self.registry.backends.checkpointer.get
        saved = await asyncio.to_thread(get, job.thread_id, "", None)
        return saved.id if saved is not None else None

    async def supersteps(self, data: JSON, begun: JSON) -> JSON:
        job = await self._resumable(job_of(data), begun)
        stored = await asyncio.to_thread(self.repo.last_event_id, job.run_id)
        events = EventLog(self.repo, job.run_id, stored)
        pump = asyncio.create_task(events.pump())
        running = asyncio.create_task(self.executor.run(job, events.emit))
        watch = asyncio.create_task(self._watch(job.run_id, running))
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
        asked = self.executor.begun(job.run_id).get("asked")
        return {"status": outcome.status, "result": outcome.result, "cancelled": cancelled,
                "asked": asked}  # fmt: skip

    async def _resumable(self, job: RunJob, begun: JSON) -> RunJob:
        """The job as this attempt runs it: from the thread's checkpoint when an earlier
        attempt of this run already saved one (its input is in the thread then)."""
        self.executor.adopt(job.run_id, begun)
        job = job if job.durability else replace(job, durability="sync")
        if job.temporary or await self._latest(job) == begun.get("latest"):
            return job
        log.info("run %s resumes from its thread's last checkpoint", job.run_id)
        cfg = dict(begun.get("config") or job.config or {})
        configurable = {
            k: v for k, v in (cfg.get("configurable") or {}).items() if k != "checkpoint_id"
        }
        self.executor.adopt(job.run_id, {"config": {**cfg, "configurable": configurable}})
        return replace(job, input=None, command=None)

    async def _watch(self, run_id: str, running: asyncio.Task[RunOutcome]) -> None:
        while not running.done():
            asked = self.cancels.watch(run_id)
            if await asyncio.to_thread(self.repo.cancel_asked, run_id) is not None:
                running.cancel()
                return
            await self.cancels.wait(asked)

    async def settle(self, data: JSON, begun: JSON, outcome: JSON) -> JSON:
        job = job_of(data)
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
        DBOS(config=config(self.options.url, self.executor_id, verbose=self.options.verbose))
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
    """Register the workflow and its steps with DBOS (before `DBOS.launch`)."""

    @DBOS.step(name="agentc_start")
    async def start(data: JSON) -> JSON:
        return await w.start(data)

    @DBOS.step(name="agentc_supersteps")
    async def supersteps(data: JSON, begun: JSON) -> JSON:
        return await w.supersteps(data, begun)

    @DBOS.step(name="agentc_settle")
    async def settle(data: JSON, begun: JSON, outcome: JSON) -> JSON:
        return await w.settle(data, begun, outcome)

    @DBOS.workflow(name=WORKFLOW)
    async def run(data: JSON) -> JSON:
        begun = await start(data)
        outcome: JSON = {"status": "interrupted", "result": None}
        if begun.get("cancelled") is None:
            outcome = await supersteps(data, begun)
        return await settle(data, begun, outcome)
