"""Running one `RunJob` on its graph, and recording it: the server's `Executor`.

Input: a job and the function that publishes its events. Output: the SSE events LangGraph's
server sends for the same run, in order — `metadata` first (`run_id`, `attempt`), then the
requested modes' events (`translate.py`), `error` when the run fails — and the
`RunOutcome` (`runs/wait`'s answer: the final values, with `__interrupt__` when it paused,
or `__error__`). Invariants: the graph runs on agentc's
own API (`astream(stream_mode=…)`), nothing else; the thread row shows `busy` while it
runs and then `idle`, `interrupted` or `error`, with the last values; a run starts from
its thread's head as it is when the run starts (after a rollback, the checkpoint before the
rolled-back run).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, TypeVar

from agentc.graphview import LoadedGraph
from agentc.runtime import Command, Send
from agentc.runtime.errors import AgentcRuntimeError

from .assistants import Registry
from .engine import Emit, RunJob, RunOutcome
from .errors import exception_payload, log
from .models import RunStatus, ThreadStatus
from .repo import AsyncRepository, Repository, RunRow, ThreadRow
from .translate import Translator, langgraph_modes
from .wire import thread_interrupts, to_json

_THREAD_STATUS: dict[RunStatus, ThreadStatus] = {
    "success": "idle",
    "error": "error",
    "interrupted": "interrupted",
}
R = TypeVar("R", ThreadRow, RunRow)


def command_of(body: Any) -> Command:
    goto = body.get("goto")
    return Command(resume=body.get("resume"), update=body.get("update"), goto=_goto(goto))


def _goto(goto: Any) -> Any:
    if isinstance(goto, list):
        return [_goto(g) for g in goto]
    if isinstance(goto, dict):
        return Send(str(goto.get("node")), goto.get("input"))
    return goto


class GraphExecutor:
    def __init__(self, registry: Registry, repo: Repository) -> None:
        self.registry = registry
        self.repo = repo
        self.rows = AsyncRepository(repo)  # off the event loop when the database blocks
        self._heads: dict[str, str | None] = {}  # run id → its thread's checkpoint before it
        self._fresh: dict[str, LoadedGraph] = {}  # stateless runs' own graphs
        self._asked: dict[str, dict[str, Any]] = {}  # run id → its thread's interrupts
        self._configs: dict[str, Any] = {}  # run id → the config it runs with

    def _graph(self, job: RunJob) -> LoadedGraph:
        if job.temporary:
            if job.run_id not in self._fresh:
                self._fresh[job.run_id] = self.registry.fresh(self.registry.find(job.graph_id))
            return self._fresh[job.run_id]
        return self.registry.graph(self.registry.find(job.graph_id))

    async def start(self, job: RunJob) -> None:
        await self._set_run(job.run_id, "running")
        if job.temporary:
            return
        row = await self.rows.get_thread(job.thread_id)
        # read now, not when the run was asked for: a run queued behind one it rolls back
        # goes on from where that rollback left the thread
        config = _from_head(job.config, row.head if row is not None else None)
        self._configs[job.run_id] = config
        self._heads[job.run_id] = await self._head(job.thread_id, config)
        if row is not None:
            await self.rows.put_thread(
                _replace(row, status="busy", graph_id=job.graph_id, head=None)
            )

    def begun(self, run_id: str) -> dict[str, Any]:
        """What `start` decided for the run, as JSON (a durable engine records it once, so
        a worker that recovers the run goes on with the same head and config: `adopt`)."""
        return {
            "config": self._configs.get(run_id),
            "head": self._heads.get(run_id),
            "asked": self._asked.get(run_id),
        }

    def adopt(self, run_id: str, begun: dict[str, Any]) -> None:
        if begun.get("config") is not None:
            self._configs[run_id] = begun["config"]
        if begun.get("head") is not None:
            self._heads[run_id] = begun["head"]
        if begun.get("asked") is not None:
            self._asked[run_id] = begun["asked"]

    def _outputs(self, job: RunJob) -> frozenset[str]:
        a = self.registry.find(job.graph_id)
        return frozenset(c.name for c in a.program.graph(a.graph_id).state if c.output)

    async def _head(self, thread_id: str, config: Any) -> str | None:
        """The checkpoint a rollback of the job returns its thread to: the one it starts
        from (read without rebuilding the state: one row)."""
        given = (config or {}).get("configurable", {}).get("checkpoint_id")
        if given:
            return str(given)
        saver = self.registry.backends.checkpointer
        latest = await self.registry.checkpoints(saver.get, thread_id, "", None)
        return latest.id if latest is not None else None

    async def _first_input(self, thread_id: str) -> str | None:
        """The thread's first checkpoint: the input of its first run, before any node ran
        (its values are empty). Rolling that run back returns the thread to it, as near
        as a store that deletes nothing comes to LangGraph's deleting the run's
        checkpoints: the state reads empty and the next run starts from nothing."""
        saver = self.registry.backends.checkpointer
        saved = await self.registry.checkpoints(saver.list, thread_id, "")
        return next((c.id for c in saved if c.parent_id is None), None)

    async def run(self, job: RunJob, emit: Emit) -> RunOutcome:
        graph = self._graph(job)
        emit("metadata", {"run_id": job.run_id, "attempt": 1})
        translate = Translator(job, emit, self._outputs(job))
        value = command_of(job.command) if job.command is not None else job.input
        if translate.events is not None:
            translate.events.start(job.input)
        try:
            async for item in graph.astream(
                value,
                self._configs.get(job.run_id, job.config),
                stream_mode=langgraph_modes(job.stream_modes),
                subgraphs=job.subgraphs,
                interrupt_before=job.interrupt_before,
                interrupt_after=job.interrupt_after,
                context=job.context,
                durability=job.durability,
            ):
                ns, mode, chunk = item if job.subgraphs else ((), *item)
                translate.chunk(ns, mode, chunk)
        except AgentcRuntimeError as exc:
            return self._failed(job, exc, emit)
        except Exception as exc:  # a bug in a tool or node: named by kind, not traceback
            log.error("run %s failed: %s", job.run_id, type(exc).__name__)
            return self._failed(job, exc, emit)
        outcome = await self._outcome(graph, job)
        if translate.events is not None:
            translate.events.end(outcome.result)
        return outcome

    def _failed(self, job: RunJob, exc: BaseException, emit: Emit) -> RunOutcome:
        payload = exception_payload(exc)
        emit("error", payload)
        return RunOutcome("error", {"__error__": payload})

    async def _outcome(self, graph: LoadedGraph, job: RunJob) -> RunOutcome:
        snap = await graph.aget_state(_thread_config(job.thread_id))
        if snap is None:
            return RunOutcome("success", {})
        self._asked[job.run_id] = thread_interrupts(snap)
        outputs = self._outputs(job)  # as the last `values` event: no private channel
        values = {k: v for k, v in to_json(snap.values).items() if k in outputs}
        if snap.interrupts:
            asked = [to_json(i) for i in snap.interrupts]
            return RunOutcome("interrupted", {**values, "__interrupt__": asked})
        return RunOutcome("interrupted" if snap.next else "success", values)

    async def finish(self, job: RunJob, outcome: RunOutcome) -> None:
        self._fresh.pop(job.run_id, None)
        self._configs.pop(job.run_id, None)
        asked = self._asked.pop(job.run_id, {})
        self._heads.pop(job.run_id, None)
        await self._set_run(job.run_id, outcome.status)
        row = None if job.temporary else await self.rows.get_thread(job.thread_id)
        if row is None:
            return
        if outcome.result is None:  # cancelled: the thread shows what its steps saved
            outcome = await self._outcome(self._graph(job), job)
            asked = self._asked.pop(job.run_id, {})
        result = outcome.result if isinstance(outcome.result, dict) else None
        status = _THREAD_STATUS.get(outcome.status, "idle")
        values, interrupts = row.values, asked
        if result is not None and "__error__" not in result:
            values = {k: v for k, v in result.items() if k != "__interrupt__"}
        await self.rows.put_thread(
            _replace(row, status=status, values=values, interrupts=interrupts)
        )

    async def roll_back(self, job: RunJob, started: bool) -> None:
        self._fresh.pop(job.run_id, None)
        self._configs.pop(job.run_id, None)
        self._asked.pop(job.run_id, None)
        head = self._heads.pop(job.run_id, None)
        await self.rows.delete_run(job.run_id)
        row = None if job.temporary else await self.rows.get_thread(job.thread_id)
        if row is not None and started and head is None:  # the thread's first run
            head = await self._first_input(job.thread_id)
        if row is not None and started:  # a queued run never touched its thread
            await self.rows.put_thread(_replace(row, status="idle", head=head, interrupts={}))

    async def _set_run(self, run_id: str, status: RunStatus) -> None:
        row = await self.rows.get_run(run_id)
        if row is not None:
            await self.rows.put_run(_replace(row, status=status))


def _from_head(config: Any, head: str | None) -> Any:
    """The run's config, from its thread's head when the caller named no checkpoint."""
    configurable = dict((config or {}).get("configurable") or {})
    if head is None or configurable.get("checkpoint_id"):
        return config
    return {**(config or {}), "configurable": {**configurable, "checkpoint_id": head}}


def _thread_config(thread_id: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}}


def _replace(row: R, **changes: Any) -> R:
    return replace(row, updated_at=time.time(), **changes)
