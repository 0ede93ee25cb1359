"""The server's threads and runs on PostgreSQL, beside the checkpoints and the store.

Input: a libpq connection string (the `--db postgresql://…` of `agentc serve` and
`agentc worker`). Output: `PostgresRepository`, the same `Repository` as SQLite's (the SQL
is `repo.SqlRepository`'s, run with `%s` parameters), plus what several processes share
once runs are durable: each run's events (`add_events` / `events_after`, numbered from 1,
so any API process can stream them and a client rejoins with `Last-Event-ID` on another),
cancel requests (`ask_cancel` / `cancel_asked`) and the workers' heartbeats (`beat`,
`lapsed`, `claim_lapsed`). Invariants: values are JSON text, never pickle; the tables are
created under a transaction-level advisory lock, so two processes starting at once create
them once; the connection string is only ever shown with its password as `***`.
"""

from __future__ import annotations

import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, LiteralString, cast

from agentc.runtime.checkpoint.pgdb import Database

from .engine import RunEvent
from .notify import CANCEL_CHANNEL, CHANNEL
from .repo import RunRow, SqlRepository

SCHEMA_LOCK = 0x616765_6E7473  # one key for the server's tables
_PG_SCHEMA = """
CREATE TABLE IF NOT EXISTS serve_threads (
  thread_id text PRIMARY KEY, created_at double precision NOT NULL,
  updated_at double precision NOT NULL, metadata text NOT NULL, status text NOT NULL,
  graph_id text, vals text, interrupts text NOT NULL, head text);
CREATE TABLE IF NOT EXISTS serve_runs (
  run_id text PRIMARY KEY, thread_id text NOT NULL, assistant_id text NOT NULL,
  created_at double precision NOT NULL, updated_at double precision NOT NULL,
  status text NOT NULL, metadata text NOT NULL, kwargs text NOT NULL,
  multitask_strategy text NOT NULL);
CREATE INDEX IF NOT EXISTS serve_runs_thread ON serve_runs (thread_id, created_at);
CREATE TABLE IF NOT EXISTS serve_run_events (
  run_id text NOT NULL, id integer NOT NULL, event text NOT NULL, data text NOT NULL,
  PRIMARY KEY (run_id, id));
CREATE TABLE IF NOT EXISTS serve_cancels (
  run_id text PRIMARY KEY, action text NOT NULL, asked_at double precision NOT NULL);
CREATE TABLE IF NOT EXISTS serve_workers (
  executor_id text PRIMARY KEY, beat_at double precision NOT NULL);
"""
_MARK = re.compile(r"\?")
POOL_MAX = 8  # connections; as many threads make the calls of the process's coroutines


class PostgresRepository(SqlRepository):
    """`Repository` on PostgreSQL (psycopg 3, a pool of autocommit connections)."""

    blocking = True  # a network round trip per call: coroutines call it off the loop

    def __init__(self, url: str) -> None:
        self.db = Database(url, pool_max=POOL_MAX)
        # the threads `AsyncRepository` makes its calls on: its own, so the rows are never
        # queued behind other blocking work of the process (a DBOS call waiting for a
        # workflow), and no more of them than connections, so none waits for the pool
        self._threads = ThreadPoolExecutor(POOL_MAX, thread_name_prefix="agentc-repo")
        self.executor = self._threads
        self.where = self.db.where
        with self.db.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            conn.execute(_PG_SCHEMA)

    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self.db.connection() as conn:
            cur = conn.execute(_pg(sql), args or None)
            return cur.fetchall() if cur.description else []

    def _exec(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        with self.db.connection() as conn:
            return int(conn.execute(_pg(sql), args or None).rowcount)

    def _upsert(self, table: str, key: str, columns: tuple[str, ...]) -> str:
        marks = ",".join("?" * len(columns))
        sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c != key)
        return (
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) "
            f"ON CONFLICT ({key}) DO UPDATE SET {sets}"
        )

    # ---- a run's changes, told to every process that waits for it (`notify.RunSignals`)

    def put_run(self, row: RunRow) -> None:
        super().put_run(row)
        self.notify(row.run_id)

    def delete_run(self, run_id: str) -> bool:
        found = super().delete_run(run_id)
        self.notify(run_id)
        return found

    def notify(self, run_id: str, channel: str = CHANNEL) -> None:
        self._run("SELECT pg_notify(?, ?)", (channel, run_id))

    # ---- run events: written by the worker that runs the run, read by any API process

    def add_events(self, run_id: str, events: list[RunEvent]) -> None:
        rows = [(run_id, e.id, e.event, _dump(e.data)) for e in events]
        with self.db.connection() as conn, conn.transaction(), conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO serve_run_events (run_id, id, event, data) VALUES (%s,%s,%s,%s) "
                "ON CONFLICT DO NOTHING",
                rows,
            )
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, run_id))  # sent at commit

    def events_after(self, run_id: str, after: int, limit: int = 500) -> list[RunEvent]:
        rows = self._run(
            "SELECT id, event, data FROM serve_run_events WHERE run_id = ? AND id > ? "
            "ORDER BY id LIMIT ?",
            (run_id, after, limit),
        )
        return [RunEvent(int(r[0]), str(r[1]), json.loads(r[2])) for r in rows]

    def last_event_id(self, run_id: str) -> int:
        rows = self._run("SELECT max(id) FROM serve_run_events WHERE run_id = ?", (run_id,))
        return int(rows[0][0] or 0) if rows else 0

    # ---- cancel requests: asked by an API process, seen by the worker between steps

    def ask_cancel(self, run_id: str, action: str) -> None:
        self._exec(
            "INSERT INTO serve_cancels (run_id, action, asked_at) VALUES (?,?,?) "
            "ON CONFLICT (run_id) DO UPDATE SET action = EXCLUDED.action",
            (run_id, action, time.time()),
        )
        self.notify(run_id, CANCEL_CHANNEL)

    def cancel_asked(self, run_id: str) -> str | None:
        rows = self._run("SELECT action FROM serve_cancels WHERE run_id = ?", (run_id,))
        return str(rows[0][0]) if rows else None

    # ---- workers' heartbeats: a lapsed one's workflows are recovered by a live one

    def beat(self, executor_id: str) -> None:
        self._exec(self._upsert("serve_workers", "executor_id", _BEAT), (executor_id, time.time()))

    def lapse(self, executor_id: str) -> None:
        """A worker that stops: lapsed at once, so a live one takes over its runs now."""
        self._exec("UPDATE serve_workers SET beat_at = 0 WHERE executor_id = ?", (executor_id,))

    def claim_lapsed(self, older_than_s: float) -> list[str]:
        """The workers whose last beat is older than `older_than_s`, removed in one
        statement, so exactly one live worker recovers each of them."""
        return [
            str(r[0])
            for r in self._run(
                "DELETE FROM serve_workers WHERE beat_at < ? RETURNING executor_id",
                (time.time() - older_than_s,),
            )
        ]

    def close(self) -> None:
        self._threads.shutdown(wait=True)
        self.db.close()


_BEAT = ("executor_id", "beat_at")


def _pg(sql: str) -> LiteralString:
    """SQLite's `?` parameters as psycopg's `%s` (the repository's SQL has no `%`)."""
    return cast(LiteralString, _MARK.sub("%s", sql))


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
