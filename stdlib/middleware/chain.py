"""Calling middleware: node hooks, and the wrapper chains around a model or tool call.

Input: middleware objects in declaration order and the innermost async handler (the model
call, or one tool call). Output: one async handler with every wrapper applied, the FIRST
declared outermost (LangChain's `_chain_model_call_handlers`). One async core: an `a`-hook
is awaited; a sync `wrap_*` runs in a worker thread with a blocking `handler` that hands the
inner call back to the event loop (so a LangChain-style sync wrapper ports unchanged and
`interrupt()` still finds its task); a sync node hook runs inline.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ...ir import HookPoint
from .base import as_model_response

Handler = Callable[[Any], Awaitable[Any]]


async def call_hook(obj: Any, point: HookPoint, state: Any, runtime: Any) -> Any:
    """Run one node hook (`before_model` …): the async twin when the object has one."""
    return await hook_caller(obj, point)(state, runtime)


def hook_caller(obj: Any, point: HookPoint) -> Callable[[Any, Any], Awaitable[Any]]:
    """`obj`'s hook at `point` as an async function, resolved once (bind time)."""
    method = getattr(obj, "a" + point.value, None)
    if method is None:
        method = getattr(obj, point.value, None)
    if method is None:
        raise TypeError(f"middleware `{getattr(obj, 'name', obj)}` has no `{point.value}` hook")
    if inspect.iscoroutinefunction(method):
        return method

    async def call(state: Any, runtime: Any) -> Any:
        out = method(state, runtime)
        return await out if inspect.isawaitable(out) else out

    return call


def wrapper(obj: Any, point: HookPoint) -> Callable[[Any, Handler], Awaitable[Any]] | None:
    """`obj`'s wrap hook as an async `(request, handler)` function, or None."""
    name = "wrap_model_call" if point is not HookPoint.WRAP_TOOL_CALL else "wrap_tool_call"
    amethod = getattr(obj, "a" + name, None)
    if amethod is not None:
        return amethod
    method = getattr(obj, name, None)
    return _threaded(method) if method is not None else None


def _threaded(method: Callable[[Any, Any], Any]) -> Callable[[Any, Handler], Awaitable[Any]]:
    async def run(request: Any, handler: Handler) -> Any:
        loop = asyncio.get_running_loop()

        def blocking_handler(req: Any) -> Any:
            return _run_on_loop(loop, handler(req))

        return await asyncio.to_thread(method, request, blocking_handler)

    return run


def _run_on_loop(loop: asyncio.AbstractEventLoop, coro: Any) -> Any:
    """Run `coro` on `loop` from a worker thread, in the worker's context (the task's
    contextvars travel, so `interrupt()` inside a tool still finds its task)."""
    context = contextvars.copy_context()
    done: concurrent.futures.Future[Any] = concurrent.futures.Future()

    def start() -> None:
        task = loop.create_task(coro, context=context)

        def finish(t: asyncio.Task[Any]) -> None:
            if t.cancelled():
                done.cancel()
            elif t.exception() is not None:
                done.set_exception(t.exception())
            else:
                done.set_result(t.result())

        task.add_done_callback(finish)

    loop.call_soon_threadsafe(start)
    return done.result()


def compose(
    wrappers: Sequence[Callable[[Any, Handler], Awaitable[Any]]],
    inner: Handler,
    normalize: Callable[[Any], Any] = lambda r: r,
) -> Handler:
    """One handler: `wrappers[0]` outermost, `inner` innermost; each layer's answer is
    normalised before the next layer out sees it."""
    handler = inner
    for w in reversed(wrappers):
        handler = _layer(w, handler, normalize)
    return handler


def _layer(
    w: Callable[[Any, Handler], Awaitable[Any]], inner: Handler, normalize: Callable[[Any], Any]
) -> Handler:
    async def call(request: Any) -> Any:
        return normalize(await w(request, inner))

    return call


def model_chain(objects: Sequence[Any], inner: Handler) -> Handler:
    ws = [w for o in objects if (w := wrapper(o, HookPoint.WRAP_MODEL_CALL)) is not None]
    return compose(ws, inner, as_model_response)


def tool_chain(objects: Sequence[Any], inner: Handler) -> Handler:
    ws = [w for o in objects if (w := wrapper(o, HookPoint.WRAP_TOOL_CALL)) is not None]
    return compose(ws, inner)
