"""The PostgreSQL checkpointer: many processes (API servers, workers) sharing threads.

Input: `Checkpoint` records and pending writes. Output: the same, read back. Invariants:
the layout is SQLite's (`sqlite.py`, whose row codec this uses): a checkpoint row holds that
step's deltas, so storage grows linearly (each message once), with per-channel versions;
pending writes are rows per task hanging off their checkpoint; rows are JSON of registered
types only (`serde`, never pickle; D6), narrowed by the file's `types:` list. psycopg 3
over a pool (`pgdb.Database`); every call is blocking, so the saver runs it on its writer
thread (F11 async: at most one save of a run in flight). A thread's writer holds a
session-level advisory lock on a dedicated connection (`AdvisoryClaims`): other processes
see it, and the server drops it when the holder's connection ends (a SIGKILLed worker
never blocks its thread). A row that is not what `put` wrote is `DamagedCheckpointError`
naming the thread, the database (password as `***`) and the checkpoint; a save that fails
is `CheckpointWriteError`; a database that does not answer is `DatabaseUnreachableError`.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, LiteralString

import psycopg
from psycopg_pool import PoolTimeout

from agentc.runtime.errors import AgentcRuntimeError, CheckpointWriteError
from agentc.runtime.serde import TypeAllowlist
from agentc.runtime.threadlock import LocalClaims, ThreadClaim, busy

from .base import Checkpoint, CheckpointQuery, PendingWrite, SavedCheckpoint, parent_ids
from .pgdb import Connection, Database, is_unreachable
from .rows import RowReader, dump_checkpoint, write_rows  # one codec: SQLite's rows too

_COLS = "thread_id, ns, id, parent_id, data"


class PostgresCheckpointer(RowReader):
    blocking = True

    def __init__(self, url: str, *, types: TypeAllowlist | None = None) -> None:
        self.db = Database(url)
        self.where = self.db.where  # the connection string with its password as ***
        self.types = types  # D6: what a load may rebuild (None: every registered type)
        self._claims = AdvisoryClaims(self.db)

    @contextmanager
    def _sql(self, thread: str | None, *, writing: bool = False) -> Iterator[Connection]:
        """A pooled connection; psycopg's failures as agentc's errors."""
        try:
            with self.db.connection() as conn:
                yield conn
        except AgentcRuntimeError:
            raise
        except (psycopg.Error, PoolTimeout) as e:
            if writing:
                subject = f"thread `{thread}`" if thread is not None else "a checkpoint"
                raise CheckpointWriteError(
                    f"could not save {subject} in {self.where}: {self.db.reason(e)}",
                    help="check the database (is it running, is its disk full?); the thread "
                    "resumes from its last saved checkpoint",
                ) from None
            if is_unreachable(e):
                raise self.db.unreachable(e) from None
            what = f"the database answered: {self.db.reason(e)}"
            raise self._damaged(thread, what) from None

    def put(self, thread_id: str, ns: str, checkpoint: Checkpoint) -> None:
        data = dump_checkpoint(checkpoint)
        row = (thread_id, ns, checkpoint.id, checkpoint.parent_id, data)
        with self._sql(thread_id, writing=True) as conn:
            conn.execute(
                f"INSERT INTO agentc_checkpoints ({_COLS}, step, source) "
                "VALUES (%s,%s,%s,%s,%s,%s,%s)",
                (*row, checkpoint.step, checkpoint.source.value),
            )

    def put_writes(
        self, thread_id: str, ns: str, checkpoint_id: str, writes: list[PendingWrite]
    ) -> None:
        rows = write_rows(thread_id, ns, checkpoint_id, writes)
        with self._sql(thread_id, writing=True) as conn, conn.transaction(), conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO agentc_writes (thread_id, ns, checkpoint_id, task_id, kind, data) "
                "VALUES (%s,%s,%s,%s,%s,%s)",
                rows,
            )

    def get(self, thread_id: str, ns: str, checkpoint_id: str | None = None) -> Checkpoint | None:
        base = "SELECT id, data FROM agentc_checkpoints WHERE thread_id=%s AND ns=%s"
        with self._sql(thread_id) as conn:
            if checkpoint_id is None:
                cur = conn.execute(f"{base} ORDER BY seq DESC LIMIT 1", (thread_id, ns))
            else:
                cur = conn.execute(f"{base} AND id=%s", (thread_id, ns, checkpoint_id))
            row = cur.fetchone()
        return self._load(thread_id, row[0], row[1]) if row else None

    def list(self, thread_id: str, ns: str) -> list[Checkpoint]:
        with self._sql(thread_id) as conn:
            rows = conn.execute(
                "SELECT id, parent_id, data FROM agentc_checkpoints WHERE thread_id=%s AND "
                "ns=%s ORDER BY seq",
                (thread_id, ns),
            ).fetchall()
        return [self._load(thread_id, r[0], r[2], r[1]) for r in rows]

    def search(self, query: CheckpointQuery) -> list[SavedCheckpoint]:
        where: list[LiteralString] = ["true"]
        args: list[Any] = []
        filters: tuple[tuple[LiteralString, object], ...] = (
            ("thread_id", query.thread_id),
            ("ns", query.ns),
            ("source", None if query.source is None else query.source.value),
            ("step", query.step),  # v2's columns: filtered here, not by reading every row
        )
        for column, value in filters:
            if value is not None:
                where.append(f"c.{column}=%s")
                args.append(value)
        if query.before is not None:  # in its thread: rows saved before that one
            where.append(
                "c.seq < (SELECT b.seq FROM agentc_checkpoints b WHERE b.id=%s AND "
                "b.thread_id=c.thread_id AND b.ns=c.ns)"
            )
            args.append(query.before)
        sql = (
            f"SELECT c.thread_id, c.ns, c.id, c.parent_id, c.data FROM agentc_checkpoints c "
            f"WHERE {' AND '.join(where)} ORDER BY c.seq DESC"
        )
        if query.limit is not None:
            sql += " LIMIT %s"
            args.append(query.limit)
        with self._sql(query.thread_id) as conn:
            rows = conn.execute(sql, args).fetchall()
        found = (
            SavedCheckpoint(t, ns, self._load(t, cid, data, p)) for t, ns, cid, p, data in rows
        )
        return [saved for saved in found if query.matches(saved.checkpoint)]

    def chain(self, thread_id: str, ns: str, checkpoint_id: str) -> list[Checkpoint]:
        """The parent links first (small), then the data of the chain's rows only."""
        with self._sql(thread_id) as conn:
            links = conn.execute(
                "SELECT id, parent_id FROM agentc_checkpoints WHERE thread_id=%s AND ns=%s",
                (thread_id, ns),
            ).fetchall()
            parents = {r[0]: r[1] for r in links}
            ids = parent_ids(parents, checkpoint_id, thread=thread_id, where=self.where)
            rows = conn.execute(
                "SELECT id, data FROM agentc_checkpoints WHERE thread_id=%s AND ns=%s "
                "AND id = ANY(%s)",
                (thread_id, ns, ids),
            ).fetchall()
        data = {r[0]: r[1] for r in rows}
        return [self._load(thread_id, i, data[i], parents[i]) for i in reversed(ids)]

    def writes(self, thread_id: str, ns: str, checkpoint_id: str) -> list[PendingWrite]:
        with self._sql(thread_id) as conn:
            rows = conn.execute(
                "SELECT task_id, kind, data FROM agentc_writes WHERE thread_id=%s AND ns=%s "
                "AND checkpoint_id=%s ORDER BY seq",
                (thread_id, ns, checkpoint_id),
            ).fetchall()
        return self._load_writes(thread_id, checkpoint_id, rows)

    def delete_thread(self, thread_id: str) -> None:
        with self._sql(thread_id, writing=True) as conn, conn.transaction():
            conn.execute("DELETE FROM agentc_checkpoints WHERE thread_id=%s", (thread_id,))
            conn.execute("DELETE FROM agentc_writes WHERE thread_id=%s", (thread_id,))

    def copy_thread(self, source_id: str, target_id: str) -> None:
        with self._sql(target_id, writing=True) as conn, conn.transaction():
            conn.execute(  # in `seq` order: the copy lists as the source does
                f"INSERT INTO agentc_checkpoints ({_COLS}) SELECT %s, ns, id, parent_id, data "
                "FROM agentc_checkpoints WHERE thread_id=%s ORDER BY seq",
                (target_id, source_id),
            )
            conn.execute(
                "INSERT INTO agentc_writes (thread_id, ns, checkpoint_id, task_id, kind, data) "
                "SELECT %s, ns, checkpoint_id, task_id, kind, data FROM agentc_writes "
                "WHERE thread_id=%s ORDER BY seq",
                (target_id, source_id),
            )

    def claim(self, thread_id: str) -> ThreadClaim:
        return self._claims.claim(thread_id)

    def close(self) -> None:
        self._claims.close()
        self.db.close()


