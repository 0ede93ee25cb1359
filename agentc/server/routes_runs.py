"""Run endpoints: start a run on a thread or without one (streamed, waited for, or in the
background), list, read, join, rejoin, cancel and delete runs.

Input: a `RunCreate` body (or a run's ids). Output: SSE (`event:`, `data:` JSON, `id:` the
event's number in its run, so `Last-Event-ID` resumes after it), the run's final values,
or the API's `Run`. Invariants: every run goes through the engine's `submit` — the routes
never run a graph or touch a task; what a request gets wrong (an unknown assistant, a
stream mode agentc does not build, a bad config) is refused before the run is made.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from agentc.runtime.config_dict import run_config

from .assistants import Assistant
from .engine import RunJob, ThreadBusy
from .errors import ApiError, not_found
from .models import CancelAction, RunCreate, RunsCancel, RunStatus
from .repo import RunRow, ThreadRow
from .routes_threads import find_thread, new_thread
from .routing import Context, Op, check_uuid, ok, path_uuid, query_bool, query_int, read_body
from .security import hide_secrets
from .streams import HEARTBEAT, sse, waited, with_heartbeats

SERVED_MODES = ("values", "updates", "messages", "messages-tuple", "custom", "events")
_ALWAYS = ("metadata", "error")  # sent on a rejoin whatever modes it asks for
_cancels: set[asyncio.Task[bool]] = set()  # on_disconnect=cancel tasks, kept until done


def _modes(body: RunCreate) -> tuple[str, ...]:
    modes = body.modes()
    for m in modes:
        if m not in SERVED_MODES:
            raise ApiError(
                422,
                f"stream_mode {m!r} is not served: agentc does not build LangGraph's "
                "debug payloads",
                expected=f"stream modes among {', '.join(SERVED_MODES)}",
            )
    return tuple(dict.fromkeys(modes)) or ("values",)


@dataclass(frozen=True, slots=True)
class RunLabels:
    """What LangGraph's server adds to a run's config metadata."""

    graph_id: str
    assistant_id: str
    thread_id: str
    run_id: str

    def json(self) -> dict[str, Any]:
        return {
            "graph_id": self.graph_id,
            "assistant_id": self.assistant_id,
            "created_by": "system",
            "run_attempt": 1,
            "thread_id": self.thread_id,
            "run_id": self.run_id,
        }


def _config(body: RunCreate, thread_id: str, labels: RunLabels) -> dict[str, Any]:
    """The run's config; a thread's head after a rollback is added when the run starts
    (`GraphExecutor.start`), not here: a run may be queued behind the one rolled back."""
    config = dict(body.config or {})
    configurable = dict(config.get("configurable") or {})
    configurable["thread_id"] = thread_id
    checkpoint = body.checkpoint_id or (body.checkpoint.checkpoint_id if body.checkpoint else None)
    if checkpoint:
        configurable["checkpoint_id"] = checkpoint
    config["configurable"] = configurable
    # As LangGraph's server: the run's own labels join the caller's metadata, which the
    # graph's nodes read (`get_config().metadata`)
    config["metadata"] = {
        **(config.get("metadata") or {}),
        **(body.metadata or {}),
        **labels.json(),
    }
    run_config(config)  # a config agentc cannot read: `invalid-config`, a 422 naming it
    return config


@dataclass(slots=True)
class _Turn:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


_turns: dict[str, _Turn] = {}  # thread id → the run creations waiting on it


async def create_run(ctx: Context, thread_id: str | None, body: RunCreate) -> RunRow:
    """Check the request, label its thread, make the run and queue it (nothing is written
    before the request has been checked, so a refused run leaves no trace). On a database
    that blocks, each step awaits its answer: the runs made on one thread take turns, so
    each sees the ones before it (its multitask strategy decides on them), as when no step
    awaited."""
    if thread_id is None or not ctx.rows.blocking:
        return await _create_run(ctx, thread_id, body)
    turn = _turns.setdefault(thread_id, _Turn())
    turn.users += 1
    try:
        async with turn.lock:
            return await _create_run(ctx, thread_id, body)
    finally:
        turn.users -= 1
        if not turn.users:
            del _turns[thread_id]


async def _create_run(ctx: Context, thread_id: str | None, body: RunCreate) -> RunRow:
    assistant = ctx.registry.find(body.assistant_id)
    # a run without a thread gets one of its own: forgotten when the run ends, or, with
    # `on_completion: keep`, a thread like any other that the run leaves behind
    temporary = thread_id is None and body.on_completion == "delete"
    tid = thread_id or str(uuid.uuid4())
    row = None if thread_id is None else await ctx.rows.get_thread(tid)
    if row is None and thread_id is not None and body.if_not_exists != "create":
        raise not_found("thread", tid)
    if thread_id is None:
        _check_threadless(body)
    run_id = str(uuid.uuid4())
    labels = RunLabels(assistant.graph_id, assistant.assistant_id, tid, run_id)
    job = RunJob(
        run_id=run_id,
        thread_id=tid,
        assistant_id=assistant.assistant_id,
        graph_id=assistant.graph_id,
        input=body.input,
        command=body.command.model_dump(exclude_none=True) if body.command else None,
        config=_config(body, tid, labels),
        context=body.context,
        stream_modes=_modes(body),
        subgraphs=body.stream_subgraphs,
        interrupt_before=body.interrupt_before,
        interrupt_after=body.interrupt_after,
        durability=body.durability,
        multitask_strategy=body.multitask_strategy,
        temporary=temporary,
    )
    if not temporary:
        await _label(ctx, row or await new_thread(ctx, tid, dict(body.metadata or {})), assistant)
    now = time.time()
    kwargs = hide_secrets(_kwargs(job, body))
    run = RunRow(job.run_id, tid, assistant.assistant_id, now, now, "pending",
                 hide_secrets(_metadata(job, body)), kwargs, body.multitask_strategy)  # fmt: skip
    await ctx.rows.put_run(run)
    try:
        await ctx.engine.submit(job)
    except ThreadBusy as busy:
        await ctx.rows.delete_run(job.run_id)
        raise ApiError(
            409,
            f"thread {tid!r} is busy with run {busy.run_id!r}",
            expected="multitask_strategy enqueue, interrupt or rollback, or an idle thread",
        ) from None
    return run


def _check_threadless(body: RunCreate) -> None:
    if body.command is not None and "resume" in body.command.model_fields_set:
        raise ApiError(  # (LangGraph's server says 400; our bodies' mistakes are all 422)
            422,
            "a resume needs the thread of the run that paused",
            expected="POST /threads/{thread_id}/runs/... with command.resume",
        )
    if body.input is None and body.command is None:
        raise ApiError(422, "a run without a thread needs an input", expected="input: {...}")


def _kwargs(job: RunJob, body: RunCreate) -> dict[str, Any]:
    """The run's `kwargs` as LangGraph's server shows them."""
    return {
        "input": job.input,
        "command": job.command,
        "config": job.config,
        "context": job.context or {},
        "stream_mode": list(job.stream_modes),
        "interrupt_before": job.interrupt_before,
        "interrupt_after": job.interrupt_after,
        "subgraphs": job.subgraphs,
        "resumable": body.stream_resumable,
        "temporary": job.temporary,
        "durability": job.durability or "async",
        "webhook": None,
        "feedback_keys": None,
    }


def _metadata(job: RunJob, body: RunCreate) -> dict[str, Any]:
    return {"graph_id": job.graph_id, "assistant_id": job.assistant_id, **(body.metadata or {})}


async def _label(ctx: Context, row: ThreadRow, assistant: Assistant) -> None:
    """As LangGraph's server: a thread that takes a run is busy and names its graph."""
    if row.status != "busy":
        labels = {"graph_id": assistant.graph_id, "assistant_id": assistant.assistant_id}
        await ctx.rows.put_thread(replace(row, metadata={**row.metadata, **labels}, status="busy"))


