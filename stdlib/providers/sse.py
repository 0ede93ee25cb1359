"""Server-sent events (`text/event-stream`) off an open response, for the providers and the
MCP client.

Input: an open response of either transport (`h1.Response`: httpx's or the lean client's)
and the loop time its body must be read by. Output: its `SSEvent`s. Invariants: read in
linear time (a line's pieces are joined once, when it ends); a connection that drops
mid-stream is a `ProviderStreamError`, a body that cannot be decoded a `ProviderReplyError`,
a stream still going at the deadline a `ProviderStreamError` saying the `timeout` ran out.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx

from .errors import ProviderConnectionError, ProviderError, ProviderReplyError, ProviderStreamError

if TYPE_CHECKING:
    from .h1 import Response
    from .http import Endpoint


@dataclass(frozen=True, slots=True)
class SSEvent:
    event: str | None
    data: str


async def iter_sse(
    endpoint: Endpoint, response: Response, deadline: float | None = None
) -> AsyncIterator[SSEvent]:
    """Decode `text/event-stream`; a connection that drops mid-stream is a ProviderStreamError,
    a stream still going at `deadline` (loop time) one that says the `timeout` ran out."""
    event: str | None = None
    data: list[str] = []
    rest: list[bytes] = []  # the pieces of a line whose end has not arrived yet
    try:
        async for chunk in _chunks(endpoint, response, deadline):
            if b"\n" not in chunk:
                rest.append(chunk)
                continue
            lines = chunk.split(b"\n")
            if rest:
                rest.append(lines[0])
                lines[0] = b"".join(rest)
            tail = lines.pop()
            rest = [tail] if tail else []
            for line in lines:
                line = line.rstrip(b"\r")
                if line:
                    event = _sse_field(line, event, data)
                elif data or event:
                    yield SSEvent(event, "\n".join(data))
                    event, data = None, []
    except httpx.TransportError as exc:
        raise ProviderStreamError(
            endpoint.provider, f"stream broke off: {exc or type(exc).__name__}"
        ) from None
    except httpx.DecodingError as exc:
        raise decoding_error(endpoint, exc) from None
    except UnicodeDecodeError as exc:
        raise ProviderReplyError(
            endpoint.provider, f"a stream event is not valid UTF-8 (byte {exc.start} of its line)"
        ) from None
    if data:
        yield SSEvent(event, "\n".join(data))


async def _chunks(
    endpoint: Endpoint, response: Response, deadline: float | None
) -> AsyncIterator[bytes]:
    """The body's reads, each bounded by what is left of the total deadline."""
    reads = response.aiter_bytes()
    if deadline is None:
        async for chunk in reads:
            yield chunk
        return
    while True:
        try:
            async with asyncio.timeout_at(deadline):
                chunk = await anext(reads, None)
        except TimeoutError:
            raise deadline_error(endpoint, retryable=False) from None
        if chunk is None:
            return
        yield chunk


def _sse_field(line: bytes, event: str | None, data: list[str]) -> str | None:
    if line.startswith(b":"):
        return event  # a comment / keep-alive
    name, _, value = line.decode("utf-8").partition(":")
    if value.startswith(" "):
        value = value[1:]
    if name == "data":
        data.append(value)
    elif name == "event":
        return value
    return event


def deadline_error(endpoint: Endpoint, retryable: bool) -> ProviderError:
    assert endpoint.deadline_s is not None
    kind = ProviderConnectionError if retryable else ProviderStreamError
    return kind(
        endpoint.provider,
        f"timed out calling {endpoint.base_url}: no complete answer within the "
        f"{endpoint.deadline_s:g} s `timeout`",
        retryable=retryable,
    )


def decoding_error(endpoint: Endpoint, exc: httpx.DecodingError) -> ProviderReplyError:
    # The body does not match its Content-Encoding (e.g. "gzip" on bytes that are not gzip).
    return ProviderReplyError(
        endpoint.provider, f"the body could not be decoded as its Content-Encoding says ({exc})"
    )
