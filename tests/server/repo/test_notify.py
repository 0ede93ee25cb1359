"""Run changes on PostgreSQL are told by LISTEN/NOTIFY, so the API processes and workers
that wait for a run are woken by its change instead of each polling its rows."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

psycopg = pytest.importorskip("psycopg")

from agentc.server.engine import RunEvent  # noqa: E402
from agentc.server.notify import CANCEL_CHANNEL, CHANNEL, RunSignals, events_payload  # noqa: E402
from agentc.server.repo import RunRow  # noqa: E402
from agentc.server.repo_pg import PostgresRepository  # noqa: E402


def _run(run_id: str, status: str = "pending") -> RunRow:
    now = time.time()
    return RunRow(run_id, str(uuid.uuid4()), "a", now, now, status, {}, {}, "enqueue")  # type: ignore[arg-type]


def test_run_rows_events_and_cancels_send_notifications(pg_url: str) -> None:
    repo = PostgresRepository(pg_url)
    rid = str(uuid.uuid4())
    try:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            conn.execute(f"LISTEN {CANCEL_CHANNEL}")
            repo.put_run(_run(rid))
            repo.add_events(rid, [RunEvent(1, "metadata", {"run_id": rid})])
            repo.ask_cancel(rid, "interrupt")
            repo.delete_run(rid)
            got = [(n.channel, n.payload) for n in conn.notifies(timeout=30, stop_after=4)]
    finally:
        repo.close()
    events = events_payload(rid)
    assert got == [(CHANNEL, rid), (CHANNEL, events), (CANCEL_CHANNEL, rid), (CHANNEL, rid)]
    assert events != rid and events.endswith(rid)


def test_signals_wake_the_waiters_of_the_run_that_changed(pg_url: str) -> None:
    repo = PostgresRepository(pg_url)
    signals = RunSignals(repo.db.connect)
    rid, other = str(uuid.uuid4()), str(uuid.uuid4())

    async def scenario() -> tuple[bool, bool]:
        # once listening, the signals wake every waiter (what changed before is unknown)
        await asyncio.wait_for(signals.watch(rid).wait(), 60)
        changed, unrelated = signals.watch(rid), signals.watch(other)
        await asyncio.to_thread(repo.put_run, _run(rid, "running"))
        await asyncio.wait_for(changed.wait(), 60)
        return changed.is_set(), unrelated.is_set()

    try:
        woken, other_woken = asyncio.run(scenario())
    finally:
        signals.close()
        repo.close()
    assert woken and not other_woken


def test_new_events_leave_the_waiters_of_a_row_asleep(pg_url: str) -> None:
    """A join waits for the run's row to end; its events wake only the readers of events."""
    repo = PostgresRepository(pg_url)
    signals = RunSignals(repo.db.connect)
    rid = str(uuid.uuid4())

    async def scenario() -> tuple[bool, bool, bool]:
        await asyncio.wait_for(signals.watch(rid).wait(), 60)  # listening
        row, any_change = signals.watch(rid, rows_only=True), signals.watch(rid)
        await asyncio.to_thread(repo.add_events, rid, [RunEvent(1, "metadata", {})])
        await asyncio.wait_for(any_change.wait(), 60)
        row_after_events = row.is_set()
        await asyncio.to_thread(repo.put_run, _run(rid, "success"))
        await asyncio.wait_for(row.wait(), 60)
        return any_change.is_set(), row_after_events, row.is_set()

    try:
        events_woke, row_woke_early, row_woke = asyncio.run(scenario())
    finally:
        signals.close()
        repo.close()
    assert events_woke and row_woke
    assert not row_woke_early
