"""Crons: runs started on a schedule, as LangGraph's server keeps them.

Input: a cron's body (`CronCreate`, `CronPatch`) from the routes; the clock. Output:
`CronRow`s made and changed (`make_cron`, `changed_cron`), and `CronScheduler`, which each
API process runs: once a second it starts the run of every cron that is due, on the
cron's thread or on a new one. Invariants: a cron expression and a time zone are checked
when the cron is written (422 naming the field), never when it fires; nothing
secret-looking is stored (a body with an `api_key`, a `token` … is refused: a cron keeps
its body for every run to come); one due time starts
one run however many API processes share the database, because a process starts the run
only after moving the cron's next run date on, from the value it read (compare and set);
a server that was down starts a missed cron once when it comes back, not once per missed
time; a run a cron cannot start (its thread deleted, its thread busy under `reject`) is
logged and the cron goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import ApiError, log
from .models import CronCreate, CronPatch, CronRun, RunCreate
from .repo import CronRow
from .routes_runs import create_run
from .routing import Context
from .security import secret_path

TICK_S = 1.0  # how often a process looks for crons that are due


def zone(name: str | None) -> ZoneInfo | None:
    """The time zone a schedule is read in (None: UTC); 422 for a name IANA lacks."""
    if name is None:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ApiError(
            422, f"timezone {name!r} is not a time zone",
            expected="an IANA time zone name, e.g. 'Europe/Paris'",
        ) from None  # fmt: skip


def check_schedule(schedule: str) -> str:
    from croniter import croniter

    if not croniter.is_valid(schedule):
        raise ApiError(
            422,
            f"schedule {schedule!r} is not a cron expression",
            expected="five fields (minute hour day-of-month month day-of-week), e.g. "
            "'*/5 * * * *' for every five minutes, or six with seconds last",
        )
    return schedule


def next_run(schedule: str, timezone: str | None, after: float) -> float:
    """The first time after `after` (epoch seconds) that `schedule` names."""
    from croniter import croniter

    base = datetime.fromtimestamp(after, zone(timezone) or UTC)
    return float(croniter(schedule, base).get_next(float))


def _stamp(value: datetime | None) -> float | None:
    if value is None:
        return None
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()


def _run_payload(
    body: CronRun, cron_id: str, before: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The body the cron keeps, as LangGraph's server does: every field given (over those
    it had), the cron's id in `config.configurable.cron_id`. Its run reads the fields of a
    run's body from it (`RunCreate` ignores the schedule's)."""
    given = body.model_dump(mode="json", exclude_unset=True)
    payload = {**(before or {}), **{k: v for k, v in given.items() if v is not None}}
    config = dict(payload.get("config") or {})
    config["configurable"] = {**(config.get("configurable") or {}), "cron_id": cron_id}
    wrapped = {k: payload[k] for k in ("config", "context") if k in payload}
    if (secret := secret_path(wrapped)) is not None:
        raise ApiError(  # a cron keeps its run's body for every run to come
            422, f"`{secret}` looks like a secret, and a cron stores its runs' body",
            expected="the key in the server's environment (e.g. the model's api_key_env)",
        )  # fmt: skip
    return {**payload, "config": config}


def make_cron(body: CronCreate, assistant_id: str, thread_id: str | None) -> CronRow:
    check_schedule(body.schedule)
    zone(body.timezone)
    now = time.time()
    cron_id = str(uuid.uuid4())
    payload = {**_run_payload(body, cron_id), "assistant_id": assistant_id}  # its id, not a name
    return CronRow(
        cron_id=cron_id,
        assistant_id=assistant_id,
        thread_id=thread_id,
        schedule=body.schedule,
        timezone=body.timezone,
        end_time=_stamp(body.end_time),
        payload=payload,
        metadata=dict(body.metadata or {}),
        # a cron on a thread runs there; one without makes a thread per run, forgotten
        # when the run ends unless told to keep it (LangGraph's defaults)
        on_run_completed=None if thread_id else (body.on_run_completed or "delete"),
        enabled=body.enabled,
        next_run_date=next_run(body.schedule, body.timezone, now),
        created_at=now,
        updated_at=now,
    )


def changed_cron(row: CronRow, body: CronPatch) -> CronRow:
    given = body.model_fields_set
    if not given:
        raise ApiError(422, "the change names no field", expected="at least one field to change")
    schedule = check_schedule(body.schedule) if body.schedule is not None else row.schedule
    timezone = body.timezone if body.timezone is not None else row.timezone
    zone(timezone)
    now = time.time()
    # a cron switched back on starts from now, not from the due time it had when switched
    # off (which would start a run at once for a day it slept through)
    woken = body.enabled is True and not row.enabled
    retimed = schedule != row.schedule or timezone != row.timezone or woken
    return replace(
        row,
        schedule=schedule,
        timezone=timezone,
        end_time=_stamp(body.end_time) if "end_time" in given else row.end_time,
        enabled=row.enabled if body.enabled is None else body.enabled,
        on_run_completed=(
            body.on_run_completed or row.on_run_completed if row.thread_id is None else None
        ),
        payload=_run_payload(body, row.cron_id, row.payload),
        metadata={**row.metadata, **(body.metadata or {})},
        next_run_date=next_run(schedule, timezone, now) if retimed else row.next_run_date,
        updated_at=now,
    )


class CronScheduler:
    """Starts the runs of due crons, once a second, in this process."""

    def __init__(self, ctx: Context, tick_s: float = TICK_S) -> None:
        self.ctx, self.tick_s = ctx, tick_s
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        while True:
            try:
                await self.tick(time.time())
            except Exception:  # a database hiccup: look again at the next tick
                log.exception("could not look for crons that are due")
            await asyncio.sleep(self.tick_s)

    async def tick(self, now: float) -> int:
        """Start every due cron's run (the ones this process claimed); how many."""
        started = 0
        for cron in await self.ctx.rows.due_crons(now):
            after = next_run(cron.schedule, cron.timezone, now)
            if not await self.ctx.rows.advance_cron(cron.cron_id, cron.next_run_date, after):
                continue  # another process claimed this due time
            started += await self._start(cron)
        return started

    async def _start(self, cron: CronRow) -> int:
        payload = dict(cron.payload)
        payload["metadata"] = {**cron.metadata, **(payload.get("metadata") or {})}
        if cron.on_run_completed == "keep":
            payload["on_completion"] = "keep"
        try:
            await create_run(self.ctx, cron.thread_id, RunCreate.model_validate(payload))
        except ApiError as refused:
            log.warning("cron %s could not start its run: %s", cron.cron_id, refused.detail)
            return 0
        return 1


__all__ = ["CronScheduler", "TICK_S", "changed_cron", "check_schedule", "make_cron", "next_run"]
