"""The SQLite checkpointer: the embedded default (a file under `.agentc/`, chosen by
the CLI), stdlib `sqlite3` in WAL mode.

Input: `Checkpoint` records and pending writes. Output: the same, read back. Invariants:
rows are JSON of registered types only (`serde`, never pickle; D6); a checkpoint row holds
that step's deltas, so the file grows linearly with the conversation (each message once);
one connection guarded by a lock, so the executor may call it from a worker thread; a
thread's writer holds an OS lock on a byte of `<file>.lock`, which other processes see and
the kernel drops when the holder dies (`threadlock`); the write-ahead log is checkpointed
while the writer pauses (`sqlitedb.WalKeeper`), so it stays small during a run. A row
or file that is not what `put` wrote (bad JSON, a missing key, a value nested too deep, a
parent chain that loops or breaks, a corrupt file) is `DamagedCheckpointError`, naming the
thread, the file and the checkpoint; a failed save (disk full) is `CheckpointWriteError`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from agentc.runtime.errors import CheckpointWriteError
from agentc.runtime.serde import TypeAllowlist
from agentc.runtime.sqlitedb import WalKeeper, connect, is_damaged
from agentc.runtime.threadlock import FileClaims, LocalClaims, ThreadClaim

from .base import (
    Checkpoint,
    CheckpointQuery,
    PendingWrite,
    SavedCheckpoint,
    parent_ids,
)
from .rows import RowReader, dump_checkpoint, write_rows

# `seq` is the rowid: one more than the largest row's (a deleted thread's rows may have
# been the largest: the next row takes a number they had, still above every row kept), so
# it orders rows as they were saved; files made with AUTOINCREMENT read the same, but paid
# a page of `sqlite_sequence` in every commit
_SCHEMA = """
CREATE TABLE IF NOT EXISTS checkpoints (
  seq INTEGER PRIMARY KEY,
  thread_id TEXT NOT NULL, ns TEXT NOT NULL, id TEXT NOT NULL, parent_id TEXT,
  data TEXT NOT NULL,
  UNIQUE (thread_id, ns, id));
