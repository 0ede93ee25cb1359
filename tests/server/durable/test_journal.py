"""The journal protocol (`runtime/journal.py`) the loop calls when a durable engine runs it:
without a journal the loop runs as it always did; with one, a run executed again after its
process died replays the recorded tasks and saves, runs for real from the first one not
recorded, and saves nothing twice, even a save that landed without its record. Shown with
a journal in memory (the protocol's contract, for any engine) and with DBOS itself on
PostgreSQL (the worker's journal: `serve_journal`, written under the workflow's owner)."""

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
from agentc.server.dbos_setup import config
from agentc.server.engine import RunJob
from agentc.server.journal_pg import DbosJournal, open_entries, owner
from agentc.server.repo_pg import JournalEntry, Owner, PostgresRepository, RunTakenOver

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


# ---- DBOS on PostgreSQL, the journal in `serve_journal`

GRAPH: dict[str, Any] = {}


@DBOS.workflow(name="journal_test_run")
async def _workflow(thread: str, graph: str = "fan", resume: str | None = None) -> Any:
    job = RunJob(run_id=GRAPH["key"], thread_id=thread, assistant_id="", graph_id=graph)
    owns = owner(GRAPH["schema"])
    assert owns is not None  # the entries are written under this execution's ownership
    entries = await open_entries(GRAPH["repo"], owns, job)
    pin = await entries.once("journal_test_pin", lambda: _pin(thread))
    fresh = not entries.replaying
    journal = DbosJournal(thread, Pin(pin["head"], pin["writes"]), entries, fresh)
    value = INPUT if resume is None else agentc.Command(resume=resume)
    with journaled(journal):
        out = await GRAPH[graph].ainvoke(value, {"configurable": {"thread_id": thread}})
    if graph == "fan":
        return _contents(out)
    return {"answer": out.get("answer"), "asked": "__interrupt__" in out}


async def _pin(thread: str) -> Any:
    store = GRAPH["store"]
    head = store.get(thread, "", None)
    writes = len(store.writes(thread, "", head.id)) if head is not None else 0
    return {"head": head.id if head is not None else None, "writes": writes}


@pytest.fixture
def dbos(pg_url: str) -> Any:
    settings = config(pg_url, "journal-test")
    repo = PostgresRepository(pg_url)
    GRAPH.update(repo=repo, schema=settings["dbos_system_schema"], key="run-1")
    DBOS(config=settings)
    DBOS.launch()
    try:
        yield repo
    finally:
        DBOS.destroy()
        repo.close()


def _journal(repo: PostgresRepository) -> list[tuple[str, Any]]:
    entries = repo.journal(GRAPH["key"])
    return [entries[i] for i in sorted(entries)]


def _forget_last(repo: PostgresRepository) -> None:
    """What a death between the last save and its entry leaves: the save, not the entry."""
    repo._exec("DELETE FROM serve_journal WHERE run_id = ? AND seq = ?",
               (GRAPH["key"], len(_journal(repo)) - 1))  # fmt: skip


def test_dbos_journals_each_task_and_save_and_replays_them(
    fan: Any, dbos: PostgresRepository, tmp_path: Path
) -> None:
    graph, store = fan
    GRAPH.update(fan=graph, store=store)
    handle = DBOS.start_workflow(_workflow, "t")
    out = handle.get_result()
    assert out[-1] == "done: a,b,c"
    assert DBOS.list_workflow_steps(handle.workflow_id) == []  # all in the journal
    entries = _journal(dbos)
    names = [name for name, _ in entries]
    assert names == ["journal_test_pin", *(f"agentc_{r}" for r in RECORDS)]
    saved = [o["saved"] for name, o in entries if name == "agentc_checkpoint"]
    assert saved == [c.id for c in store.list("t", "")]

    # run it again as a recovery would after a death between the last save and its
    # entry: nothing runs again, nothing is saved twice, the landed save is adopted
    _forget_last(dbos)
    again = DBOS.fork_workflow(handle.workflow_id, 1).get_result()
    assert again == out
    assert _calls(tmp_path) == ["a", "b", "c"]
    assert _steps(store, "t") == [-1, 0, 1, 2, 3]
    assert _journal(dbos) == entries


def test_dbos_journals_a_pause_and_its_resume(
    fan: Any, dbos: PostgresRepository, tmp_path: Path
) -> None:
    _, store = fan
    GRAPH.update(ask=agentc.load(APP, checkpointer=store)["ask"], store=store)
    asked = DBOS.start_workflow(_workflow, "q", "ask")
    assert asked.get_result() == {"answer": "", "asked": True}
    names = [name for name, _ in _journal(dbos)]
    assert names[-2:] == ["agentc_task:q", "agentc_writes"]  # the question, saved once
    writes_before = len(store.writes("q", "", store.get("q", "", None).id))

    # replaying the paused run (as a recovery after its last save would) saves nothing again
    _forget_last(dbos)
    again = DBOS.fork_workflow(asked.workflow_id, 1).get_result()
    assert again == {"answer": "", "asked": True}
    assert len(store.writes("q", "", store.get("q", "", None).id)) == writes_before

    GRAPH["key"] = "run-2"
    answered = DBOS.start_workflow(_workflow, "q", "ask", "yes").get_result()
    assert answered == {"answer": "yes", "asked": False}


def test_an_execution_that_no_longer_owns_the_workflow_records_nothing(
    fan: Any, dbos: PostgresRepository
) -> None:
    graph, store = fan
    GRAPH.update(fan=graph, store=store)
    handle = DBOS.start_workflow(_workflow, "t")
    handle.get_result()
    schema = GRAPH["schema"]
    entry = JournalEntry(GRAPH["key"], 99, "t", "agentc_task:call", {"result": None})
    taken = Owner(schema, handle.workflow_id, "another execution's token")
    with pytest.raises(RunTakenOver):
        dbos.record(entry, taken)
    assert 99 not in dbos.journal(GRAPH["key"])