def _action(request: Request) -> CancelAction:
    raw = request.query_params.get("action", "interrupt")
    if raw not in ("interrupt", "rollback"):
        raise ApiError(422, f"action={raw!r} is not a cancel action",
                       expected="interrupt or rollback")  # fmt: skip
    return "rollback" if raw == "rollback" else "interrupt"


def _locations(run: RunRow, temporary: bool, tail: str) -> dict[str, str]:
    if temporary:
        return {"Content-Location": f"/runs/{run.run_id}"}
    base = f"/threads/{run.thread_id}/runs/{run.run_id}"
    return {"Location": f"{base}/{tail}", "Content-Location": base}


def stream_response(
    ctx: Context,
    run: RunRow,
    *,
    after: int | None = None,
    modes: tuple[str, ...] = (),
    cancel_on_disconnect: bool = False,
    temporary: bool = False,
) -> StreamingResponse:
    async def body() -> AsyncIterator[bytes]:
        finished = False
        try:
            async for event in with_heartbeats(ctx.engine.events(run.run_id, after)):
                if event is None:
                    yield HEARTBEAT
                elif not modes or _wanted(event.event, modes):
                    yield sse(event)
            finished = True
        finally:
            if not finished and cancel_on_disconnect:
                task = asyncio.ensure_future(ctx.engine.cancel(run.run_id, "interrupt"))
                _cancels.add(task)
                task.add_done_callback(_cancels.discard)

    headers = {"Cache-Control": "no-store", **_locations(run, temporary, "stream")}
    return StreamingResponse(body(), media_type="text/event-stream", headers=headers)


