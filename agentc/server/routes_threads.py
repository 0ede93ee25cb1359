"""Thread endpoints: create, read, change, delete and search threads; read a thread's
state (now, at a checkpoint, its history) and write to it (update_state).

Input: requests. Output: the API's `Thread` and `ThreadState` JSON. Invariants: a
thread's state is read through the graph its runs used (`graph_id`, set by its first run
or by `metadata.graph_id` at creation); a thread with no run yet has an empty state; a
thread whose last run was rolled back reads the checkpoint from before that run.
"""

from __future__ import annotations

import copy
import time
import uuid
from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from agentc.graphview import LoadedGraph

from .errors import ApiError, not_found
from .models import (
    CheckpointRef,
    HistoryRequest,
    StateUpdate,
    ThreadCreate,
    ThreadPatch,
    ThreadPrune,
    ThreadSearch,
)
from .repo import ThreadQuery, ThreadRow, contains
from .routing import Context, Op, check_uuid, no_content, ok, path_uuid, query_int, read_body
from .wire import checkpoint_json, empty_state, state_json


async def find_thread(ctx: Context, thread_id: str) -> ThreadRow:
    row = await ctx.rows.get_thread(thread_id)
    if row is None:
        raise not_found("thread", thread_id)
    return row


async def new_thread(ctx: Context, thread_id: str, metadata: dict[str, Any]) -> ThreadRow:
    now = time.time()
    graph_id = metadata.get("graph_id")
    row = ThreadRow(
        thread_id, now, now, metadata, graph_id=graph_id if isinstance(graph_id, str) else None
    )
    await ctx.rows.put_thread(row)
    return row


async def delete_thread(ctx: Context, thread_id: str) -> bool:
    """Stop the thread's runs, then delete it and all it saved; False: no such thread."""
    if await ctx.rows.get_thread(thread_id) is None:
        return False
    for run in await ctx.rows.list_runs(thread_id, 1000, 0):
        if run.status in ("pending", "running"):
            await ctx.engine.cancel(run.run_id, "interrupt")
    await ctx.rows.delete_thread(thread_id)
    await ctx.registry.checkpoints(ctx.registry.backends.checkpointer.delete_thread, thread_id)
    return True


async def copy_thread(ctx: Context, source: ThreadRow) -> ThreadRow:
    """A new thread holding a copy of all `source` saved: its metadata, which graph's
    state it holds (and the checkpoint it reads, after a rollback), and every checkpoint,
    so it reads and continues as the source would. Like LangGraph's server, the copy is
    `idle` and has no runs."""
    now = time.time()
    tid = str(uuid.uuid4())
    await ctx.registry.checkpoints(
        ctx.registry.backends.checkpointer.copy_thread, source.thread_id, tid
    )
    row = replace(  # as LangGraph's: no `values` on the thread until a run of its own
        source, thread_id=tid, created_at=now, updated_at=now, status="idle",
        metadata=copy.deepcopy(source.metadata), values=None, interrupts={},
    )  # fmt: skip
    await ctx.rows.put_thread(row)
    return row


def thread_graph(ctx: Context, row: ThreadRow) -> LoadedGraph | None:
    return ctx.registry.graph_named(row.graph_id) if row.graph_id else None


def saved_config(thread_id: str, checkpoint_id: str | None) -> dict[str, Any]:
    configurable: dict[str, Any] = {"thread_id": thread_id}
    if checkpoint_id:
        configurable["checkpoint_id"] = checkpoint_id
    return {"configurable": configurable}


async def read_state(ctx: Context, row: ThreadRow, checkpoint_id: str | None) -> dict[str, Any]:
    graph = thread_graph(ctx, row)
    if graph is None:
        return empty_state(row.thread_id)
    snap = await graph.aget_state(saved_config(row.thread_id, checkpoint_id or row.head))
    if snap is None:
        if checkpoint_id:
            raise not_found("checkpoint", checkpoint_id)
        return empty_state(row.thread_id)
    return state_json(row.thread_id, snap)


def _ref_id(ref: CheckpointRef | str | None) -> str | None:
    return ref if isinstance(ref, str) or ref is None else ref.checkpoint_id


