"""The HTTP layer the providers and the MCP client share: pooled clients, retries, rate
limits, server-sent events.

Input: an `Endpoint` (provider, base URL, secret headers, timeouts, retry budget) and a JSON
body. Output: the decoded JSON reply (`post_json`), or the open response of a stream
(`open_response`) and its server-sent events (`iter_sse`, sse.py). Invariants: a plain
`http://` endpoint (a local model server) is spoken to by the lean HTTP/1.1 client of h1.py,
one pool of kept-alive connections per (provider, base URL, event loop); https, a proxy from
the environment, or a URL with credentials go through one `httpx.AsyncClient` per
(provider, base URL, event loop), with HTTP/2 where the server offers it; retries
follow the SDKs (E8: max_retries 2, exponential backoff with jitter, `Retry-After`
honoured, retry on 408/409/429/5xx and connection errors, never on other 4xx; a
`Retry-After` that cannot be read means our own backoff); every failure is a `ProviderError`
(errors.py) naming provider, status and the provider's own message — a body that cannot be
decoded (bad Content-Encoding, invalid UTF-8, JSON nested too deeply) is a
`ProviderReplyError`; secrets never appear in reprs or error text. Both transports raise
httpx's exceptions, so one mapping serves them.

Deadlines: the read timeout bounds each read (in both transports), so a server that
trickles a byte a second, or streams keep-alive comments for ever, would never time out.
A model's `timeout` is also a total deadline on each attempt (`Endpoint.deadline_s`): from
sending the request to the last byte of its body, a streamed body included
(`Opened.deadline`, checked at every read of `iter_sse`). Without a `timeout` there is none
(a long stream may rightly run for many minutes), only the SDKs' 600 s per read.
An attempt that runs out before its response is handed over is a timeout the SDKs retry
(E8: `max_retries`, as the OpenAI and Anthropic SDKs retry `APITimeoutError`); a stream
that runs out after its first event reached the caller is not replayed and fails the call
(`ProviderStreamError`). The SDKs' own `timeout` is per read (httpx's); agentc's bounds
the whole answer, since only that ends a hung call (docs/divergences.md, E8).
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import time
import weakref
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import field
from typing import Any

import httpx

from ...runtime.records import dataclass
from . import h1, retry_events
from .errors import ProviderConnectionError, ProviderError, ProviderReplyError, ProviderStatusError
from .shape import describe
from .sse import SSEvent, deadline_error, decoding_error, iter_sse

__all__ = ["SSEvent", "iter_sse"]  # re-exported: the MCP client reads its streams with them

DEFAULT_MAX_RETRIES = 2  # E8: the SDKs' default
DEFAULT_TIMEOUT_S = 600.0  # the SDKs' read timeout
DEFAULT_CONNECT_TIMEOUT_S = 5.0
INITIAL_BACKOFF_S = 0.5
MAX_BACKOFF_S = 8.0
MAX_RETRY_AFTER_S = 60.0  # a longer Retry-After is not waited for; our own backoff applies
RETRYABLE_STATUS = frozenset({408, 409, 429})


# ---------------------------------------------------------------- endpoint and limiter


@dataclass(frozen=True, slots=True)
class RateLimit:
    """A client-side token bucket: `requests_per_second` on average, `burst` at once."""

    requests_per_second: float
    burst: int = 1


class _TokenBucket:
    def __init__(self, limit: RateLimit) -> None:
        self._rate = limit.requests_per_second
        self._capacity = float(max(1, limit.burst))
        self._tokens = self._capacity
        self._stamp = time.monotonic()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        async with self._lock:
            while True:
                now = time.monotonic()
                self._tokens = min(self._capacity, self._tokens + (now - self._stamp) * self._rate)
                self._stamp = now
                if self._tokens >= 1.0:
                    self._tokens -= 1.0
                    return
                await asyncio.sleep((1.0 - self._tokens) / self._rate)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where and how to call one provider; `headers` hold secrets and stay out of reprs."""

    provider: str
    base_url: str
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    timeout_s: float | None = DEFAULT_TIMEOUT_S  # httpx's: each read
    connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S
    deadline_s: float | None = None  # each attempt's whole answer (a model's `timeout`)
    max_retries: int = DEFAULT_MAX_RETRIES
    rate_limit: RateLimit | None = None
    # path → the lean client's request head (h1.request_head), built at the first call
    heads: dict[str, bytes] = field(default_factory=dict, init=False, repr=False, compare=False)

    def url(self, path: str) -> str:
        return self.base_url.rstrip("/") + "/" + path.lstrip("/")


# ---------------------------------------------------------------- client pool

