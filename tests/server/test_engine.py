"""The run engine's contract, without HTTP: what another engine behind the same protocol
(`submit`, `cancel`, `events`, `join`) must do too. The executor here is a small real one
whose runs wait on a gate, so the tests decide when each run ends."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import cast

import pytest

pytest.importorskip("starlette", reason="agentc serve needs starlette (the serve extra)")

from agentc.server.engine import (  # noqa: E402
    Emit,
    InProcessEngine,
    RunJob,
    RunOutcome,
    ThreadBusy,
)
from agentc.server.models import MultitaskStrategy  # noqa: E402

GUARD_S = 30


@dataclass
class GatedExecutor:
    gates: dict[str, asyncio.Event] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)

    def gate(self, run_id: str) -> asyncio.Event:
        return self.gates.setdefault(run_id, asyncio.Event())

    async def start(self, job: RunJob) -> None:
        self.log.append(f"start {job.run_id}")

    async def run(self, job: RunJob, emit: Emit) -> RunOutcome:
        emit("metadata", {"run_id": job.run_id})
        await self.gate(job.run_id).wait()
        emit("values", {"done": job.run_id})
        return RunOutcome("success", {"done": job.run_id})

    async def finish(self, job: RunJob, outcome: RunOutcome) -> None:
        self.log.append(f"finish {job.run_id} {outcome.status}")

    async def roll_back(self, job: RunJob, started: bool) -> None:
        self.log.append(f"roll back {job.run_id} started={started}")


def job(run_id: str, thread: str = "t1", strategy: str = "enqueue") -> RunJob:
    return RunJob(run_id, thread, "a", "g", multitask_strategy=cast(MultitaskStrategy, strategy))


async def ended(engine: InProcessEngine, run_id: str) -> str:
    outcome = await engine.join(run_id)
    assert outcome is not None
    return outcome.status


def check(body: Callable[[InProcessEngine, GatedExecutor], Awaitable[None]]) -> None:
    async def main() -> None:
        executor = GatedExecutor()
        engine = InProcessEngine(executor)
        try:
            await asyncio.wait_for(body(engine, executor), GUARD_S)
        finally:
            await engine.close()

    asyncio.run(main())


def test_runs_of_one_thread_queue_and_other_threads_run_alongside() -> None:
    async def body(engine: InProcessEngine, ex: GatedExecutor) -> None:
        await engine.submit(job("r1"))
        await engine.submit(job("r2"))
        await engine.submit(job("o1", thread="t2"))
        await asyncio.sleep(0.05)
        assert ex.log == ["start r1", "start o1"]  # r2 waits for r1; o1 is another thread
        ex.gate("r1").set()
        assert await engine.join("r1") == RunOutcome("success", {"done": "r1"})
        await asyncio.sleep(0.05)
        assert "start r2" in ex.log and engine.active("t1")
        ex.gate("r2").set(), ex.gate("o1").set()
        await engine.join("r2"), await engine.join("o1")
        assert not engine.active("t1") and not engine.active("t2")

    check(body)


def test_events_replay_after_an_id_and_follow_live() -> None:
    async def body(engine: InProcessEngine, ex: GatedExecutor) -> None:
        await engine.submit(job("r1"))
        await asyncio.sleep(0.05)

        async def read(after: int | None) -> list[int]:
            return [e.id async for e in engine.events("r1", after)]

        live = asyncio.ensure_future(read(None))
        await asyncio.sleep(0.05)
        ex.gate("r1").set()
        assert await live == [1, 2]
        assert await read(1) == [2] and await read(2) == []
        assert [e async for e in engine.events("unknown")] == []

    check(body)


@pytest.mark.parametrize("strategy", ["reject", "interrupt", "rollback"])
def test_a_second_run_on_a_busy_thread(strategy: str) -> None:
    async def body(engine: InProcessEngine, ex: GatedExecutor) -> None:
        await engine.submit(job("r1"))
        await asyncio.sleep(0.05)
        if strategy == "reject":
            with pytest.raises(ThreadBusy):
                await engine.submit(job("r2", strategy="reject"))
            ex.gate("r1").set()
            assert await ended(engine, "r1") == "success"
            return
        await engine.submit(job("r2", strategy=strategy))
        assert await ended(engine, "r1") == "interrupted"
        last = "roll back r1 started=True" if strategy == "rollback" else "finish r1 interrupted"
        assert last in ex.log
        ex.gate("r2").set()
        assert await ended(engine, "r2") == "success"

    check(body)


def test_cancelling_a_queued_run_never_starts_it() -> None:
    async def body(engine: InProcessEngine, ex: GatedExecutor) -> None:
        await engine.submit(job("r1"))
        await engine.submit(job("r2"))
        assert await engine.cancel("r2", "rollback")
        assert "roll back r2 started=False" in ex.log
        ex.gate("r1").set()
        await engine.join("r1")
        assert "start r2" not in ex.log
        assert not await engine.cancel("never", "interrupt")

    check(body)
