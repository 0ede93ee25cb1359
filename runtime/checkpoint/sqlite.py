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

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from agentc.runtime.algo import Task
from agentc.runtime.barriers import Waits
from agentc.runtime.channels import MISSING, DeltaKind
from agentc.runtime.errors import AgentcRuntimeError, CheckpointWriteError, DamagedCheckpointError
from agentc.runtime.serde import TypeAllowlist, decode, encode
from agentc.runtime.sqlitedb import WalKeeper, connect, is_damaged
from agentc.runtime.threadlock import FileClaims, LocalClaims, ThreadClaim

from .base import (
    Checkpoint,
    CheckpointQuery,
    CheckpointSource,
    PendingWrite,
    SavedCheckpoint,
    WriteKind,
    parent_ids,
)

# `seq` is the rowid: one more than the largest (rows are never deleted), so it orders
# rows as they were saved; files made with AUTOINCREMENT read the same, but paid a page of
# `sqlite_sequence` in every commit
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

_DK = {DeltaKind.SET: "s", DeltaKind.CLEAR: "c", DeltaKind.OPS: "o"}
_DK_BACK = {v: k for k, v in _DK.items()}


_ANY = object()  # `_load` without a parent to check


class SqliteCheckpointer:
    blocking = True

    def __init__(self, path: str, *, types: TypeAllowlist | None = None) -> None:
        self.path = path
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

    def _damaged(
        self, thread: str | None, what: str, checkpoint: str | None = None
    ) -> DamagedCheckpointError:
        return DamagedCheckpointError(what, thread=thread, where=self.path, checkpoint=checkpoint)

    def _load(
        self, thread: str, cid: str, data: Any, parent: str | None | object = _ANY
    ) -> Checkpoint:
        """One row back as a `Checkpoint`; anything but what `put` wrote is damage."""
        try:
            ckpt = _decode_checkpoint(json.loads(data), self.types)
        except AgentcRuntimeError:
            raise
        except _DAMAGE as e:
            raise self._damaged(thread, _what(e), cid) from None
        if ckpt.id != cid:
            raise self._damaged(thread, f"its data names another checkpoint, {ckpt.id!r}", cid)
        if parent is not _ANY and ckpt.parent_id != parent:
            raise self._damaged(
                thread,
                f"its row names parent {parent!r} but its data names {ckpt.parent_id!r}",
                cid,
            )
        return ckpt

    def put(self, thread_id: str, ns: str, checkpoint: Checkpoint) -> None:
        data = json.dumps(_encode_checkpoint(checkpoint), separators=(",", ":"), ensure_ascii=False)
        with self._lock, self._db(thread_id, writing=True):
            self._conn.execute(
                "INSERT INTO checkpoints (thread_id, ns, id, parent_id, data) VALUES (?,?,?,?,?)",
                (thread_id, ns, checkpoint.id, checkpoint.parent_id, data),
            )
            self._committed()

    def put_writes(
        self, thread_id: str, ns: str, checkpoint_id: str, writes: list[PendingWrite]
    ) -> None:
        rows = [
            (
                thread_id,
                ns,
                checkpoint_id,
                tid,
                kind.value,
                json.dumps(encode(_write_payload(kind, payload)), separators=(",", ":")),
            )
            for tid, kind, payload in writes
        ]
        with self._lock, self._db(thread_id, writing=True):
            self._conn.execute("BEGIN")
            try:
                self._conn.executemany(
                    "INSERT INTO writes (thread_id, ns, checkpoint_id, task_id, kind, data) "
                    "VALUES (?,?,?,?,?,?)",
                    rows,
                )
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
        try:
            return [
                (
                    tid,
                    WriteKind(kind),
                    _read_payload(WriteKind(kind), decode(json.loads(data), self.types)),
                )
                for tid, kind, data in rows
            ]
        except AgentcRuntimeError:
            raise
        except _DAMAGE as e:
            what = f"a pending write saved against it is unreadable: {_what(e)}"
            raise self._damaged(thread_id, what, checkpoint_id) from None

    def claim(self, thread_id: str) -> ThreadClaim:
        return self._claims.claim(thread_id)

    def close(self) -> None:
        if self._wal is not None:
            self._wal.close()  # first: the last connection's close empties the WAL
        with self._lock:
            self._conn.close()
        if isinstance(self._claims, FileClaims):
            self._claims.close()


# what reading a row that is not what `put` wrote can raise (json, the decoders, pydantic)
_DAMAGE = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError)


def _what(e: BaseException) -> str:
    """What was wrong with a row, in words."""
    if isinstance(e, RecursionError):
        return "a value is nested too deeply to read"
    if isinstance(e, json.JSONDecodeError):
        return f"its data is not valid JSON ({e.msg} at character {e.pos})"
    if isinstance(e, KeyError):
        return f"its data lacks the key {e.args[0]!r}" if e.args else "its data lacks a key"
    text = " ".join(str(e).split())
    text = text if len(text) <= 200 else text[:200] + "…"
    return f"its data is not what agentc saves ({type(e).__name__}: {text})"


def _encode_checkpoint(c: Checkpoint) -> dict[str, Any]:
    return {
        "id": c.id,
        "parent": c.parent_id,
        "step": c.step,
        "source": c.source.value,
        "deltas": {k: [_DK[kind], encode(payload)] for k, (kind, payload) in c.deltas.items()},
        "versions": c.versions,
        "seen": c.seen,
        "ran": list(c.ran),
        "at": c.created_at,
        "next": [_encode_task(t) for t in c.next],
        **({"waits": c.waits.to_json()} if c.waits.seen or c.waits.waiting else {}),
    }


def _encode_task(t: Task) -> list[Any]:
    base = [t.id, t.node, t.path[0], t.path[1]]
    return base if t.arg is MISSING else [*base, encode(t.arg)]


def _decode_checkpoint(d: dict[str, Any], types: TypeAllowlist | None = None) -> Checkpoint:
    return Checkpoint(
        id=d["id"],
        parent_id=d["parent"],
        step=d["step"],
        source=CheckpointSource(d["source"]),
        deltas={k: (_DK_BACK[kind], decode(p, types)) for k, (kind, p) in d["deltas"].items()},
        versions=d["versions"],
        seen=d["seen"],
        ran=tuple(d["ran"]),
        created_at=d["at"],
        next=tuple(
            Task(t[0], t[1], (t[2], t[3]), decode(t[4], types) if len(t) > 4 else MISSING)
            for t in d["next"]
        ),
        waits=Waits.from_json(d.get("waits")),
    )


def _write_payload(kind: WriteKind, payload: Any) -> Any:
    if kind is WriteKind.RESULT or kind is WriteKind.UPDATE:
        return {"writes": [[k, v] for k, v in payload.writes], "goto": payload.goto}
    if kind is WriteKind.RESUME:
        return list(payload.items())
    return payload


def _read_payload(kind: WriteKind, data: Any) -> Any:
    from agentc.runtime.algo import TaskResult

    if kind is WriteKind.RESULT or kind is WriteKind.UPDATE:
        return TaskResult([(k, v) for k, v in data["writes"]], list(data["goto"]))
    if kind is WriteKind.RESUME:
        return {k: v for k, v in data}
    return data
