"""The bytes of a streamed answer: SSE events with their ids, and the heartbeats that keep
a quiet connection open.

Input: a run's events (an async iterator) or an awaitable final answer. Output: bytes for
a `StreamingResponse` — `event:` / `data:` (one line of JSON) / `id:` blocks; an SSE
comment (`: heartbeat`) after every `HEARTBEAT_S` without an event; for a waited answer,
a newline every `HEARTBEAT_S` and then the JSON (leading whitespace is ignored by JSON
readers), as LangGraph's server does, so proxies and clients with read timeouts do not
drop a run that thinks for a long time. Invariants: closing the output stops reading the
events (nothing keeps running for a reader that left).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable
from typing import Any

from .engine import RunEvent

HEARTBEAT_S = 5.0
HEARTBEAT = b": heartbeat\r\n\r\n"


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def sse(event: RunEvent) -> bytes:
    return f"event: {event.event}\r\ndata: {dumps(event.data)}\r\nid: {event.id}\r\n\r\n".encode()


async def with_heartbeats(events: AsyncGenerator[RunEvent, None]) -> AsyncIterator[RunEvent | None]:
    """`events`, with None after each `HEARTBEAT_S` in which none came."""
    upcoming: asyncio.Future[RunEvent] | None = None
    try:
        while True:
            if upcoming is None:
                upcoming = asyncio.ensure_future(anext(events))
            done, _ = await asyncio.wait({upcoming}, timeout=HEARTBEAT_S)
            if not done:
                yield None
                continue
            try:
                event = upcoming.result()
            except StopAsyncIteration:
                return
            upcoming = None
            yield event
    finally:
        if upcoming is not None and not upcoming.done():
            upcoming.cancel()
            with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                await upcoming
        await events.aclose()


async def waited(answer: Awaitable[Any]) -> AsyncIterator[bytes]:
    """Newlines while `answer` is awaited, then its JSON."""
    task = asyncio.ensure_future(answer)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=HEARTBEAT_S)
            if done:
                yield dumps(task.result()).encode()
                return
            yield b"\n"
    finally:
        if not task.done():
            task.cancel()
