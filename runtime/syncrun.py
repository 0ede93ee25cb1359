"""The one sync adapter: running the async core from sync code.

Input: a function making a coroutine, or an async generator. Output: its result, or its
items. With no event loop running in the calling thread, a private per-thread loop runs
it (kept for the thread, so a sync caller's runs share one loop); called from inside a
running loop, it runs on a fresh thread with a loop of its own, in a copy of the caller's
context, and the caller waits.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_local = threading.local()


def running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def thread_loop() -> asyncio.AbstractEventLoop:
    loop = getattr(_local, "loop", None)
    if loop is None or loop.is_closed():
        loop = _local.loop = asyncio.new_event_loop()
    return loop


def run_sync(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion from sync code."""
    if running_loop() is None:
        return thread_loop().run_until_complete(make())
    context = contextvars.copy_context()  # the caller's context variables hold there too
    with ThreadPoolExecutor(1, thread_name_prefix="agentc-sync") as pool:
        return pool.submit(context.run, lambda: asyncio.run(make())).result()


async def collect(agen: AsyncIterator[T]) -> list[T]:
    return [x async for x in agen]


def iterate(agen: AsyncGenerator[T, None]) -> Iterator[T]:
    """An async generator read from sync code: item by item on the thread's private loop
    (closed when the reader stops, which stops the run it reads), or, called from inside
    a running loop, read whole on a fresh thread first."""
    if running_loop() is not None:
        yield from run_sync(lambda: collect(agen))
        return
    loop = thread_loop()
    try:
        while True:
            try:
                yield loop.run_until_complete(anext(agen))
            except StopAsyncIteration:
                return
    finally:
        loop.run_until_complete(agen.aclose())
