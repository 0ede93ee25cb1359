"""A fake model provider on 127.0.0.1 that speaks the real wire formats, faults included.

Input: scripted replies (`FakeReply`), pushed in order by a test (`server.push(...)`) or over
HTTP (`POST /_fake/push` with the reply as JSON). Output: real HTTP answers to OpenAI chat
completions (`…/chat/completions`) and Anthropic messages (`…/v1/messages`), plain JSON or
server-sent events, with tool calls, usage and stop reasons; and scripted faults: an error
status with `Retry-After`, a slow answer, a dropped connection, malformed tool-call JSON, a
stream cut off mid-way, malformed replies sent as given (`body`, `raw` bytes such as
gzip garbage or invalid UTF-8, stream `events`), and answers that never complete though
every read returns in time: a byte at a time (`trickle_s`), keep-alive comments for ever
(`keepalive_s`), headers and then silence (`stall`). Every request is recorded (path, headers,
body, timings) for tests to assert the wire format (`server.requests`, or
`GET /_fake/requests`).

Standard library only; the wire bodies are written by `fake_wire.py`. Run it by hand:

    python -m agentc.testing.fake_provider --port 0
    # prints: fake provider listening on http://127.0.0.1:PORT
    # then use base URL http://127.0.0.1:PORT/v1 (OpenAI) or http://127.0.0.1:PORT (Anthropic)
"""

from __future__ import annotations

import argparse
import io
import json
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .fake_wire import (
    ANTHROPIC,
    FAULT_HOLD_S,
    OPENAI,
    FakeReply,
    FakeToolCall,
    raw_bytes,
    scripted_events,
)
from .loopback import LoopbackServer

__all__ = ["FakeProviderServer", "FakeReply", "FakeToolCall", "RecordedRequest", "main"]


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: Any
    received_at: float  # time.perf_counter() on the server
    first_byte_at: float | None = None  # when the first byte of the answer body was sent


