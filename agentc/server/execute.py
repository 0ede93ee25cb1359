"""Running one `RunJob` on its graph, and recording it: the server's `Executor`.

Input: a job and the function that publishes its events. Output: the SSE events LangGraph's
server sends for the same run, in order — `metadata` first (`run_id`, `attempt`), then per
requested mode: `values`, `updates`, `custom`, `events` (`astream_events` dicts),
`messages` from `messages-tuple` (`[chunk, metadata]`), and for `messages`
`messages/metadata` once per message then `messages/partial` with the message so far;
with `stream_subgraphs`, a subgraph's events are named `mode|ns`; `error` when the run
fails — and the `RunOutcome` (`runs/wait`'s answer: the final values, with
`__interrupt__` when it paused, or `__error__`). Invariants: the graph runs on agentc's
own API (`astream(stream_mode=…)`), nothing else; the thread row shows `busy` while it
runs and then `idle`, `interrupted` or `error`, with the last values.
"""

from __future__ import annotations

import asyncio
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
from .repo import Repository, RunRow, ThreadRow
from .wire import call_event_json, delta_json, merge_delta, thread_interrupts, to_json

_LG_MODES = {"messages-tuple": "messages"}
_THREAD_STATUS: dict[RunStatus, ThreadStatus] = {
    "success": "idle",
    "error": "error",
    "interrupted": "interrupted",
}
R = TypeVar("R", ThreadRow, RunRow)


def langgraph_modes(modes: tuple[str, ...]) -> list[str]:
    """The modes to ask agentc's `astream` for (`messages-tuple` is `messages` there)."""
    out: list[str] = []
    for m in modes:
        lg = _LG_MODES.get(m, m)
        if lg not in out:
            out.append(lg)
    return out


def command_of(body: Any) -> Command:
    goto = body.get("goto")
    return Command(resume=body.get("resume"), update=body.get("update"), goto=_goto(goto))


def _goto(goto: Any) -> Any:
    if isinstance(goto, list):
        return [_goto(g) for g in goto]
    if isinstance(goto, dict):
        return Send(str(goto.get("node")), goto.get("input"))
    return goto


class _Translator:
    """One run's chunks as SSE events (the `messages` mode keeps each message so far)."""

    def __init__(self, job: RunJob, emit: Emit) -> None:
        self.job = job
        self.emit = emit
        self.messages: dict[str, Any] = {}
        self.counter = 0

    def chunk(self, ns: tuple[str, ...], mode: str, chunk: Any) -> None:
        suffix = f"|{'|'.join(ns)}" if ns and self.job.subgraphs else ""
        if mode == "messages":
            self._message(suffix, chunk)
        elif mode == "events":
            self.emit(f"events{suffix}", call_event_json(chunk))
        else:
            self.emit(f"{mode}{suffix}", to_json(chunk))

    def _message(self, suffix: str, chunk: Any) -> None:
        delta, meta = chunk
        meta = {**to_json(meta), "thread_id": self.job.thread_id, "run_id": self.job.run_id}
        key = f"{meta.get('langgraph_node')}:{meta.get('langgraph_step')}"
        wire = delta_json(delta, f"run-{self.job.run_id}-{key}")
        if "messages-tuple" in self.job.stream_modes:
            self.emit(f"messages{suffix}", [wire, meta])
        if "messages" in self.job.stream_modes:
            first = key not in self.messages
            self.messages[key] = merge_delta(self.messages.get(key), wire)
            if first:
                self.emit("messages/metadata", {self.messages[key]["id"]: {"metadata": meta}})
            self.emit("messages/partial", [self.messages[key]])


class GraphExecutor:
    def __init__(self, registry: Registry, repo: Repository) -> None:
        self.registry = registry
        self.repo = repo
        self._heads: dict[str, str | None] = {}  # run id → its thread's checkpoint before it
        self._fresh: dict[str, LoadedGraph] = {}  # stateless runs' own graphs
        self._asked: dict[str, dict[str, Any]] = {}  # run id → its thread's interrupts

    def _graph(self, job: RunJob) -> LoadedGraph:
        if job.temporary:
            if job.run_id not in self._fresh:
                self._fresh[job.run_id] = self.registry.fresh(self.registry.find(job.graph_id))
            return self._fresh[job.run_id]
        return self.registry.graph(self.registry.find(job.graph_id))

    async def start(self, job: RunJob) -> None:
        self._set_run(job.run_id, "running")
        if job.temporary:
            return
        self._heads[job.run_id] = await self._head(job)
        row = self.repo.get_thread(job.thread_id)
        if row is not None:
            self.repo.put_thread(_replace(row, status="busy", graph_id=job.graph_id, head=None))

    async def _head(self, job: RunJob) -> str | None:
        """The checkpoint a rollback of the job returns its thread to: the one it starts
        from (read without rebuilding the state: one row)."""
        given = (job.config or {}).get("configurable", {}).get("checkpoint_id")
        if given:
            return str(given)
        saver = self.registry.backends.checkpointer
        if saver.blocking:
            latest = await asyncio.to_thread(saver.get, job.thread_id, "", None)
        else:
            latest = saver.get(job.thread_id, "", None)
        return latest.id if latest is not None else None

    async def run(self, job: RunJob, emit: Emit) -> RunOutcome:
        graph = self._graph(job)
        emit("metadata", {"run_id": job.run_id, "attempt": 1})
        translate = _Translator(job, emit)
        value = command_of(job.command) if job.command is not None else job.input
        try:
            async for item in graph.astream(
                value,
                job.config,
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
        return await self._outcome(graph, job)

    def _failed(self, job: RunJob, exc: BaseException, emit: Emit) -> RunOutcome:
        payload = exception_payload(exc)
        emit("error", payload)
        return RunOutcome("error", {"__error__": payload})

    async def _outcome(self, graph: LoadedGraph, job: RunJob) -> RunOutcome:
        snap = await graph.aget_state(_thread_config(job.thread_id))
        if snap is None:
            return RunOutcome("success", {})
        self._asked[job.run_id] = thread_interrupts(snap)
        values = to_json(snap.values)
        if snap.interrupts:
            asked = [to_json(i) for i in snap.interrupts]
            return RunOutcome("interrupted", {**values, "__interrupt__": asked})
        return RunOutcome("interrupted" if snap.next else "success", values)

    async def finish(self, job: RunJob, outcome: RunOutcome) -> None:
        self._fresh.pop(job.run_id, None)
        asked = self._asked.pop(job.run_id, {})
        self._heads.pop(job.run_id, None)
        self._set_run(job.run_id, outcome.status)
        row = None if job.temporary else self.repo.get_thread(job.thread_id)
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
        self.repo.put_thread(_replace(row, status=status, values=values, interrupts=interrupts))

    async def roll_back(self, job: RunJob, started: bool) -> None:
        self._fresh.pop(job.run_id, None)
        self._asked.pop(job.run_id, None)
        head = self._heads.pop(job.run_id, None)
        self.repo.delete_run(job.run_id)
        row = None if job.temporary else self.repo.get_thread(job.thread_id)
        if row is not None and started:  # a queued run never touched its thread
            self.repo.put_thread(_replace(row, status="idle", head=head, interrupts={}))

    def _set_run(self, run_id: str, status: RunStatus) -> None:
        row = self.repo.get_run(run_id)
        if row is not None:
            self.repo.put_run(_replace(row, status=status))


def _thread_config(thread_id: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}}


def _replace(row: R, **changes: Any) -> R:
    return replace(row, updated_at=time.time(), **changes)