def _wanted(event: str, modes: tuple[str, ...]) -> bool:
    base = event.split("|", 1)[0].split("/", 1)[0]
    return base in _ALWAYS or base in modes or (base == "messages" and "messages-tuple" in modes)


def answer(ctx: Context, run: RunRow, temporary: bool) -> StreamingResponse:
    """The run's final answer once it has one (newlines until then, as heartbeats)."""
    headers = _locations(run, temporary, "join")
    return StreamingResponse(
        waited(outcome_json(ctx, run)), media_type="application/json", headers=headers
    )


async def outcome_json(ctx: Context, run: RunRow) -> Any:
    """What `join` answers: the run's final values; for a run this engine no longer
    holds (finished before a restart), the thread's last values."""
    outcome = await ctx.engine.join(run.run_id)
    if outcome is not None and outcome.result is not None:
        return outcome.result  # (a cancelled run has none: its thread's values then)
    row = await ctx.rows.get_thread(run.thread_id)
    if row is None:
        return {}
    asked = [i for task in row.interrupts.values() for i in task]
    return {**(row.values or {}), **({"__interrupt__": asked} if asked else {})}


def routes(ctx: Context) -> list[Op]:
    async def stream(request: Request) -> Response:
        tid = path_uuid(request, "thread_id") if "thread_id" in request.path_params else None
        body = await read_body(request, RunCreate)
        run = await create_run(ctx, tid, body)
        return stream_response(
            ctx, run, cancel_on_disconnect=body.on_disconnect == "cancel", temporary=tid is None
        )

    async def wait(request: Request) -> Response:
        tid = path_uuid(request, "thread_id") if "thread_id" in request.path_params else None
        run = await create_run(ctx, tid, await read_body(request, RunCreate))
        return answer(ctx, run, tid is None)

    async def background(request: Request) -> Response:
        tid = path_uuid(request, "thread_id") if "thread_id" in request.path_params else None
        run = await create_run(ctx, tid, await read_body(request, RunCreate))
        return ok(run.json(), headers=_locations(run, tid is None, "join"))

    async def list_runs(request: Request) -> Response:
        tid = path_uuid(request, "thread_id")
        await find_thread(ctx, tid)
        limit, offset = (
            query_int(request, "limit", 10, 1),
            query_int(request, "offset", 0, 0, 10**9),
        )
        status = request.query_params.get("status")
        runs = [r for r in await ctx.rows.list_runs(tid, 10**6, 0) if status in (None, r.status)]
        return ok([r.json() for r in runs[offset : offset + limit]])

    async def find_run(request: Request) -> RunRow:
        tid, rid = path_uuid(request, "thread_id"), path_uuid(request, "run_id")
        await find_thread(ctx, tid)
        run = await ctx.rows.get_run(rid)
        if run is None or run.thread_id != tid:
            raise not_found("run", rid)
        return run

    async def get_run(request: Request) -> Response:
        return ok((await find_run(request)).json())

    async def delete_run(request: Request) -> Response:
        run = await find_run(request)
        if run.status in ("pending", "running") and ctx.engine.active(run.thread_id):
            raise ApiError(409, f"run {run.run_id!r} is {run.status}", expected="cancel it first")
        await ctx.rows.delete_run(run.run_id)
        return Response(status_code=204)

    async def join(request: Request) -> Response:
        run = await find_run(request)
        return answer(ctx, run, False)

    async def rejoin(request: Request) -> Response:
        run = await find_run(request)
        last = request.headers.get("last-event-id")
        if last is not None and not last.strip().isdigit():
            raise ApiError(422, f"Last-Event-ID {last!r} is not an event id of this server",
                           expected="the number an earlier event's `id:` gave")  # fmt: skip
        # the SDK sends `stream_mode=` (empty) when it was given none: every mode
        modes = tuple(m for m in request.query_params.getlist("stream_mode") if m)
        return stream_response(
            ctx,
            run,
            after=int(last) if last is not None else None,
            modes=modes,
            cancel_on_disconnect=query_bool(request, "cancel_on_disconnect"),
        )

    async def cancel(request: Request) -> Response:
        run = await find_run(request)
        action = _action(request)
        known = await ctx.engine.cancel(run.run_id, action)
        if not known and run.status in ("pending", "running"):  # left over from a restart
            await ctx.rows.put_run(replace(run, status="interrupted", updated_at=time.time()))
        if not query_bool(request, "wait"):
            return Response(status_code=202)
        return answer(ctx, run, False)

    async def cancel_many(request: Request) -> Response:
        body = await read_body(request, RunsCancel)
        action = _action(request)
        if body.status is not None:
            wanted: tuple[RunStatus, ...] = (
                ("pending", "running") if body.status == "all" else (body.status,)
            )
            runs = await ctx.rows.runs_in(wanted)
        elif body.thread_id is not None and body.run_ids is not None:
            tid = check_uuid(body.thread_id, "thread_id")
            listed = await ctx.rows.list_runs(tid, 10**6, 0)
            runs = [r for r in listed if r.run_id in body.run_ids]
        else:
            raise ApiError(422, "say which runs to cancel",
                           expected="status, or thread_id with run_ids")  # fmt: skip
        for run in runs:
            await ctx.engine.cancel(run.run_id, action)
        return Response(status_code=204)

    t = "/threads/{thread_id}/runs"
    r = f"{t}/{{run_id}}"
    return [
        Op("POST", f"{t}/stream", stream, "Start a run and stream it", "runs", RunCreate,
           "text/event-stream"),
        Op("POST", f"{t}/wait", wait, "Start a run and wait for its result", "runs", RunCreate),
        Op("POST", t, background, "Start a run in the background", "runs", RunCreate),
        Op("GET", t, list_runs, "List a thread's runs", "runs",
           query=("limit", "offset", "status")),
        Op("GET", r, get_run, "Get a run", "runs"),
        Op("DELETE", r, delete_run, "Delete a run", "runs", returns=""),
        Op("GET", f"{r}/join", join, "Wait for a run's result", "runs"),
        Op("GET", f"{r}/stream", rejoin, "Stream a run's events (again)", "runs",
           returns="text/event-stream", query=("stream_mode", "cancel_on_disconnect")),
        Op("POST", f"{r}/cancel", cancel, "Cancel a run", "runs", query=("wait", "action")),
        Op("POST", "/runs/cancel", cancel_many, "Cancel several runs", "runs", RunsCancel,
           returns="", query=("action",)),
        Op("POST", "/runs/stream", stream, "Start a run without a thread and stream it", "runs",
           RunCreate, "text/event-stream"),
        Op("POST", "/runs/wait", wait, "Start a run without a thread and wait", "runs",
           RunCreate),
        Op("POST", "/runs", background, "Start a run without a thread in the background",
           "runs", RunCreate),
    ]  # fmt: skip