class FakeProviderServer(LoopbackServer):
    """The server; `start()` runs it on a daemon thread, `url` is its address."""

    def __init__(
        self, host: str = "127.0.0.1", port: int = 0, default_reply: FakeReply | None = None
    ) -> None:
        self._queue: deque[FakeReply] = deque()
        self._lock = threading.Lock()
        self.requests: list[RecordedRequest] = []
        self.default_reply = default_reply
        self._httpd = _QuietServer((host, port), _handler_for(self))
        self._httpd.daemon_threads = True
        self.stopping = threading.Event()  # releases the slow faults' handlers

    def stop(self) -> None:
        self.stopping.set()
        super().stop()

    @property
    def url(self) -> str:
        return self.origin

    @property
    def openai_base_url(self) -> str:
        return self.url + "/v1"

    def push(self, *replies: FakeReply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def reset(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()

    def pending(self) -> int:
        return len(self._queue)

    def _next(self) -> FakeReply | None:
        with self._lock:
            return self._queue.popleft() if self._queue else self.default_reply

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)


class _QuietServer(ThreadingHTTPServer):
    # socketserver's backlog of 5 drops the connections of many calls at once (the client
    # resends them after 1 s, 3 s … of TCP backoff); a real server's backlog is in the 1000s
    request_queue_size = 1024

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that hangs up mid-answer (it stopped reading a reply it cannot use) is
        # expected here; anything else is still reported.
        exc = sys.exc_info()[1]
        if not isinstance(exc, (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


def _handler_for(server: FakeProviderServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        fake = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, chunked streams
    # TCP_NODELAY: a small write right after another is sent at once, not held back until
    # the client acknowledges the first (Nagle), which a client that delays its ACK does
    # only after about 40 ms on Linux — a stall every test and benchmark would measure
    disable_nagle_algorithm = True
    fake: FakeProviderServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def do_GET(self) -> None:
        self.reply = None
        if self.path.rstrip("/") == "/_fake/requests":
            self._send_json(200, [asdict(r) for r in self.fake.requests])
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        self.reply = None  # a kept-alive connection's last answer is not this one's
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        path = self.path.split("?")[0].rstrip("/")
        if path.startswith("/_fake/"):
            return self._control(path, body)
        wire = _wire_of(path)
        if wire is None:
            return self._send_json(404, {"error": {"message": f"no route {self.path}"}})
        record = RecordedRequest(
            path=path,
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
            received_at=time.perf_counter(),
        )
        self.fake._record(record)
        self._answer(wire, body if isinstance(body, dict) else {}, record)

    def _control(self, path: str, body: Any) -> None:
        if path == "/_fake/push":
            items = body if isinstance(body, list) else [body]
            self.fake.push(*(FakeReply.from_dict(i) for i in items))
        elif path == "/_fake/reset":
            self.fake.reset()
        else:
            return self._send_json(404, {"error": {"message": f"no route {path}"}})
        self._send_json(200, {"pending": self.fake.pending()})

    reply: FakeReply | None = None  # the answer being written

    def _answer(self, wire: str, body: dict[str, Any], record: RecordedRequest) -> None:
        reply = self.reply = self.fake._next()
        if reply is None:
            return self._send_json(400, _error_body(wire, "fake server: no scripted reply queued"))
        if reply.delay_s:
            time.sleep(reply.delay_s)
        if reply.drop:
            return self._drop()
        if reply.stall or reply.keepalive_s:
            return self._hold(reply, record)
        if reply.status is not None and reply.raw is not None:
            return self._send_bytes(reply.status, raw_bytes(reply.raw), reply.headers)
        if reply.status is not None:
            return self._send_json(
                reply.status, _error_body(wire, reply.error_message), reply.headers
            )
        if body.get("stream") and reply.events is not None:
            return self._stream(iter(scripted_events(reply)), 0, reply, record)
        if reply.raw is not None:
            record.first_byte_at = time.perf_counter()
            return self._send_bytes(200, raw_bytes(reply.raw), reply.headers)
        if reply.body is not None:
            record.first_byte_at = time.perf_counter()
            return self._send_json(200, reply.body, reply.headers)
        model = reply.model or body.get("model") or "fake-model"
        render = OPENAI if wire == "openai" else ANTHROPIC
        if body.get("stream"):
            self._stream(render.events(reply, model), render.TAIL, reply, record)
        else:
            record.first_byte_at = time.perf_counter()
            self._send_json(200, render.message(reply, model), reply.headers)

    # -------------------------------------------------------------- writing

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._send_bytes(status, json.dumps(payload).encode(), headers)

    def _send_bytes(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if self.reply is not None and self.reply.trickle_s:
            self.end_headers()
            self._write(data)
            return
        # headers and body in one write, one packet for a small answer (`end_headers`
        # alone writes the headers on their own)
        head, socket_file = io.BytesIO(), self.wfile
        self.wfile = head
        try:
            self.end_headers()
        finally:
            self.wfile = socket_file
        socket_file.write(head.getvalue() + data)

    def _write(self, data: bytes) -> None:
        """The bytes, at once or (a `trickle_s` fault) one at a time."""
        reply = self.reply
        if reply is None or not reply.trickle_s:
            self.wfile.write(data)
            return
        ends = time.monotonic() + FAULT_HOLD_S
        for i in range(len(data)):
            self.wfile.write(data[i : i + 1])
            self.wfile.flush()
            if self.fake.stopping.wait(reply.trickle_s) or time.monotonic() > ends:
                return self._drop()

    def _hold(self, reply: FakeReply, record: RecordedRequest) -> None:
        """Headers of a stream, then keep-alive comments (`keepalive_s`) or nothing
        (`stall`) until the client hangs up, the server stops or FAULT_HOLD_S passes."""
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        record.first_byte_at = time.perf_counter()
        ends = time.monotonic() + FAULT_HOLD_S
        beat = reply.keepalive_s or 0.05
        while time.monotonic() < ends and not self.fake.stopping.wait(beat):
            if reply.keepalive_s:
                try:
                    self.wfile.write(b"e\r\n: keep-alive\n\n\r\n")
                    self.wfile.flush()
                except OSError:
                    return  # the client gave up
        self._drop()

    def _stream(
        self, events: Iterator[bytes], tail: int, reply: FakeReply, record: RecordedRequest
    ) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        for k, v in reply.headers.items():
            self.send_header(k, v)
        self.end_headers()
        sent = list(events)
        if reply.omit_end:
            sent = sent[:-tail]  # everything that says the reply is complete
        for n, event in enumerate(sent):
            if reply.truncate_after is not None and n >= reply.truncate_after:
                return self._drop()
            if n and reply.chunk_delay_s:
                time.sleep(reply.chunk_delay_s)
            if record.first_byte_at is None:
                record.first_byte_at = time.perf_counter()
            if reply.trickle_s:  # one chunk per byte of the event
                for i in range(len(event)):
                    self.wfile.write(b"1\r\n%s\r\n" % event[i : i + 1])
                    self.wfile.flush()
                    if self.fake.stopping.wait(reply.trickle_s):
                        return self._drop()
                continue
            step = reply.split_bytes or len(event) or 1
            for i in range(0, len(event), step):  # small pieces, as a slow network reads
                self.wfile.write(b"%x\r\n%s\r\n" % (len(event[i : i + step]), event[i : i + step]))
        self.wfile.write(b"0\r\n\r\n")

    def _drop(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _wire_of(path: str) -> str | None:
    if path.endswith("/chat/completions"):
        return "openai"
    if path.endswith("/messages"):
        return "anthropic"
    return None


def _error_body(wire: str, message: str) -> dict[str, Any]:
    if wire == "anthropic":
        return {"type": "error", "error": {"type": "api_error", "message": message}}
    return {"error": {"message": message, "type": "server_error", "code": None}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument(
        "--echo",
        action="store_true",
        help="answer 'ok' when no reply is queued (default: a 400 error)",
    )
    args = parser.parse_args(argv)
    server = FakeProviderServer(
        args.host, args.port, default_reply=FakeReply(text="ok") if args.echo else None
    )
    print(f"fake provider listening on {server.url}", flush=True)
    try:
        server._httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