def routes(ctx: Context) -> list[Op]:
    async def create(request: Request) -> Response:
        body = await read_body(request, ThreadCreate, optional=True)
        tid = check_uuid(body.thread_id, "thread_id") if body.thread_id else str(uuid.uuid4())
        metadata = dict(body.metadata or {})
        if body.graph_id:
            metadata["graph_id"] = body.graph_id
        if isinstance(metadata.get("graph_id"), str):
            ctx.registry.find(metadata["graph_id"])  # 404 for a graph not served
        existing = await ctx.rows.get_thread(tid)
        if existing is not None:
            if body.if_exists == "do_nothing":
                return ok(existing.json())
            raise ApiError(409, f"thread {tid!r} already exists", expected="a new thread id")
        return ok((await new_thread(ctx, tid, metadata)).json())

    async def get(request: Request) -> Response:
        return ok((await find_thread(ctx, path_uuid(request, "thread_id"))).json())

    async def patch(request: Request) -> Response:
        row = await find_thread(ctx, path_uuid(request, "thread_id"))
        body = await read_body(request, ThreadPatch, optional=True)
        merged = {**row.metadata, **(body.metadata or {})}
        row = replace(row, metadata=merged, updated_at=time.time())
        await ctx.rows.put_thread(row)
        return ok(row.json())

    async def delete(request: Request) -> Response:
        tid = path_uuid(request, "thread_id")
        if not await delete_thread(ctx, tid):
            raise not_found("thread", tid)
        return no_content()

    async def copy_(request: Request) -> Response:
        source = await find_thread(ctx, path_uuid(request, "thread_id"))
        return ok((await copy_thread(ctx, source)).json())

    async def prune(request: Request) -> Response:
        body = await read_body(request, ThreadPrune)
        ids = [check_uuid(i, "thread_ids[]") for i in body.thread_ids]
        if body.strategy == "keep_latest":
            raise ApiError(422, "strategy 'keep_latest' is not served",
                           expected="strategy 'delete' (each thread and all it saved)")  # fmt: skip
        pruned = [await delete_thread(ctx, tid) for tid in dict.fromkeys(ids)]
        return ok({"pruned_count": sum(pruned)})  # threads that were there

    async def search(request: Request) -> Response:
        q = await read_body(request, ThreadSearch, optional=True)
        ids = tuple(check_uuid(i, "ids[]") for i in q.ids) if q.ids is not None else None
        query = ThreadQuery(ids, q.metadata, q.status, 100_000, 0, q.sort_by, q.sort_order)
        found = await ctx.rows.search_threads(query)
        rows = [r for r in found if contains(r.values, q.values or {})]
        return ok([r.json() for r in rows[q.offset : q.offset + q.limit]])

    async def count(request: Request) -> Response:
        q = await read_body(request, ThreadSearch, optional=True)
        query = ThreadQuery(None, q.metadata, q.status, 100_000, 0)
        return ok(len(await ctx.rows.search_threads(query)))

    async def get_state(request: Request) -> Response:
        row = await find_thread(ctx, path_uuid(request, "thread_id"))
        return ok(await read_state(ctx, row, request.path_params.get("checkpoint_id")))

    async def post_state_checkpoint(request: Request) -> Response:
        row = await find_thread(ctx, path_uuid(request, "thread_id"))
        body = await read_body(request, HistoryRequest, optional=True)
        return ok(await read_state(ctx, row, _ref_id(body.checkpoint)))

    async def update_state(request: Request) -> Response:
        row = await find_thread(ctx, path_uuid(request, "thread_id"))
        body = await read_body(request, StateUpdate, optional=True)
        graph = thread_graph(ctx, row)
        if graph is None:
            raise ApiError(
                422,
                f"thread {row.thread_id!r} has no graph yet, so its state has no shape",
                expected="a run on the thread first, or metadata.graph_id when creating it",
            )
        if ctx.engine.active(row.thread_id):
            raise ApiError(409, f"thread {row.thread_id!r} has a run in progress",
                           expected="an idle thread (wait for or cancel its run)")  # fmt: skip
        cid = body.checkpoint_id or _ref_id(body.checkpoint) or row.head
        done = await graph.aupdate_state(
            saved_config(row.thread_id, cid), body.values, body.as_node
        )
        await ctx.rows.put_thread(replace(row, head=None, updated_at=time.time()))
        ref = checkpoint_json(row.thread_id, done.checkpoint_id)
        return ok({"checkpoint": ref, "checkpoint_id": done.checkpoint_id, "configurable": ref})

    async def history(request: Request) -> Response:
        row = await find_thread(ctx, path_uuid(request, "thread_id"))
        if request.method == "GET":
            q = HistoryRequest(
                limit=query_int(request, "limit", 10, 1), before=request.query_params.get("before")
            )
        else:
            q = await read_body(request, HistoryRequest, optional=True)
        graph = thread_graph(ctx, row)
        if graph is None:
            return ok([])
        states = [state_json(row.thread_id, s) for s in await graph.aget_state_history(
            saved_config(row.thread_id, None))]  # fmt: skip
        before = _ref_id(q.before)
        if before is not None:
            ids = [s["checkpoint"]["checkpoint_id"] for s in states]
            states = states[ids.index(before) + 1 :] if before in ids else []
        states = [s for s in states if contains(s["metadata"], q.metadata or {})]
        return ok(states[: q.limit])

    t = "/threads/{thread_id}"
    return [
        Op("POST", "/threads", create, "Create a thread", "threads", ThreadCreate),
        Op("POST", "/threads/search", search, "Search threads", "threads", ThreadSearch),
        Op("POST", "/threads/count", count, "Count threads", "threads", ThreadSearch),
        Op("POST", "/threads/prune", prune, "Delete several threads", "threads", ThreadPrune),
        Op("GET", t, get, "Get a thread", "threads"),
        Op("PATCH", t, patch, "Change a thread's metadata", "threads", ThreadPatch),
        Op("DELETE", t, delete, "Delete a thread", "threads", returns=""),
        Op("POST", f"{t}/copy", copy_, "Copy a thread and all it saved", "threads"),
        Op("GET", f"{t}/state", get_state, "Get a thread's state", "threads"),
        Op("POST", f"{t}/state", update_state, "Update a thread's state", "threads", StateUpdate),
        Op("GET", f"{t}/state/{{checkpoint_id}}", get_state, "Get the state at a checkpoint",
           "threads"),
        Op("POST", f"{t}/state/checkpoint", post_state_checkpoint,
           "Get the state at a checkpoint", "threads", HistoryRequest),
        Op("GET", f"{t}/history", history, "Get a thread's history", "threads",
           query=("limit", "before")),
        Op("POST", f"{t}/history", history, "Get a thread's history", "threads", HistoryRequest),
    ]  # fmt: skip