# ("client", provider, base URL) → its client; ("bucket", provider, base URL, limit) → its
# rate limiter; ("wire", provider, base URL) → its lean connections, or None: httpx carries it
Pool = dict[tuple[object, ...], httpx.AsyncClient | _TokenBucket | h1.Connections | None]
_POOLS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Pool] = weakref.WeakKeyDictionary()


def _pool() -> Pool:
    # A client is bound to the loop that opened its connections, so pools are per loop.
    loop = asyncio.get_running_loop()
    pool = _POOLS.get(loop)
    if pool is None:
        pool = _POOLS[loop] = {}
    return pool


def client_for(endpoint: Endpoint) -> httpx.AsyncClient:
    """The one pooled client for this provider and base URL in this process (and loop)."""
    pool = _pool()
    key = ("client", endpoint.provider, endpoint.base_url)
    client = pool.get(key)
    if not isinstance(client, httpx.AsyncClient) or client.is_closed:
        client = pool[key] = httpx.AsyncClient(
            http2=True,  # negotiated by ALPN on https; plain http stays HTTP/1.1
            timeout=httpx.Timeout(endpoint.timeout_s, connect=endpoint.connect_timeout_s),
            limits=httpx.Limits(max_connections=1000, max_keepalive_connections=100),
            follow_redirects=False,
        )
    return client


def _bucket_for(endpoint: Endpoint) -> _TokenBucket | None:
    if endpoint.rate_limit is None:
        return None
    pool = _pool()
    key = ("bucket", endpoint.provider, endpoint.base_url, endpoint.rate_limit)
    bucket = pool.get(key)
    if not isinstance(bucket, _TokenBucket):
        bucket = pool[key] = _TokenBucket(endpoint.rate_limit)
    return bucket


async def close_clients() -> None:
    """Close this loop's pooled clients (tests, and a clean CLI exit)."""
    pool = _pool()
    for key, value in list(pool.items()):
        if isinstance(value, httpx.AsyncClient):
            await value.aclose()
        elif isinstance(value, h1.Connections):
            value.close()
        del pool[key]


def _wire_for(endpoint: Endpoint) -> h1.Connections | None:
    """The lean client's pool for this endpoint, or None when httpx must carry the call
    (decided once per pool, as httpx reads the environment's proxies once per client)."""
    pool = _pool()
    key = ("wire", endpoint.provider, endpoint.base_url)
    try:
        wire = pool[key]
    except KeyError:
        target = h1.lean_target(endpoint.url("x"))
        wire = pool[key] = None if target is None else h1.Connections(target[0], target[1])
    return wire if isinstance(wire, h1.Connections) else None


def _head_for(endpoint: Endpoint, path: str) -> bytes:
    head = endpoint.heads.get(path)
    if head is None:
        url = endpoint.url(path)
        target = h1.lean_target(url)
        assert target is not None
        start = url.index("/", len("http://"))
        head = endpoint.heads[path] = h1.request_head(target[2], url[start:], endpoint.headers)
    return head


# ---------------------------------------------------------------- retries


def retry_after_s(headers: Mapping[str, str]) -> float | None:
    """Seconds the server asked us to wait (`retry-after-ms`, `retry-after`), if sane."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return _sane(float(raw_ms) / 1000.0)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return _sane(float(raw))
    except ValueError:
        pass
    try:  # an HTTP date; anything unreadable means our own backoff applies
        parsed = email.utils.parsedate_to_datetime(raw)
        return _sane(parsed.timestamp() - time.time())
    except (ValueError, TypeError, OverflowError, IndexError):
        return None


def _sane(seconds: float) -> float | None:
    return seconds if 0 <= seconds <= MAX_RETRY_AFTER_S else None


def backoff_s(attempt: int) -> float:
    """Exponential backoff with jitter, as the SDKs: 0.5 s, 1 s, 2 s … capped at 8 s."""
    base = min(INITIAL_BACKOFF_S * (2**attempt), MAX_BACKOFF_S)
    return base * (1 - 0.25 * random.random())


def _is_retryable_status(status: int, headers: Mapping[str, str]) -> bool:
    should = headers.get("x-should-retry")
    if should in ("true", "false"):
        return should == "true"
    return status in RETRYABLE_STATUS or status >= 500


def error_message(body: bytes) -> str:
    """The provider's own message out of an error body (OpenAI and Anthropic shapes)."""
    text = body.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return text.strip()[:500] or "(empty body)"
    err = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(err, dict) and err.get("message"):
        return str(err["message"])
    if isinstance(err, str):
        return err
    return text.strip()[:500]


def _status_error(endpoint: Endpoint, response: h1.Response, body: bytes) -> ProviderError:
    retryable = _is_retryable_status(response.status_code, response.headers)
    return ProviderStatusError(
        endpoint.provider, error_message(body), status=response.status_code, retryable=retryable
    )


