"""What the server keeps besides checkpoints: threads (metadata, status, last values) and
runs (status, the request that made them), in the same database as the checkpoints.

Input: rows from the routes and the run engine. Output: the same rows back, searched by
metadata, status and time. Invariants: the `Repository` protocol is all the rest of the
server sees; `SqlRepository` holds the SQL both databases run (`SqliteRepository` here,
`PostgresRepository` in `repo_pg.py`); values are stored as JSON text (never pickle).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from .models import MultitaskStrategy, RunStatus, ThreadStatus
from .repo_crons import CronRow, CronTable
from .repo_crons import dump as _dump
from .wire import iso

_SCHEMA = """
CREATE TABLE IF NOT EXISTS serve_threads (
  thread_id TEXT PRIMARY KEY, created_at REAL NOT NULL, updated_at REAL NOT NULL,
  metadata TEXT NOT NULL, status TEXT NOT NULL, graph_id TEXT,
  vals TEXT, interrupts TEXT NOT NULL, head TEXT);
CREATE TABLE IF NOT EXISTS serve_runs (
  run_id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, assistant_id TEXT NOT NULL,
  created_at REAL NOT NULL, updated_at REAL NOT NULL, status TEXT NOT NULL,
  metadata TEXT NOT NULL, kwargs TEXT NOT NULL, multitask_strategy TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS serve_runs_thread ON serve_runs (thread_id, created_at);
CREATE TABLE IF NOT EXISTS serve_crons (
  cron_id TEXT PRIMARY KEY, assistant_id TEXT NOT NULL, thread_id TEXT,
  schedule TEXT NOT NULL, timezone TEXT, end_time REAL, payload TEXT NOT NULL,
  metadata TEXT NOT NULL, on_run_completed TEXT, enabled INTEGER NOT NULL,
  next_run_date REAL NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL);
"""


@dataclass(frozen=True, slots=True)
class ThreadRow:
    thread_id: str
    created_at: float
    updated_at: float
    metadata: dict[str, Any] = field(default_factory=dict)
    status: ThreadStatus = "idle"
    graph_id: str | None = None  # the graph its first run used: whose state it holds
    values: dict[str, Any] | None = None  # the state after its last run, as sent
    interrupts: dict[str, Any] = field(default_factory=dict)  # task id → [interrupt]
    # after a rolled-back run: the checkpoint to read and to continue from, so the thread
    # looks as it did before that run (its checkpoints stay, on a branch nothing reads)
    head: str | None = None

    def json(self) -> dict[str, Any]:
        """The API's `Thread`. `interrupts` is optional in its schema: like LangGraph's
        server, it is sent once a run has left a state, not on a thread no run touched."""
        out = {
            "thread_id": self.thread_id,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
            "state_updated_at": iso(self.updated_at),
            "metadata": self.metadata,
            "status": self.status,
            "config": {},
            "values": self.values,
        }
        return out if self.values is None else {**out, "interrupts": self.interrupts}


@dataclass(frozen=True, slots=True)
class RunRow:
    run_id: str
    thread_id: str
    assistant_id: str
    created_at: float
    updated_at: float
    status: RunStatus
    metadata: dict[str, Any]
    kwargs: dict[str, Any]
    multitask_strategy: MultitaskStrategy

    def json(self) -> dict[str, Any]:
        """The API's `Run`."""
        return {
            "run_id": self.run_id,
            "thread_id": self.thread_id,
            "assistant_id": self.assistant_id,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
            "status": self.status,
            "metadata": self.metadata,
            "kwargs": self.kwargs,
            "multitask_strategy": self.multitask_strategy,
        }


@dataclass(frozen=True, slots=True)
class ThreadQuery:
    ids: tuple[str, ...] | None = None
    metadata: dict[str, Any] | None = None
    status: ThreadStatus | None = None
    limit: int = 10
    offset: int = 0
    sort_by: str = "created_at"
    sort_order: Literal["asc", "desc"] = "desc"


class Repository(Protocol):
    # True: each call waits on the network (PostgreSQL), so coroutines make it from a
    # worker thread (`AsyncRepository`); False: a local file or memory, called inline
    blocking: bool

    def put_thread(self, row: ThreadRow) -> None: ...
    def get_thread(self, thread_id: str) -> ThreadRow | None: ...
    def delete_thread(self, thread_id: str) -> bool: ...
    def search_threads(self, query: ThreadQuery) -> list[ThreadRow]: ...
    def put_run(self, row: RunRow) -> None: ...
    def get_run(self, run_id: str) -> RunRow | None: ...
    def list_runs(self, thread_id: str, limit: int, offset: int) -> list[RunRow]: ...
    def delete_run(self, run_id: str) -> bool: ...
    def runs_in(self, statuses: tuple[RunStatus, ...]) -> list[RunRow]: ...
    def put_cron(self, row: CronRow) -> None: ...
    def get_cron(self, cron_id: str) -> CronRow | None: ...
    def delete_cron(self, cron_id: str) -> bool: ...
    def list_crons(self) -> list[CronRow]:
        """Oldest first."""
        ...

    def due_crons(self, now: float) -> list[CronRow]:
        """Enabled crons whose next run is due by `now` and whose end time has not passed."""
        ...

    def advance_cron(self, cron_id: str, due: float, after: float) -> bool:
        """Move a cron's next run from `due` to `after`; False when another process moved
        it first (that process starts the run that was due)."""
        ...

    def abandon_unfinished(self) -> int:
        """Runs a stopped server left pending or running: marked `error`, their threads
        idle again; how many."""
        ...

    def close(self) -> None: ...


_SORTS = {"thread_id", "status", "created_at", "updated_at", "state_updated_at"}


class SqlRepository(CronTable):
    """The rows as SQL, written once for both databases: a subclass gives the hooks of
    `SqlHooks` (`_run`, `_exec`, `_upsert`)."""

    blocking = False
    executor: Executor | None = None  # a blocking one's own threads (None: asyncio's)

    def put_thread(self, row: ThreadRow) -> None:
        self._exec(
            self._upsert("serve_threads", "thread_id", _THREAD_COLS),
            (
                row.thread_id,
                row.created_at,
                row.updated_at,
                _dump(row.metadata),
                row.status,
                row.graph_id,
                None if row.values is None else _dump(row.values),
                _dump(row.interrupts),
                row.head,
            ),
        )

    def get_thread(self, thread_id: str) -> ThreadRow | None:
        rows = self._run(f"SELECT {_T} FROM serve_threads WHERE thread_id = ?", (thread_id,))
        return _thread(rows[0]) if rows else None

    def delete_thread(self, thread_id: str) -> bool:
        found = self._exec("DELETE FROM serve_threads WHERE thread_id = ?", (thread_id,)) > 0
        self._exec("DELETE FROM serve_runs WHERE thread_id = ?", (thread_id,))
        self._exec("DELETE FROM serve_crons WHERE thread_id = ?", (thread_id,))
        return found

    def search_threads(self, query: ThreadQuery) -> list[ThreadRow]:
        sort = query.sort_by if query.sort_by in _SORTS else "created_at"
        sort = "updated_at" if sort == "state_updated_at" else sort
        order = "ASC" if query.sort_order == "asc" else "DESC"
        rows = self._run(f"SELECT {_T} FROM serve_threads ORDER BY {sort} {order}, thread_id")
        found = [r for r in map(_thread, rows) if _matches(r, query)]
        return found[query.offset : query.offset + query.limit]

    def put_run(self, row: RunRow) -> None:
        self._exec(self._upsert("serve_runs", "run_id", RUN_COLS), run_values(row))

    def get_run(self, run_id: str) -> RunRow | None:
        rows = self._run(f"SELECT {_R} FROM serve_runs WHERE run_id = ?", (run_id,))
        return _run_row(rows[0]) if rows else None

    def list_runs(self, thread_id: str, limit: int, offset: int) -> list[RunRow]:
        rows = self._run(
            f"SELECT {_R} FROM serve_runs WHERE thread_id = ? ORDER BY created_at DESC, run_id "
            "LIMIT ? OFFSET ?",
            (thread_id, limit, offset),
        )
        return [_run_row(r) for r in rows]

    def delete_run(self, run_id: str) -> bool:
        return self._exec("DELETE FROM serve_runs WHERE run_id = ?", (run_id,)) > 0

    def runs_in(self, statuses: tuple[RunStatus, ...]) -> list[RunRow]:
        marks = ",".join("?" * len(statuses))
        rows = self._run(f"SELECT {_R} FROM serve_runs WHERE status IN ({marks})", statuses)
        return [_run_row(r) for r in rows]

    def abandon_unfinished(self) -> int:
        done = self._exec(
            "UPDATE serve_runs SET status = 'error' WHERE status IN ('pending', 'running')"
        )
        self._exec("UPDATE serve_threads SET status = 'idle' WHERE status = 'busy'")
        return done


_THREAD_COLS = ("thread_id", "created_at", "updated_at", "metadata", "status", "graph_id",
                "vals", "interrupts", "head")  # fmt: skip
RUN_COLS = ("run_id", "thread_id", "assistant_id", "created_at", "updated_at", "status",
             "metadata", "kwargs", "multitask_strategy")  # fmt: skip
_T, _R = ", ".join(_THREAD_COLS), ", ".join(RUN_COLS)


class SqliteRepository(SqlRepository):
    """`Repository` on a SQLite file (stdlib `sqlite3`, WAL)."""

    def __init__(self, path: str) -> None:
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a crash never corrupts the file; a power cut may lose the last
        # status rows, which the next start repairs (`abandon_unfinished`)
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA busy_timeout=5000")
        self._conn.executescript(_SCHEMA)
        self._lock = threading.Lock()

    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._conn.execute(sql, args).fetchall()

    def _exec(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        with self._lock:
            return int(self._conn.execute(sql, args).rowcount)

    def _upsert(self, table: str, key: str, columns: tuple[str, ...]) -> str:
        marks = ",".join("?" * len(columns))
        return f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) VALUES ({marks})"

    def close(self) -> None:
        with self._lock:
            self._conn.close()


T = TypeVar("T")


class AsyncRepository:
    """A `Repository` for coroutines (the routes, the run executor): a blocking one's calls
    run in a worker thread, so a database round trip never stalls the event loop and the
    other requests it serves; a non-blocking one's run inline (a thread hop costs more
    than a local SQLite statement)."""

    def __init__(self, repo: Repository) -> None:
        self.sync = repo
        self.blocking = bool(getattr(repo, "blocking", False))
        self.executor: Executor | None = getattr(repo, "executor", None)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        if not self.blocking:
            return fn(*args)
        call = functools.partial(contextvars.copy_context().run, fn, *args)
        return await asyncio.get_running_loop().run_in_executor(self.executor, call)

    async def put_thread(self, row: ThreadRow) -> None:
        await self.call(self.sync.put_thread, row)

    async def get_thread(self, thread_id: str) -> ThreadRow | None:
        return await self.call(self.sync.get_thread, thread_id)

    async def delete_thread(self, thread_id: str) -> bool:
        return await self.call(self.sync.delete_thread, thread_id)

    async def search_threads(self, query: ThreadQuery) -> list[ThreadRow]:
        return await self.call(self.sync.search_threads, query)

    async def put_run(self, row: RunRow) -> None:
        await self.call(self.sync.put_run, row)

    async def get_run(self, run_id: str) -> RunRow | None:
        return await self.call(self.sync.get_run, run_id)

    async def list_runs(self, thread_id: str, limit: int, offset: int) -> list[RunRow]:
        return await self.call(self.sync.list_runs, thread_id, limit, offset)

    async def delete_run(self, run_id: str) -> bool:
        return await self.call(self.sync.delete_run, run_id)

    async def runs_in(self, statuses: tuple[RunStatus, ...]) -> list[RunRow]:
        return await self.call(self.sync.runs_in, statuses)

    async def put_cron(self, row: CronRow) -> None:
        await self.call(self.sync.put_cron, row)

    async def get_cron(self, cron_id: str) -> CronRow | None:
        return await self.call(self.sync.get_cron, cron_id)

    async def delete_cron(self, cron_id: str) -> bool:
        return await self.call(self.sync.delete_cron, cron_id)

    async def list_crons(self) -> list[CronRow]:
        return await self.call(self.sync.list_crons)

    async def due_crons(self, now: float) -> list[CronRow]:
        return await self.call(self.sync.due_crons, now)

    async def advance_cron(self, cron_id: str, due: float, after: float) -> bool:
        return await self.call(self.sync.advance_cron, cron_id, due, after)


def run_values(row: RunRow) -> tuple[Any, ...]:
    """A run row's values in the order of `RUN_COLS`."""
    return (row.run_id, row.thread_id, row.assistant_id, row.created_at, row.updated_at,
            row.status, _dump(row.metadata), _dump(row.kwargs), row.multitask_strategy)  # fmt: skip


def _thread(r: tuple[Any, ...]) -> ThreadRow:
    return ThreadRow(
        r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], None if r[6] is None else json.loads(r[6]),
        json.loads(r[7]), r[8],
    )  # fmt: skip


def _run_row(r: tuple[Any, ...]) -> RunRow:
    return RunRow(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), json.loads(r[7]), r[8])


def _matches(row: ThreadRow, query: ThreadQuery) -> bool:
    """LangGraph's thread filters: ids, status, and metadata keys equal (nested maps
    compared key by key, as JSONB containment)."""
    if query.ids is not None and row.thread_id not in query.ids:
        return False
    if query.status is not None and row.status != query.status:
        return False
    return contains(row.metadata, query.metadata or {})


def contains(have: Any, want: Any) -> bool:
    if isinstance(want, dict):
        if not isinstance(have, dict):
            return not want  # an empty filter matches anything, even no values yet
        return all(k in have and contains(have[k], v) for k, v in want.items())
    return bool(have == want)