class AdvisoryClaims:
    """One writer per thread across processes: `LocalClaims` plus a session-level
    `pg_try_advisory_lock` on a dedicated connection (never a pooled one: a pooled session
    is lent to other calls, and its locks would outlive the claim). The key is a 64-bit
    hash of the schema agentc's tables live in and the thread id, so two agentc setups in
    one database do not block each other. A claim never waits (`ThreadBusyError` at once)."""

    __slots__ = ("db", "_local", "_conn", "_scope", "_lock")

    def __init__(self, db: Database) -> None:
        self.db = db
        self._local = LocalClaims()
        self._conn: Connection | None = None  # opened at the first claim
        self._scope = ""
        self._lock = threading.Lock()

    def claim(self, thread: str) -> ThreadClaim:
        local = self._local.claim(thread)
        try:
            with self._lock:
                conn = self._session()
                key = self._key(thread)
                got = self._ask(conn, "SELECT pg_try_advisory_lock(%s)", key)
            if not got:
                raise busy(
                    thread, f"another process or connection holds its lock in {self.db.where}"
                )
        except BaseException:
            local.release()
            raise
        return ThreadClaim(thread, lambda: self._release(thread, conn, key))

    def _release(self, thread: str, conn: Connection, key: int) -> None:
        try:
            with self._lock:
                if conn is self._conn and not conn.closed:
                    self._ask(conn, "SELECT pg_advisory_unlock(%s)", key)
        except AgentcRuntimeError:
            pass  # the session is gone, and the server dropped its locks with it
        finally:
            self._local.drop(thread)

    def _ask(self, conn: Connection, sql: LiteralString, key: int) -> bool:
        try:
            row = conn.execute(sql, (key,)).fetchone()
        except psycopg.Error as e:
            self._conn = None  # a broken session: the next claim opens another
            conn.close()
            raise self.db.unreachable(e) from None
        return bool(row and row[0])

    def _session(self) -> Connection:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self._conn = self.db.connect()
            row = self._conn.execute("SELECT current_schema()").fetchone()
            self._scope = str(row[0]) if row and row[0] else ""
        return self._conn

    def _key(self, thread: str) -> int:
        text = f"agentc\0{self._scope}\0{thread}".encode("utf-8", "surrogatepass")
        return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big", signed=True)

    def close(self) -> None:
        """Close the session, which drops every lock this checkpointer still holds."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
