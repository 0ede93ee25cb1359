"""The server's threads and runs on PostgreSQL, beside the checkpoints and the store.

Input: a libpq connection string (the `--db postgresql://…` of `agentc serve` and
`agentc worker`). Output: `PostgresRepository`, the same `Repository` as SQLite's (the SQL
is `repo.SqlRepository`'s, run with `%s` parameters), plus what several processes share
once runs are durable: each run's events (`add_events` / `events_after`, numbered from 1,
so any API process can stream them and a client rejoins with `Last-Event-ID` on another),
cancel requests (`ask_cancel` / `cancel_asked`), the workers' heartbeats (`beat`,
`lapsed`, `claim_lapsed`) and the journals of durable runs (`journal` / `record`: a row
per task or save, written only by the execution that owns the run's workflow).
Invariants: values are JSON text, never pickle; the tables are created under a
transaction-level advisory lock, so two processes starting at once create them once;
the connection string is only ever shown with its password as `***`.
"""

from __future__ import annotations

import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, LiteralString, cast

from psycopg import sql

from agentc.runtime.checkpoint.pgdb import Database

from .engine import RunEvent
from .notify import CANCEL_CHANNEL, CHANNEL, events_payload
from .repo import RUN_COLS, RunRow, SqlRepository, run_values

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
CREATE TABLE IF NOT EXISTS serve_crons (
  cron_id text PRIMARY KEY, assistant_id text NOT NULL, thread_id text,
  schedule text NOT NULL, timezone text, end_time double precision, payload text NOT NULL,
  metadata text NOT NULL, on_run_completed text, enabled integer NOT NULL,
  next_run_date double precision NOT NULL, created_at double precision NOT NULL,
  updated_at double precision NOT NULL);
CREATE TABLE IF NOT EXISTS serve_run_events (
  run_id text NOT NULL, id integer NOT NULL, event text NOT NULL, data text NOT NULL,
  PRIMARY KEY (run_id, id));
CREATE TABLE IF NOT EXISTS serve_cancels (
  run_id text PRIMARY KEY, action text NOT NULL, asked_at double precision NOT NULL);
CREATE TABLE IF NOT EXISTS serve_workers (
  executor_id text PRIMARY KEY, beat_at double precision NOT NULL);
CREATE TABLE IF NOT EXISTS serve_journal (
  run_id text NOT NULL, seq integer NOT NULL, thread_id text NOT NULL, name text NOT NULL,
  output text NOT NULL, PRIMARY KEY (run_id, seq));
