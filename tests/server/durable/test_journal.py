"""The journal protocol (`runtime/journal.py`) the loop calls when a durable engine runs it:
without a journal the loop runs as it always did; with one, a run executed again after its
process died replays the recorded tasks and saves, runs for real from the first one not
recorded, and saves nothing twice, even a save that landed without its record. Shown with
a journal in memory (the protocol's contract, for any engine) and with DBOS itself (its
system database on SQLite, which DBOS 3.4 supports)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from dbos import DBOS

import agentc
from agentc.runtime import serde
from agentc.runtime.algo import Task, TaskResult
from agentc.runtime.checkpoint.sqlite import SqliteCheckpointer
from agentc.runtime.journal import Pin, journaled, take_journal
from agentc.server.dbos_setup import JsonSerializer
from agentc.server.worker import DbosJournal

APP = Path(__file__).resolve().parent / "journal_app" / "fan.agent"
INPUT = {"messages": [{"role": "user", "content": "go"}]}
T = TypeVar("T")
# what one run of `fan` records, in order: the input checkpoint, the START step's, `plan`
# and its superstep's checkpoint, the three calls and theirs, `answer` and its
RECORDS = ["checkpoint", "checkpoint", "task:plan", "checkpoint", "task:call",
           "task:call", "task:call", "checkpoint", "task:answer", "checkpoint"]  # fmt: skip
FANOUT_COMMIT = 7


class Died(Exception):
    """The process died here (after the save landed, before its record)."""


class MemoryJournal:
    """A journal that records in a dict: entry i is the i-th task or save of the run."""

    def __init__(self, thread_id: str, records: dict[int, Any], *, fresh: bool) -> None:
        self.thread_id, self.records = thread_id, records
        self.pin: Pin | None = Pin(None, 0)  # every test thread starts empty
        self.check = not fresh
        self.n = 0
        self.hang_at: int | None = None  # this task never ends (the process dies in it)
        self.die_after: int | None = None  # this save lands, its record does not
        self.hung = asyncio.Event()
        self.taken = False

    def take(self) -> bool:
        taken, self.taken = self.taken, True
        return not taken

    async def task(self, task: Task, run: Callable[[], Awaitable[TaskResult]]) -> TaskResult:
        i, self.n = self.n, self.n + 1
        if i in self.records:
            assert self.records[i][0] == f"task:{task.node}", "replayed in another order"
            return serde.decode(self.records[i][1])
        if i == self.hang_at:
            self.hung.set()
            await asyncio.Event().wait()
        result = await run()
        self.records[i] = (f"task:{task.node}", serde.encode(result))
        return result

    async def save(self, kind: str, write: Callable[[bool], Awaitable[T]]) -> T:
        i, self.n = self.n, self.n + 1
        if i in self.records:
            assert self.records[i][0] == kind, "replayed in another order"
            return self.records[i][1]
        check, self.check = self.check, False
        out = await write(check)
        if i == self.die_after:
            raise Died
        self.records[i] = (kind, out)
        return out

    def stop(self) -> bool:
        return False


@pytest.fixture
def fan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, SqliteCheckpointer]:
    monkeypatch.setenv("JOURNAL_CALLS", str(tmp_path / "calls.log"))
    store = SqliteCheckpointer(str(tmp_path / "state.db"))
    return agentc.load(APP, checkpointer=store)["fan"], store


def _calls(tmp_path: Path) -> list[str]:
    log = tmp_path / "calls.log"
    return sorted(log.read_text().split()) if log.exists() else []


def _steps(store: SqliteCheckpointer, thread: str) -> list[int]:
    return [c.step for c in store.list(thread, "")]


def _contents(out: dict[str, Any]) -> list[str]:
    return [str(m.content) for m in out["messages"]]


async def _run(graph: Any, thread: str, journal: Any) -> dict[str, Any]:
    with journaled(journal):
        return await graph.ainvoke(INPUT, {"configurable": {"thread_id": thread}})


def test_without_a_journal_the_loop_runs_as_before(fan: Any, tmp_path: Path) -> None:
    graph, store = fan
    other = MemoryJournal("another thread", {}, fresh=True)
    out = asyncio.run(_run(graph, "t", other))  # a journal of another thread is not taken
    assert not other.taken and not other.records
    assert take_journal("t", "") is None  # outside `journaled`: none
    assert _contents(out)[-1] == "done: a,b,c"
    assert _calls(tmp_path) == ["a", "b", "c"]
    assert _steps(store, "t") == [-1, 0, 1, 2, 3]


def test_a_replay_does_not_run_recorded_tasks_again(fan: Any, tmp_path: Path) -> None:
    graph, store = fan
    calm = MemoryJournal("calm", {}, fresh=True)
    calm_out = asyncio.run(_run(graph, "calm", calm))
    assert [calm.records[i][0] for i in sorted(calm.records)] == RECORDS
    assert _steps(store, "calm") == [-1, 0, 1, 2, 3]  # one checkpoint per save, as without
    (tmp_path / "calls.log").unlink()

    records: dict[int, Any] = {}
    first = MemoryJournal("t", records, fresh=True)
    first.hang_at = 6  # the third call: the process dies while it runs

    async def die_mid_superstep() -> None:
        running = asyncio.ensure_future(_run(graph, "t", first))
        await first.hung.wait()
        while not {4, 5} <= records.keys():  # its siblings finished and were recorded
            await asyncio.sleep(0)
        running.cancel()  # what a kill leaves: no save after the last recorded one
        with pytest.raises(asyncio.CancelledError):
            await running

    asyncio.run(die_mid_superstep())
    assert _calls(tmp_path) == ["a", "b"]
    assert _steps(store, "t") == [-1, 0, 1]  # the fan-out superstep was not saved

    again = MemoryJournal("t", records, fresh=False)
    out = asyncio.run(_run(graph, "t", again))
    assert _calls(tmp_path) == ["a", "b", "c"]  # a and b were not run again
    assert _contents(out) == _contents(calm_out)
    assert _steps(store, "t") == _steps(store, "calm")


def test_a_save_that_landed_without_its_record_is_not_made_twice(fan: Any, tmp_path: Path) -> None:
    graph, store = fan
    records: dict[int, Any] = {}
    first = MemoryJournal("t", records, fresh=True)
    first.die_after = FANOUT_COMMIT
    with pytest.raises(Died):
        asyncio.run(_run(graph, "t", first))
    assert _steps(store, "t") == [-1, 0, 1, 2]  # the fan-out superstep's save landed

    again = MemoryJournal("t", records, fresh=False)
    out = asyncio.run(_run(graph, "t", again))
    assert _calls(tmp_path) == ["a", "b", "c"]
    assert _steps(store, "t") == [-1, 0, 1, 2, 3]  # step 2 once
    assert _contents(out)[-1] == "done: a,b,c"
    assert records[FANOUT_COMMIT][1] == store.list("t", "")[3].id  # the landed one adopted


# ---- DBOS (its system database on SQLite)

GRAPH: dict[str, Any] = {}
FRESH: set[str] = set()


@DBOS.step(name="journal_test_pin")
async def _pin(thread: str) -> Any:
    FRESH.add(thread)
    store = GRAPH["store"]
    head = store.get(thread, "", None)
    writes = len(store.writes(thread, "", head.id)) if head is not None else 0
    return {"head": head.id if head is not None else None, "writes": writes}


@DBOS.workflow(name="journal_test_run")
async def _workflow(thread: str, graph: str = "fan", resume: str | None = None) -> Any:
    pin = await _pin(thread)
    fresh = thread in FRESH
    FRESH.discard(thread)
    journal = DbosJournal(thread, Pin(pin["head"], pin["writes"]), fresh)
    value = INPUT if resume is None else agentc.Command(resume=resume)
    with journaled(journal):
        out = await GRAPH[graph].ainvoke(value, {"configurable": {"thread_id": thread}})
    if graph == "fan":
        return _contents(out)
    return {"answer": out.get("answer"), "asked": "__interrupt__" in out}


@pytest.fixture
def dbos(tmp_path: Path) -> Any:
    DBOS(
        config={
            "name": "agentc_journal_test",
            "system_database_url": f"sqlite:///{tmp_path / 'dbos.sqlite'}",
            "serializer": JsonSerializer(),
            "log_level": "WARNING",
        }
    )
    DBOS.launch()
    try:
        yield DBOS
    finally:
        DBOS.destroy()


def test_dbos_records_each_task_and_save_and_replays_them(
    fan: Any, dbos: Any, tmp_path: Path
) -> None:
    graph, store = fan
    GRAPH.update(fan=graph, store=store)
    handle = DBOS.start_workflow(_workflow, "t")
    out = handle.get_result()
    assert out[-1] == "done: a,b,c"
    steps = DBOS.list_workflow_steps(handle.workflow_id)
    names = [s["function_name"] for s in steps]
    assert names == ["journal_test_pin", *(f"agentc_{r}" for r in RECORDS)]
    stored = [s["output"] for s in steps if s["function_name"] == "agentc_checkpoint"]
    assert stored == [c.id for c in store.list("t", "")]

    # run it again from its last save as a recovery would after a death between that
    # save and its record: nothing runs again, nothing is saved twice
    last = steps[-1]["function_id"]
    again = DBOS.fork_workflow(handle.workflow_id, last).get_result()
    assert again == out
    assert _calls(tmp_path) == ["a", "b", "c"]
    assert _steps(store, "t") == [-1, 0, 1, 2, 3]


def test_dbos_records_a_pause_and_its_resume(fan: Any, dbos: Any, tmp_path: Path) -> None:
    _, store = fan
    GRAPH.update(ask=agentc.load(APP, checkpointer=store)["ask"], store=store)
    asked = DBOS.start_workflow(_workflow, "q", "ask")
    assert asked.get_result() == {"answer": "", "asked": True}
    steps = DBOS.list_workflow_steps(asked.workflow_id)
    names = [s["function_name"] for s in steps]
    assert names[-2:] == ["agentc_task:q", "agentc_writes"]  # the question, saved once
    writes_before = len(store.writes("q", "", store.get("q", "", None).id))

    # replaying the paused run (as a recovery from its last save would) saves nothing again
    again = DBOS.fork_workflow(asked.workflow_id, steps[-1]["function_id"]).get_result()
    assert again == {"answer": "", "asked": True}
    assert len(store.writes("q", "", store.get("q", "", None).id)) == writes_before

    answered = DBOS.start_workflow(_workflow, "q", "ask", "yes").get_result()
    assert answered == {"answer": "yes", "asked": False}