def _connection_error(endpoint: Endpoint, exc: Exception) -> ProviderError:
    kind = "timed out" if isinstance(exc, httpx.TimeoutException) else "connection failed"
    detail = str(exc) or type(exc).__name__
    return ProviderConnectionError(
        endpoint.provider, f"{kind} calling {endpoint.base_url}: {detail}", retryable=True
    )


@dataclass(frozen=True, slots=True)
class Opened:
    """A 2xx response open for reading, and the loop time its body must be read by."""

    response: h1.Response  # httpx's or the lean client's
    deadline: float | None  # `asyncio.get_running_loop().time()`; None: no total bound


@asynccontextmanager
async def open_response(
    endpoint: Endpoint, path: str, body: dict[str, Any], stream: bool
) -> AsyncIterator[Opened]:
    """POST with retries until a 2xx response arrives; yields it open for reading.

    Retries happen only before the response is handed over, so a stream is never replayed
    after its first byte reached the caller.
    """
    opened = await _send_with_retries(endpoint, path, body, stream)
    try:
        yield opened
    finally:
        await opened.response.aclose()


async def _send_with_retries(
    endpoint: Endpoint, path: str, body: dict[str, Any], stream: bool
) -> Opened:
    content = _dumps(body)
    attempt = 0
    while True:
        try:
            return await _attempt(endpoint, path, content, stream)
        except ProviderError as err:
            if not err.retryable or attempt >= endpoint.max_retries:
                raise
            await retry_events.pause(endpoint, body, err, backoff_s(attempt), attempt)
        attempt += 1


async def _attempt(endpoint: Endpoint, path: str, content: bytes, stream: bool) -> Opened:
    """One try under the total deadline (a rate limiter's wait is not part of it)."""
    bucket = _bucket_for(endpoint)
    if bucket is not None:
        await bucket.acquire()
    if endpoint.deadline_s is None:
        return Opened(await _send_once(endpoint, path, content, stream), None)
    deadline = asyncio.get_running_loop().time() + endpoint.deadline_s
    try:
        async with asyncio.timeout_at(deadline):
            return Opened(await _send_once(endpoint, path, content, stream), deadline)
    except TimeoutError:
        raise deadline_error(endpoint, retryable=True) from None


async def _send_once(endpoint: Endpoint, path: str, content: bytes, stream: bool) -> h1.Response:
    response: h1.Response
    try:
        wire = _wire_for(endpoint)
        if wire is None:
            client = client_for(endpoint)
            request = client.build_request(
                "POST", endpoint.url(path), content=content, headers=dict(endpoint.headers)
            )
            response = await client.send(request, stream=stream)
        else:
            head = _head_for(endpoint, path)
            response = await wire.post(
                head, content, endpoint.connect_timeout_s, endpoint.timeout_s
            )
            if not stream:  # read whole inside the attempt, as httpx's send reads it
                try:
                    await response.aread()
                except BaseException:  # a broken body, the deadline: the connection goes
                    await response.aclose()
                    raise
    except httpx.LocalProtocolError as exc:  # a header that cannot be sent: no retry helps
        raise ProviderError(endpoint.provider, f"the request cannot be sent: {exc}") from None
    except httpx.TransportError as exc:
        raise _connection_error(endpoint, exc) from None
    except httpx.DecodingError as exc:
        raise decoding_error(endpoint, exc) from None
    if response.status_code < 400:
        return response
    raw = await _read_quietly(response)
    await response.aclose()
    err = _status_error(endpoint, response, raw)
    err.retry_after_s = retry_after_s(response.headers)
    raise err


async def _read_quietly(response: h1.Response) -> bytes:
    try:
        return await response.aread()
    except (httpx.TransportError, httpx.DecodingError):
        return b""


def _dumps(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def post_json(endpoint: Endpoint, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST a JSON body and return the decoded JSON reply.

    The whole body is read inside `send`, so a body that breaks off is a connection error
    and is retried like one.
    """
    async with open_response(endpoint, path, body, stream=False) as opened:
        return _decode_json(endpoint, opened.response.content)


def _decode_json(endpoint: Endpoint, raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except RecursionError:
        raise ProviderReplyError(endpoint.provider, "the JSON is nested too deeply") from None
    except UnicodeDecodeError as exc:
        raise ProviderReplyError(
            endpoint.provider, f"it is not valid UTF-8 (byte {exc.start})"
        ) from None
    except ValueError:
        raise ProviderReplyError(
            endpoint.provider, f"it is not JSON: {raw[:200].decode('utf-8', 'replace')!r}"
        ) from None
    if not isinstance(data, dict):
        raise ProviderReplyError(
            endpoint.provider, f"the reply is {describe(data)}, expected a JSON object"
        )
    return data