CREATE INDEX IF NOT EXISTS serve_journal_thread ON serve_journal (thread_id);
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
        # the row and its notification in one statement: one round trip, not two (the
        # notification is delivered when the statement commits, so a reader sees the row)
        upsert = self._upsert("serve_runs", "run_id", RUN_COLS)
        args = (*run_values(row), CHANNEL, row.run_id)
        self._run(f"WITH written AS ({upsert}) SELECT pg_notify(?, ?)", args)

    def delete_thread(self, thread_id: str) -> bool:
        # with its runs goes what they left beside their rows (their events, journals and
        # cancels hold model replies and tool results), all in one transaction
        runs = "SELECT run_id FROM serve_runs WHERE thread_id = %s"
        with self.db.connection() as conn, conn.transaction():
            for table in ("serve_run_events", "serve_cancels"):
                conn.execute(f"DELETE FROM {table} WHERE run_id IN ({runs})", (thread_id,))
            for table in ("serve_journal", "serve_runs", "serve_crons"):
                conn.execute(f"DELETE FROM {table} WHERE thread_id = %s", (thread_id,))
            found = conn.execute("DELETE FROM serve_threads WHERE thread_id = %s", (thread_id,))
            return found.rowcount > 0

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
            # sent at commit; only the readers of events wake (`notify.RunSignals`)
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, events_payload(run_id)))

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

    # ---- what a durable API process reads of runs in other processes

    def active_runs(self, thread_id: str, but: str = "") -> list[str]:
        """The thread's pending or running runs other than `but`, oldest first (their ids:
        no row to decode)."""
        rows = self._run(
            "SELECT run_id FROM serve_runs WHERE thread_id = ? AND run_id <> ? "
            "AND status IN ('pending', 'running') ORDER BY created_at",
            (thread_id, but),
        )
        return [str(r[0]) for r in rows]

    def workflow_outcome(self, schema: str, run_id: str) -> tuple[str, str | None] | None:
        """The DBOS status of the run's workflow and its serialized output (None: there is
        no such workflow): one statement, read as DBOS 3.4 reads a result (its output in
        `workflow_output`, or in the status row), without DBOS's client."""
        stmt = sql.SQL(
            "SELECT s.status, coalesce(o.output, s.output) FROM {} s LEFT JOIN {} o "
            "ON o.workflow_uuid = s.workflow_uuid WHERE s.workflow_uuid = %s"
        ).format(
            sql.Identifier(schema, "workflow_status"), sql.Identifier(schema, "workflow_output")
        )
        with self.db.connection() as conn:
            row = conn.execute(stmt, (run_id,)).fetchone()
        return None if row is None else (str(row[0]), None if row[1] is None else str(row[1]))

    # ---- a durable run's journal: each task's and save's output (`worker.DbosJournal`)

    def journal(self, run_id: str) -> dict[int, tuple[str, Any]]:
        """What the run's earlier executions recorded: sequence number → (name, output)."""
        rows = self._run("SELECT seq, name, output FROM serve_journal WHERE run_id = ?", (run_id,))
        return {int(r[0]): (str(r[1]), json.loads(r[2])) for r in rows}

    def record(self, entry: JournalEntry, owner: Owner | None) -> None:
        """One entry, in one statement; with `owner`, only while that execution still owns
        the run's workflow (read under a share lock, so a recovery that hands the workflow
        to another worker waits for it or makes it fail)."""
        args = (entry.run_id, entry.seq, entry.thread_id, entry.name, _dump(entry.output))
        if owner is None:
            self._exec("INSERT INTO serve_journal (run_id, seq, thread_id, name, output) "
                       "VALUES (?,?,?,?,?)", args)  # fmt: skip
            return
        table = sql.Identifier(owner.schema, "workflow_status")
        stmt = sql.SQL(
            "INSERT INTO serve_journal (run_id, seq, thread_id, name, output) "
            "SELECT %s, %s, %s, %s, %s FROM {} WHERE workflow_uuid = %s AND owner_xid = %s "
            "FOR SHARE"
        ).format(table)
        with self.db.connection() as conn:
            if conn.execute(stmt, (*args, owner.workflow_id, owner.xid)).rowcount != 1:
                raise RunTakenOver(entry.run_id)

    def forget_journals(self, thread_id: str, but: str) -> None:
        """The journals of the thread's earlier runs (their workflows have ended: a thread
        runs one at a time, so none is left to recover)."""
        self._exec("DELETE FROM serve_journal WHERE thread_id = ? AND run_id <> ?",
                   (thread_id, but))  # fmt: skip

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


@dataclass(frozen=True, slots=True)
class JournalEntry:
    run_id: str
    seq: int  # the entry's place in the run: the n-th task or save the loop met
    thread_id: str
    name: str  # `agentc_task:<node>`, `agentc_checkpoint`, `agentc_writes`
    output: Any  # JSON


@dataclass(frozen=True, slots=True)
class Owner:
    """The execution of a workflow that may write its journal: DBOS's ownership token."""

    schema: str  # DBOS's system schema
    workflow_id: str
    xid: str


class RunTakenOver(RuntimeError):
    def __init__(self, run_id: str) -> None:
        super().__init__(f"run {run_id} was taken over by another worker")


def _pg(sql: str) -> LiteralString:
    """SQLite's `?` parameters as psycopg's `%s` (the repository's SQL has no `%`)."""
    return cast(LiteralString, _MARK.sub("%s", sql))


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