CREATE INDEX IF NOT EXISTS checkpoints_thread ON checkpoints (thread_id, ns, seq);
CREATE TABLE IF NOT EXISTS writes (
  seq INTEGER PRIMARY KEY,
  thread_id TEXT NOT NULL, ns TEXT NOT NULL, checkpoint_id TEXT NOT NULL,
  task_id TEXT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS writes_ckpt ON writes (thread_id, ns, checkpoint_id);
"""
# A thread's rows copied under another thread id (`copy_thread`), oldest first.
_COPY = (
    "INSERT INTO checkpoints (thread_id, ns, id, parent_id, data) "
    "SELECT ?, ns, id, parent_id, data FROM checkpoints WHERE thread_id=? ORDER BY seq",
    "INSERT INTO writes (thread_id, ns, checkpoint_id, task_id, kind, data) "
    "SELECT ?, ns, checkpoint_id, task_id, kind, data FROM writes WHERE thread_id=? ORDER BY seq",
)


class SqliteCheckpointer(RowReader):
    blocking = True

    def __init__(self, path: str, *, types: TypeAllowlist | None = None) -> None:
        self.path = self.where = path  # `where`: the file, as errors name it
        self.types = types  # D6: what a load may rebuild (None: every registered type)
        with self._db(None, writing=True):
            self._conn = connect(path)
        self._lock = threading.Lock()
        # one writer per thread, across processes; an in-memory database has no others
        self._claims = LocalClaims() if path == ":memory:" else FileClaims(f"{path}.lock")
        self._wal = None if path == ":memory:" else WalKeeper(path)
        with self._lock, self._db(None, writing=True):
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.executescript(_SCHEMA)

    @contextmanager
    def _db(self, thread: str | None, *, writing: bool = False) -> Iterator[None]:
        """SQLite's own failures as agentc's: a corrupt file is `DamagedCheckpointError`,
        a save that fails (disk full, a read-only file) is `CheckpointWriteError`."""
        try:
            yield
        except sqlite3.Error as e:
            if is_damaged(e):
                raise self._damaged(thread, f"the database file is unreadable ({e})") from None
            if writing:
                subject = f"thread `{thread}`" if thread is not None else "the checkpoint file"
                raise CheckpointWriteError(
                    f"could not save {subject} in {self.path}: {e}",
                    help="free disk space or fix the file's permissions; the thread resumes "
                    "from its last saved checkpoint",
                ) from None
            raise

    def put(self, thread_id: str, ns: str, checkpoint: Checkpoint) -> None:
        data = dump_checkpoint(checkpoint)
        with self._lock, self._db(thread_id, writing=True):
            self._conn.execute(
                "INSERT INTO checkpoints (thread_id, ns, id, parent_id, data) VALUES (?,?,?,?,?)",
                (thread_id, ns, checkpoint.id, checkpoint.parent_id, data),
            )
            self._committed()

    def put_writes(
        self, thread_id: str, ns: str, checkpoint_id: str, writes: list[PendingWrite]
    ) -> None:
        rows = write_rows(thread_id, ns, checkpoint_id, writes)
        with self._transaction(thread_id):
            self._conn.executemany(
                "INSERT INTO writes (thread_id, ns, checkpoint_id, task_id, kind, data) "
                "VALUES (?,?,?,?,?,?)",
                rows,
            )

    @contextmanager
    def _transaction(self, thread: str) -> Iterator[None]:
        """The statements of the block, all saved or none (under the lock)."""
        with self._lock, self._db(thread, writing=True):
            self._conn.execute("BEGIN")
            try:
                yield
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            self._committed()

    def _committed(self) -> None:
        if self._wal is not None:
            self._wal.committed()

    def get(self, thread_id: str, ns: str, checkpoint_id: str | None = None) -> Checkpoint | None:
        with self._lock, self._db(thread_id):
            if checkpoint_id is None:
                row = self._conn.execute(
                    "SELECT id, data FROM checkpoints WHERE thread_id=? AND ns=? "
                    "ORDER BY seq DESC LIMIT 1",
                    (thread_id, ns),
                ).fetchone()
            else:
                row = self._conn.execute(
                    "SELECT id, data FROM checkpoints WHERE thread_id=? AND ns=? AND id=?",
                    (thread_id, ns, checkpoint_id),
                ).fetchone()
        return self._load(thread_id, row[0], row[1]) if row else None

    def list(self, thread_id: str, ns: str) -> list[Checkpoint]:
        with self._lock, self._db(thread_id):
            rows = self._conn.execute(
                "SELECT id, parent_id, data FROM checkpoints WHERE thread_id=? AND ns=? "
                "ORDER BY seq",
                (thread_id, ns),
            ).fetchall()
        return [self._load(thread_id, r[0], r[2], r[1]) for r in rows]

    def search(self, query: CheckpointQuery) -> list[SavedCheckpoint]:
        where, args = ["1=1"], []
        for column, value in (("thread_id", query.thread_id), ("ns", query.ns)):
            if value is not None:
                where.append(f"{column}=?")
                args.append(value)
        if query.before is not None:  # in its thread: rows saved before that one
            where.append(
                "seq < (SELECT seq FROM checkpoints b WHERE b.id=? AND b.thread_id=checkpoints"
                ".thread_id AND b.ns=checkpoints.ns)"
            )
            args.append(query.before)
        sql = (
            "SELECT thread_id, ns, id, parent_id, data FROM checkpoints WHERE "
            f"{' AND '.join(where)} ORDER BY seq DESC"
        )
        found: list[SavedCheckpoint] = []
        with self._lock, self._db(query.thread_id):
            for thread, ns, cid, parent, data in self._conn.execute(sql, args):
                ckpt = self._load(thread, cid, data, parent)
                if query.matches(ckpt):
                    found.append(SavedCheckpoint(thread, ns, ckpt))
                    if query.limit is not None and len(found) >= query.limit:
                        break
        return found

    def chain(self, thread_id: str, ns: str, checkpoint_id: str) -> list[Checkpoint]:
        with self._lock, self._db(thread_id):
            rows = self._conn.execute(
                "SELECT id, parent_id, data FROM checkpoints WHERE thread_id=? AND ns=?",
                (thread_id, ns),
            ).fetchall()
        parents = {r[0]: r[1] for r in rows}
        data = {r[0]: r[2] for r in rows}
        ids = parent_ids(parents, checkpoint_id, thread=thread_id, where=self.path)
        return [self._load(thread_id, i, data[i], parents[i]) for i in reversed(ids)]

    def writes(self, thread_id: str, ns: str, checkpoint_id: str) -> list[PendingWrite]:
        with self._lock, self._db(thread_id):
            rows = self._conn.execute(
                "SELECT task_id, kind, data FROM writes WHERE thread_id=? AND ns=? "
                "AND checkpoint_id=? ORDER BY seq",
                (thread_id, ns, checkpoint_id),
            ).fetchall()
        return self._load_writes(thread_id, checkpoint_id, rows)

    def delete_thread(self, thread_id: str) -> None:
        with self._transaction(thread_id):
            self._conn.execute("DELETE FROM checkpoints WHERE thread_id=?", (thread_id,))
            self._conn.execute("DELETE FROM writes WHERE thread_id=?", (thread_id,))

    def copy_thread(self, source_id: str, target_id: str) -> None:
        with self._transaction(target_id):  # in `seq` order: the copy lists as the source does
            for sql in _COPY:
                self._conn.execute(sql, (target_id, source_id))

    def claim(self, thread_id: str) -> ThreadClaim:
        return self._claims.claim(thread_id)

    def close(self) -> None:
        if self._wal is not None:
            self._wal.close()  # first: the last connection's close empties the WAL
        with self._lock:
            self._conn.close()
        if isinstance(self._claims, FileClaims):
            self._claims.close()
