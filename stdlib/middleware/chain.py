"""Calling middleware: node hooks, and the wrapper chains around a model or tool call.

Input: middleware objects in declaration order and the innermost async handler (the model
call, or one tool call). Output: one async handler with every wrapper applied, the FIRST
declared outermost (LangChain's `_chain_model_call_handlers`). One async core: an `a`-hook
is awaited; a sync `wrap_*` runs in a worker thread with a blocking `handler` that hands the
inner call back to the event loop (so a LangChain-style sync wrapper ports unchanged and
`interrupt()` still finds its task); a sync node hook runs inline.

This is the one place that looks a LangChain hook up on a middleware object: a class
defines any hooks it likes, so they are found by name here, once, at bind time.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import inspect
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from ...ir import HookPoint
from ...runtime.types import Command
from ..tools import ToolResult
from .base import (
    AgentRuntime,
    ModelRequest,
    ModelResult,
    StateUpdate,
    ToolCallRequest,
    as_model_response,
)

Req = TypeVar("Req")
Res = TypeVar("Res")
T = TypeVar("T")

Handler = Callable[[Req], Coroutine[Any, Any, Res]]  # `handler(request)`, as wrappers call it
Wrapper = Callable[[Req, Handler[Req, Res]], Coroutine[Any, Any, Any]]  # normalised by the chain
ModelHandler = Handler[ModelRequest, ModelResult]
ToolHandler = Handler[ToolCallRequest, ToolResult]
NodeHook = Callable[
    [Mapping[str, Any], AgentRuntime], Coroutine[Any, Any, StateUpdate | Command | None]
]


def hook_caller(obj: object, point: HookPoint) -> NodeHook:
    """`obj`'s hook at `point` as an async function, resolved once (bind time)."""
    method = getattr(obj, "a" + point.value, None)
    if method is None:
        method = getattr(obj, point.value, None)
    if method is None:
        raise TypeError(f"middleware `{getattr(obj, 'name', obj)}` has no `{point.value}` hook")
    if inspect.iscoroutinefunction(method):
        return method
    sync = method

    async def call(state: Mapping[str, Any], runtime: AgentRuntime) -> Any:
        out = sync(state, runtime)
        return await out if inspect.isawaitable(out) else out

    return call


def wrapper(obj: object, point: HookPoint) -> Wrapper[Any, Any] | None:
    """`obj`'s wrap hook as an async `(request, handler)` function, or None."""
    name = "wrap_model_call" if point is not HookPoint.WRAP_TOOL_CALL else "wrap_tool_call"
    amethod = getattr(obj, "a" + name, None)
    if amethod is not None:
        return amethod
    method = getattr(obj, name, None)
    return _threaded(method) if method is not None else None


def _threaded(method: Callable[[Req, Callable[[Req], Res]], Any]) -> Wrapper[Req, Res]:
    async def run(request: Req, handler: Handler[Req, Res]) -> Any:
        loop = asyncio.get_running_loop()

        def blocking_handler(req: Req) -> Res:
            return _run_on_loop(loop, handler(req))

        return await asyncio.to_thread(method, request, blocking_handler)

    return run


def _run_on_loop(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T]) -> T:
    """Run `coro` on `loop` from a worker thread, in the worker's context (the task's
    contextvars travel, so `interrupt()` inside a tool still finds its task)."""
    context = contextvars.copy_context()
    done: concurrent.futures.Future[T] = concurrent.futures.Future()

    def start() -> None:
        task = loop.create_task(coro, context=context)

        def finish(t: asyncio.Task[T]) -> None:
            if t.cancelled():
                done.cancel()
            elif (exc := t.exception()) is not None:
                done.set_exception(exc)
            else:
                done.set_result(t.result())

        task.add_done_callback(finish)

    loop.call_soon_threadsafe(start)
    return done.result()


def compose(
    wrappers: Sequence[Wrapper[Req, Res]],
    inner: Handler[Req, Res],
    normalize: Callable[[Any], Res],
) -> Handler[Req, Res]:
    """One handler: `wrappers[0]` outermost, `inner` innermost; each layer's answer is
    normalised before the next layer out sees it."""
    handler = inner
    for w in reversed(wrappers):
        handler = _layer(w, handler, normalize)
    return handler


def _layer(
    w: Wrapper[Req, Res], inner: Handler[Req, Res], normalize: Callable[[Any], Res]
) -> Handler[Req, Res]:
    async def call(request: Req) -> Res:
        return normalize(await w(request, inner))

    return call


def _as_is(result: Any) -> ToolResult:
    return result


def model_chain(objects: Sequence[object], inner: ModelHandler) -> ModelHandler:
    ws = [w for o in objects if (w := wrapper(o, HookPoint.WRAP_MODEL_CALL)) is not None]
    return compose(ws, inner, as_model_response)


def tool_chain(objects: Sequence[object], inner: ToolHandler) -> ToolHandler:
    ws = [w for o in objects if (w := wrapper(o, HookPoint.WRAP_TOOL_CALL)) is not None]
    return compose(ws, inner, _as_is)
