"""The server's `Repository` on SQLite and on PostgreSQL: the same rows back, the same
searches, the same repair after a stopped server (real databases: a SQLite file, and a
throw-away PostgreSQL cluster from `support.pg`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agentc.server.repo import Repository, RunRow, SqliteRepository, ThreadQuery, ThreadRow
from agentc.server.repo_crons import CronRow


@pytest.fixture(params=["sqlite", "postgres"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Repository]:
    if request.param == "sqlite":
        made: Repository = SqliteRepository(str(tmp_path / "serve.db"))
    else:
        from agentc.server.repo_pg import PostgresRepository

        made = PostgresRepository(request.getfixturevalue("pg_url"))
    try:
        yield made
    finally:
        made.close()


def _thread(tid: str, at: float, **kw: object) -> ThreadRow:
    return ThreadRow(tid, at, at, **kw)  # type: ignore[arg-type]


def _run(rid: str, tid: str, at: float, status: str = "pending") -> RunRow:
    return RunRow(rid, tid, "a1", at, at, status, {"m": 1}, {"input": {"é": [1, 2]}}, "enqueue")  # type: ignore[arg-type]


def test_a_thread_comes_back_as_it_was_put(repo: Repository) -> None:
    row = _thread("t1", 1.5, metadata={"user": "ann", "deep": {"a": 1}}, status="interrupted",
                  graph_id="g", values={"messages": ["hé"]}, interrupts={"task": [{"v": 1}]},
                  head="c1")  # fmt: skip
    repo.put_thread(row)
    assert repo.get_thread("t1") == row
    repo.put_thread(_thread("t1", 1.5))  # a second put replaces the row
    assert repo.get_thread("t1") == _thread("t1", 1.5)
    assert repo.get_thread("nope") is None


def test_threads_are_searched_by_metadata_status_and_ids_in_order(repo: Repository) -> None:
    repo.put_thread(_thread("t1", 1.0, metadata={"user": "ann", "org": {"id": 1, "x": 2}}))
    repo.put_thread(_thread("t2", 2.0, metadata={"user": "bob"}, status="busy"))
    repo.put_thread(_thread("t3", 3.0, metadata={"user": "ann"}))
    ids = lambda q: [r.thread_id for r in repo.search_threads(q)]  # noqa: E731
    assert ids(ThreadQuery()) == ["t3", "t2", "t1"]
    assert ids(ThreadQuery(sort_order="asc", limit=2)) == ["t1", "t2"]
    assert ids(ThreadQuery(offset=1, limit=1)) == ["t2"]
    assert ids(ThreadQuery(metadata={"user": "ann"})) == ["t3", "t1"]
    assert ids(ThreadQuery(metadata={"org": {"id": 1}})) == ["t1"]
    assert ids(ThreadQuery(status="busy")) == ["t2"]
    assert ids(ThreadQuery(ids=("t1", "t2"), sort_by="thread_id", sort_order="asc")) == ["t1", "t2"]


def test_runs_are_kept_listed_and_deleted_with_their_thread(repo: Repository) -> None:
    repo.put_thread(_thread("t1", 1.0))
    for i, status in enumerate(["success", "running", "pending"]):
        repo.put_run(_run(f"r{i}", "t1", float(i), status))
    repo.put_run(_run("other", "t2", 9.0, "success"))
    assert repo.get_run("r0") == _run("r0", "t1", 0.0, "success")
    assert [r.run_id for r in repo.list_runs("t1", 10, 0)] == ["r2", "r1", "r0"]
    assert [r.run_id for r in repo.list_runs("t1", 1, 1)] == ["r1"]
    assert sorted(r.run_id for r in repo.runs_in(("pending", "running"))) == ["r1", "r2"]
    assert repo.delete_run("r0") and not repo.delete_run("r0")
    assert repo.delete_thread("t1") and not repo.delete_thread("t1")
    assert repo.list_runs("t1", 10, 0) == [] and repo.get_run("other") is not None


def test_a_stopped_servers_unfinished_runs_are_marked_and_threads_freed(repo: Repository) -> None:
    repo.put_thread(_thread("t1", 1.0, status="busy"))
    repo.put_run(_run("r1", "t1", 1.0, "running"))
    repo.put_run(_run("r2", "t1", 2.0, "pending"))
    repo.put_run(_run("r3", "t1", 3.0, "success"))
    assert repo.abandon_unfinished() == 2
    assert [r.status for r in repo.list_runs("t1", 10, 0)] == ["success", "error", "error"]
    thread = repo.get_thread("t1")
    assert thread is not None and thread.status == "idle"


def test_values_are_stored_as_json_text(repo: Repository, tmp_path: Path) -> None:
    repo.put_thread(_thread("t1", 1.0, values={"n": 1}))
    repo.put_run(_run("r1", "t1", 1.0))
    rows = _raw(repo, "SELECT vals, interrupts, metadata FROM serve_threads") + _raw(
        repo, "SELECT kwargs, metadata FROM serve_runs"
    )
    stored = [v for row in rows for v in row]
    assert stored == ['{"n":1}', "{}", "{}", '{"input":{"é":[1,2]}}', '{"m":1}']


def _raw(repo: Repository, sql: str) -> list[tuple[object, ...]]:
    """The stored text, read around the repository."""
    return repo._run(sql)  # type: ignore[attr-defined]


def _cron(cid: str, tid: str | None, due: float, **kw: object) -> CronRow:
    fields: dict[str, object] = dict(
        cron_id=cid, assistant_id="a1", thread_id=tid, schedule="* * * * *", timezone=None,
        end_time=None, payload={"input": {"é": 1}}, metadata={"m": 1}, on_run_completed=None,
        enabled=True, next_run_date=due, created_at=due - 60, updated_at=due - 60,
    )  # fmt: skip
    return CronRow(**{**fields, **kw})  # type: ignore[arg-type]


def test_a_due_cron_is_claimed_once(repo: Repository) -> None:
    """Two processes that read the same due cron both try to move it on; one wins, and
    only the winner starts its run. Switched-off and ended crons are never due."""
    repo.put_cron(_cron("c1", "t1", 100.0, timezone="Asia/Tokyo", end_time=500.0))
    repo.put_cron(_cron("c2", None, 100.0, enabled=False, on_run_completed="keep"))
    repo.put_cron(_cron("c3", None, 100.0, end_time=90.0))
    repo.put_cron(_cron("c4", None, 200.0))
    assert repo.get_cron("c1") == _cron("c1", "t1", 100.0, timezone="Asia/Tokyo", end_time=500.0)
    assert [c.cron_id for c in repo.list_crons()] == ["c1", "c2", "c3", "c4"]
    (due,) = repo.due_crons(150.0)
    assert due.cron_id == "c1"
    assert repo.advance_cron("c1", due.next_run_date, 160.0) is True
    assert repo.advance_cron("c1", due.next_run_date, 160.0) is False  # the second reader
    assert repo.due_crons(150.0) == []
    assert [c.cron_id for c in repo.due_crons(250.0)] == ["c1", "c4"]


def test_deleting_a_thread_deletes_its_crons(repo: Repository) -> None:
    repo.put_thread(_thread("t1", 1.0))
    repo.put_cron(_cron("c1", "t1", 100.0))
    repo.put_cron(_cron("c2", None, 100.0))
    assert repo.delete_thread("t1") is True
    assert [c.cron_id for c in repo.list_crons()] == ["c2"]
    assert repo.delete_cron("c2") is True and repo.delete_cron("c2") is False
    assert repo.get_cron("c2") is None
