"""A lean HTTP/1.1 client for the providers' plain `http://` endpoints (a local model server).

Input: a host and port, a request head built once per endpoint and path, a JSON body. Output:
a `Reply` (status, headers, the body read whole or as it arrives). Invariants: one request at
a time on a connection; idle connections kept alive (5 s, as httpx keeps them) and reused,
newest first; at most `MAX_CONNECTIONS` requests in flight per pool (a wait for one is
bounded by the read timeout); the head and the body leave in one write, so a small request
is one TCP segment; a body is framed by Content-Length, chunked coding, or the close of the
connection (RFC 9112 §6.3); gzip, deflate and zstd bodies are decoded as httpx decodes them
(codings.py), and the same headers are sent (h1_head.py). The read timeout bounds each wait
for bytes, as httpx's does. Every failure is the httpx exception httpx raises for it
(`ConnectError`, `ConnectTimeout`, `ReadTimeout`, `PoolTimeout`, `RemoteProtocolError`,
`ReadError`, `DecodingError`), so the retries and error mapping in http.py are one for both
transports. https, a proxy taken from the environment, or a URL with credentials or a query
goes through httpx instead (`lean_target`).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Mapping
from typing import Protocol, cast

import httpx

from .codings import decoder_for
from .h1_head import lean_target, request_head

__all__ = ["lean_target", "request_head"]

MAX_CONNECTIONS = 1000  # as the httpx client's limits
MAX_IDLE = 100
KEEPALIVE_EXPIRY_S = 5.0  # as httpx: an older idle connection may be closing at the server
MAX_HEAD = 64 * 1024  # a response head, or a chunk-size or trailer line, larger is refused
_HEX = re.compile(rb"[0-9A-Fa-f]{1,16}")

_HEAD, _LENGTH, _CHUNK_SIZE, _CHUNK_DATA, _CHUNK_END, _TRAILER, _UNTIL_CLOSE, _DONE = range(8)


class Response(Protocol):
    """What http.py reads off a response, from either transport (httpx's or this one)."""

    @property
    def status_code(self) -> int: ...
    @property
    def headers(self) -> Mapping[str, str]: ...
    @property
    def content(self) -> bytes: ...
    async def aread(self) -> bytes: ...
    def aiter_bytes(self) -> AsyncIterator[bytes]: ...
    async def aclose(self) -> None: ...


# ---------------------------------------------------------------- one connection


class _Conn(asyncio.Protocol):
    """One kept-alive connection; the response is parsed as its bytes arrive."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.busy = False
        self.state = _DONE
        self.rest = b""  # bytes of a head or framing line whose end has not arrived
        self.pieces: list[bytes] = []  # body bytes (still encoded) not yet taken
        self.status = 0
        self.headers: dict[str, str] = {}
        self.remaining = 0
        self.keep_alive = True
        self.error: Exception | None = None
        self.waiter: asyncio.Future[None] | None = None
        self.read_timeout: float | None = None
        self.last = 0.0
        self.timer: asyncio.TimerHandle | None = None
        self.idle_since = 0.0

    # -- asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # a stream transport, though not always an `asyncio.Transport` subclass: uvloop's
        # (uvicorn's loop, so `agentc serve`'s) are its own classes with the same methods
        self.transport = cast(asyncio.Transport, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.state == _UNTIL_CLOSE:
            self._finish()
        elif self.busy and self.state != _DONE and self.error is None:
            if exc is not None:
                self.error = httpx.ReadError(str(exc) or type(exc).__name__)
            elif self.state == _HEAD:
                self.error = httpx.RemoteProtocolError(
                    "Server disconnected without sending a response."
                )
            else:
                self.error = httpx.RemoteProtocolError(
                    "peer closed connection without sending complete message body"
                )
        self._wake()

    def data_received(self, data: bytes) -> None:
        if not self.busy or self.state == _DONE:  # bytes nobody asked for: never reuse
            self.keep_alive = False
            self.close()
            return
        self.last = self.loop.time()
        try:
            self._feed(self.rest + data if self.rest else data)
        except httpx.RemoteProtocolError as exc:
            self.error = exc
            self.close()
        self._wake()

    # -- parsing

    def _feed(self, data: bytes) -> None:
        self.rest = b""
        pos, end = 0, len(data)
        while pos < end:
            state = self.state
            if state == _LENGTH:
                take = min(self.remaining, end - pos)
                self.pieces.append(data[pos : pos + take] if pos or take < end else data)
                pos += take
                self.remaining -= take
                if not self.remaining:
                    self._finish()
            elif state == _HEAD:
                pos = self._head(data, pos)
                if pos < 0:
                    return
            elif state == _CHUNK_DATA:
                take = min(self.remaining, end - pos)
                self.pieces.append(data[pos : pos + take])
                pos += take
                self.remaining -= take
                if not self.remaining:
                    self.state = _CHUNK_END
            elif state == _UNTIL_CLOSE:
                self.pieces.append(data[pos:] if pos else data)
                return
            elif state == _DONE:  # bytes after the response: the connection is not reused
                self.keep_alive = False
                return
            else:  # a chunk size line, the CRLF after a chunk, or a trailer line
                nl = data.find(b"\n", pos)
                if nl < 0:
                    if end - pos > MAX_HEAD:
                        raise httpx.RemoteProtocolError("a chunk line is too long")
                    self.rest = data[pos:]
                    return
                line = data[pos:nl].rstrip(b"\r")
                pos = nl + 1
                self._framing_line(state, line)

    def _framing_line(self, state: int, line: bytes) -> None:
        if state == _CHUNK_SIZE:
            size = line.split(b";", 1)[0].strip(b" \t")
            if not _HEX.fullmatch(size):
                raise httpx.RemoteProtocolError(f"bad chunk size {size[:20]!r}")
            self.remaining = int(size, 16)
            self.state = _CHUNK_DATA if self.remaining else _TRAILER
        elif state == _CHUNK_END:
            if line:
                raise httpx.RemoteProtocolError("a chunk is longer than its size")
            self.state = _CHUNK_SIZE
        elif not line:  # the blank line after the trailers
            self._finish()

    def _head(self, data: bytes, pos: int) -> int:
        """Parse a whole head at `pos` (returns where its body starts), or keep the bytes
        for later (returns -1)."""
        cut = data.find(b"\r\n\r\n", pos)
        size = 4
        bare = data.find(b"\n\n", pos)
        if bare >= 0 and (cut < 0 or bare < cut):
            cut, size = bare, 2
        if cut < 0:
            if len(data) - pos > MAX_HEAD:
                raise httpx.RemoteProtocolError("the response head is too long")
            self.rest = data[pos:]
            return -1
        lines = data[pos:cut].split(b"\n")
        version, _, rest = lines[0].rstrip(b"\r").partition(b" ")
        code = rest[:3]
        if not version.startswith(b"HTTP/1.") or not code.isdigit() or rest[3:4] not in b" ":
            raise httpx.RemoteProtocolError(f"not an HTTP/1.1 status line: {lines[0][:40]!r}")
        status = int(code)
        headers: dict[str, str] = {}
        last = ""
        for raw in lines[1:]:
            raw = raw.rstrip(b"\r")
            if raw[:1] in (b" ", b"\t") and last:  # an obsolete folded line
                headers[last] += " " + raw.strip(b" \t").decode("latin-1")
                continue
            name, colon, value = raw.partition(b":")
            if not colon or not name or name != name.strip(b" \t"):
                raise httpx.RemoteProtocolError(f"bad header line {raw[:40]!r}")
            last = name.decode("latin-1").lower()
            text = value.strip(b" \t").decode("latin-1")
            headers[last] = f"{headers[last]}, {text}" if last in headers else text
        if 100 <= status < 200:
            if status == 101:
                raise httpx.RemoteProtocolError("the server switched protocols unasked")
            return cut + size  # an interim answer (103 Early Hints …): the real one follows
        self.status, self.headers = status, headers
        tokens = headers.get("connection", "").lower()
        if version == b"HTTP/1.0":
            self.keep_alive = "keep-alive" in tokens
        elif "close" in tokens:
            self.keep_alive = False
        self._framing(status, headers)
        return cut + size

    def _framing(self, status: int, headers: dict[str, str]) -> None:
        coding = headers.get("transfer-encoding")
        length = headers.get("content-length")
        if status in (204, 304):
            self._finish()
        elif coding is not None:
            if coding.strip().lower() != "chunked":
                raise httpx.RemoteProtocolError(f"unsupported Transfer-Encoding {coding!r}")
            self.state = _CHUNK_SIZE
        elif length is not None:
            values = {v.strip() for v in length.split(",")}
            value = values.pop()
            if values or not value.isdigit():
                raise httpx.RemoteProtocolError(f"bad Content-Length {length!r}")
            self.remaining = int(value)
            self.state = _LENGTH
            if not self.remaining:
                self._finish()
        else:
            self.keep_alive = False
            self.state = _UNTIL_CLOSE

    def _finish(self) -> None:
        self.state = _DONE
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    # -- what the request side uses

    def start(self, read_timeout: float | None) -> None:
        self.busy = True
        self.state = _HEAD
        self.pieces = []
        self.error = None
        self.read_timeout = read_timeout
        self.last = self.loop.time()

    async def wait(self) -> None:
        """Until more of the response arrived, the connection failed, or the read timed
        out."""
        if self.error is None and not self.closed:
            self.last = self.loop.time()  # as httpx: each wait for bytes is bounded
            self.waiter = self.loop.create_future()
            if self.timer is None and self.read_timeout is not None:
                self.timer = self.loop.call_at(self.last + self.read_timeout, self._on_timer)
            try:
                await self.waiter
            finally:
                self.waiter = None
        if self.error is not None:
            raise self.error
        if self.closed and self.state != _DONE:
            raise httpx.RemoteProtocolError("the connection closed")

    def _on_timer(self) -> None:
        self.timer = None
        if self.waiter is None or self.state == _DONE or self.read_timeout is None:
            return  # nobody waits for bytes now: the next wait sets the timer again
        due = self.last + self.read_timeout
        if self.loop.time() < due:  # bytes came meanwhile: wait out the rest
            self.timer = self.loop.call_at(due, self._on_timer)
            return
        self.error = httpx.ReadTimeout(f"no bytes for {self.read_timeout:g} s")
        self.close()
        self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def close(self) -> None:
        self.keep_alive = False
        self.closed = True
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.transport is not None:
            self.transport.close()


# ---------------------------------------------------------------- the pool


class Connections:
    """The kept-alive connections to one host and port, in one event loop."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.idle: list[_Conn] = []
        self.slots = asyncio.Semaphore(MAX_CONNECTIONS)
        self.in_flight = 0  # requests holding a slot
        self.is_closed = False

    async def post(
        self,
        head: bytes,
        content: bytes,
        connect_timeout: float | None,
        read_timeout: float | None,
    ) -> Reply:
        """Send one request; returns once the response's head has arrived."""
        if self.slots.locked():
            try:
                async with asyncio.timeout(read_timeout):
                    await self.slots.acquire()
            except TimeoutError:
                raise httpx.PoolTimeout("no free connection in time") from None
        else:
            await self.slots.acquire()
        self.in_flight += 1
        conn: _Conn | None = None
        try:
            conn = await self._take(connect_timeout)
            conn.start(read_timeout)
            assert conn.transport is not None
            conn.transport.write(b"%s%d\r\n\r\n%s" % (head, len(content), content))
            while conn.state == _HEAD:
                await conn.wait()
        except BaseException:
            if conn is not None:
                conn.close()
            self.in_flight -= 1
            self.slots.release()
            raise
        return Reply(self, conn)

    async def _take(self, connect_timeout: float | None) -> _Conn:
        loop = asyncio.get_running_loop()
        while self.idle:
            conn = self.idle.pop()
            if not conn.closed and loop.time() - conn.idle_since < KEEPALIVE_EXPIRY_S:
                return conn
            conn.close()
        try:
            async with asyncio.timeout(connect_timeout):
                _, conn = await loop.create_connection(lambda: _Conn(loop), self.host, self.port)
        except TimeoutError:
            raise httpx.ConnectTimeout(f"no connection within {connect_timeout:g} s") from None
        except OSError as exc:
            raise httpx.ConnectError(str(exc) or type(exc).__name__) from None
        return conn

    def give_back(self, conn: _Conn) -> None:
        conn.busy = False
        self.in_flight -= 1
        self.slots.release()
        if conn.state != _DONE or not conn.keep_alive or conn.closed or self.is_closed:
            conn.close()
        elif len(self.idle) < MAX_IDLE:
            conn.idle_since = conn.loop.time()
            self.idle.append(conn)
        else:
            conn.close()

    def close(self) -> None:
        self.is_closed = True
        for conn in self.idle:
            conn.close()
        self.idle.clear()


class Reply:
    """A response on a pooled connection; read it whole or as it arrives, then close it."""

    def __init__(self, pool: Connections, conn: _Conn) -> None:
        self._pool: Connections | None = pool
        self._conn = conn
        self.status_code = conn.status
        self.headers: Mapping[str, str] = conn.headers
        self._decoder = decoder_for(conn.headers.get("content-encoding"))
        self.content = b""
        self._read = False

    async def aread(self) -> bytes:
        if self._read:
            return self.content
        conn = self._conn
        while conn.state != _DONE:
            await conn.wait()
        raw = b"".join(conn.pieces) if len(conn.pieces) != 1 else conn.pieces[0]
        conn.pieces = []
        decoder = self._decoder
        self.content = raw if decoder is None else decoder.decode(raw) + decoder.flush()
        self._read = True
        await self.aclose()
        return self.content

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        conn, decoder = self._conn, self._decoder
        while True:
            if conn.pieces:
                pieces, conn.pieces = conn.pieces, []
                raw = b"".join(pieces) if len(pieces) > 1 else pieces[0]
                out = raw if decoder is None else decoder.decode(raw)
                if out:
                    yield out
            elif conn.state == _DONE:
                break
            else:
                await conn.wait()
        tail = b"" if decoder is None else decoder.flush()
        if tail:
            yield tail

    async def aclose(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.give_back(self._conn)
