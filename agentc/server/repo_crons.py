"""The server's crons as rows: `CronRow` and the SQL both databases run for it.

Input: cron rows from the routes and the scheduler (`crons.py`). Output: the rows back;
`advance_cron`, the compare-and-set that lets one process, and only one, start the run a
cron has due. Invariants: `CronTable` is a part of `repo.SqlRepository` (whose `_run`,
`_exec` and `_upsert` it uses); values are JSON text (never pickle).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from .wire import iso


@dataclass(frozen=True, slots=True)
class CronRow:
    """A schedule of runs: `payload` is the run's body (as `POST …/runs` takes it), made
    on `thread_id`, or on a new thread each time when None; `next_run_date` is when it is
    next due (epoch seconds), moved on by whichever process starts that run."""

    cron_id: str
    assistant_id: str
    thread_id: str | None
    schedule: str
    timezone: str | None
    end_time: float | None
    payload: dict[str, Any]
    metadata: dict[str, Any]
    on_run_completed: Literal["delete", "keep"] | None
    enabled: bool
    next_run_date: float
    created_at: float
    updated_at: float

    def json(self) -> dict[str, Any]:
        """The API's `Cron`."""
        return {
            "cron_id": self.cron_id,
            "assistant_id": self.assistant_id,
            "thread_id": self.thread_id,
            "on_run_completed": self.on_run_completed,
            "end_time": None if self.end_time is None else iso(self.end_time),
            "schedule": self.schedule,
            "timezone": self.timezone,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
            "payload": self.payload,
            "user_id": "",  # as LangGraph's server without auth
            "next_run_date": iso(self.next_run_date),
            "metadata": self.metadata,
            "enabled": self.enabled,
        }


class SqlHooks:
    """What a database gives the SQL written once for both (`repo.SqlRepository`): `_run`
    (SQL with `?` parameters, one statement, its rows), `_exec` (a statement's row count)
    and `_upsert` (its dialect's insert-or-replace)."""

    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _exec(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        raise NotImplementedError

    def _upsert(self, table: str, key: str, columns: tuple[str, ...]) -> str:
        raise NotImplementedError


class CronTable(SqlHooks):
    """The cron half of `SqlRepository`."""

    def put_cron(self, row: CronRow) -> None:
        self._exec(self._upsert("serve_crons", "cron_id", CRON_COLS), cron_values(row))

    def get_cron(self, cron_id: str) -> CronRow | None:
        rows = self._run(f"SELECT {_C} FROM serve_crons WHERE cron_id = ?", (cron_id,))
        return _cron(rows[0]) if rows else None

    def delete_cron(self, cron_id: str) -> bool:
        return self._exec("DELETE FROM serve_crons WHERE cron_id = ?", (cron_id,)) > 0

    def list_crons(self) -> list[CronRow]:
        rows = self._run(f"SELECT {_C} FROM serve_crons ORDER BY created_at, cron_id")
        return [_cron(r) for r in rows]

    def due_crons(self, now: float) -> list[CronRow]:
        rows = self._run(
            f"SELECT {_C} FROM serve_crons WHERE enabled = 1 AND next_run_date <= ? "
            "AND (end_time IS NULL OR end_time > ?) ORDER BY next_run_date, cron_id",
            (now, now),
        )
        return [_cron(r) for r in rows]

    def advance_cron(self, cron_id: str, due: float, after: float) -> bool:
        return self._exec(
            "UPDATE serve_crons SET next_run_date = ? WHERE cron_id = ? AND next_run_date = ?",
            (after, cron_id, due),
        ) > 0  # fmt: skip


CRON_COLS = ("cron_id", "assistant_id", "thread_id", "schedule", "timezone", "end_time",
             "payload", "metadata", "on_run_completed", "enabled", "next_run_date",
             "created_at", "updated_at")  # fmt: skip
_C = ", ".join(CRON_COLS)


def dump(value: Any) -> str:
    """A value as the JSON text the server's rows hold."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def cron_values(row: CronRow) -> tuple[Any, ...]:
    """A cron row's values in the order of `CRON_COLS`."""
    return (row.cron_id, row.assistant_id, row.thread_id, row.schedule, row.timezone,
            row.end_time, dump(row.payload), dump(row.metadata), row.on_run_completed,
            int(row.enabled), row.next_run_date, row.created_at, row.updated_at)  # fmt: skip


def _cron(r: tuple[Any, ...]) -> CronRow:
    return CronRow(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), json.loads(r[7]),
                   r[8], bool(r[9]), r[10], r[11], r[12])  # fmt: skip
