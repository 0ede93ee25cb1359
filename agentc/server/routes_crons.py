"""Cron endpoints: schedule runs on a thread or on a new thread each time; read, change,
search, count and delete the schedules.

Input: requests. Output: the API's `Cron` JSON. Invariants: a cron names an assistant the
server serves and, on a thread, a thread that exists (404 otherwise); its schedule and
time zone are checked when written (`crons.py`); deleting a thread deletes its crons.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from .crons import changed_cron, make_cron
from .errors import not_found
from .models import CronCount, CronCreate, CronPatch, CronSearch
from .repo import CronRow, contains
from .routes_threads import find_thread
from .routing import Context, Op, check_uuid, no_content, ok, path_uuid, read_body


def _matches(row: CronRow, assistant_id: str | None, thread_id: str | None,
             metadata: dict[str, Any] | None) -> bool:  # fmt: skip
    return (
        assistant_id in (None, row.assistant_id)
        and thread_id in (None, row.thread_id)
        and contains(row.metadata, metadata or {})
    )


def _sort_key(field: str) -> Any:
    def key(row: CronRow) -> tuple[bool, Any]:
        value = getattr(row, field)
        return (value is None, value if value is not None else 0)

    return key


def routes(ctx: Context) -> list[Op]:
    async def find_cron(request: Request) -> CronRow:
        cid = path_uuid(request, "cron_id")
        row = await ctx.rows.get_cron(cid)
        if row is None:
            raise not_found("cron", cid)
        return row

    async def create(request: Request) -> Response:
        tid = path_uuid(request, "thread_id") if "thread_id" in request.path_params else None
        body = await read_body(request, CronCreate)
        assistant = ctx.registry.find(body.assistant_id)
        if tid is not None:
            await find_thread(ctx, tid)
        row = make_cron(body, assistant.assistant_id, tid)
        await ctx.rows.put_cron(row)
        return ok(row.json())

    async def get(request: Request) -> Response:
        return ok((await find_cron(request)).json())

    async def patch(request: Request) -> Response:
        row = await find_cron(request)
        row = changed_cron(row, await read_body(request, CronPatch))
        await ctx.rows.put_cron(row)
        return ok(row.json())

    async def delete(request: Request) -> Response:
        if not await ctx.rows.delete_cron((await find_cron(request)).cron_id):
            raise not_found("cron", request.path_params["cron_id"])
        return no_content()

    async def search(request: Request) -> Response:
        q = await read_body(request, CronSearch, optional=True)
        aid = ctx.registry.find(q.assistant_id).assistant_id if q.assistant_id else None
        tid = check_uuid(q.thread_id, "thread_id") if q.thread_id else None
        rows = [
            r for r in await ctx.rows.list_crons()
            if _matches(r, aid, tid, q.metadata) and q.enabled in (None, r.enabled)
        ]  # fmt: skip
        rows.sort(key=_sort_key(q.sort_by), reverse=q.sort_order == "desc")
        found = [r.json() for r in rows[q.offset : q.offset + q.limit]]
        if q.select:
            found = [{k: v for k, v in c.items() if k in q.select} for c in found]
        return ok(found)

    async def count(request: Request) -> Response:
        q = await read_body(request, CronCount, optional=True)
        aid = ctx.registry.find(q.assistant_id).assistant_id if q.assistant_id else None
        tid = check_uuid(q.thread_id, "thread_id") if q.thread_id else None
        rows = await ctx.rows.list_crons()
        return ok(sum(_matches(r, aid, tid, q.metadata) for r in rows))

    c = "/runs/crons/{cron_id}"
    return [
        Op("POST", "/threads/{thread_id}/runs/crons", create, "Schedule runs on a thread",
           "crons", CronCreate),
        Op("POST", "/runs/crons", create, "Schedule runs, each on a new thread", "crons",
           CronCreate),
        Op("POST", "/runs/crons/search", search, "Search crons", "crons", CronSearch),
        Op("POST", "/runs/crons/count", count, "Count crons", "crons", CronCount),
        Op("GET", c, get, "Get a cron", "crons"),
        Op("PATCH", c, patch, "Change a cron", "crons", CronPatch),
        Op("DELETE", c, delete, "Delete a cron", "crons", returns=""),
    ]  # fmt: skip
