"""A fake MCP server on 127.0.0.1 for tests: streamable HTTP, JSON-RPC 2.0, real sockets.

Input: the tools it serves (`FakeMcpTool`: name, description, input schema and the
`tools/call` result to give, or a function of the arguments that makes one). Output: the
MCP wire protocol at `server.url` (`…/mcp`): `initialize` (assigning an `Mcp-Session-Id`),
`notifications/initialized`, `tools/list` in pages of `page_size` with `nextCursor`,
`tools/call` (an unknown tool is a JSON-RPC error), DELETE ending a session. Replies are
`application/json`, or with `sse=True` a `text/event-stream` that sends a log
notification before each response. A tool with `server_request` sends that request from the
server first (what an elicitation or sampling request looks like on the wire, D23); one
with `rounds` may answer `input_required` with questions and read the retried call's
`inputResponses` (D22).
Every message is recorded in `server.requests` (method, params, session id).

Faults (what a broken or hostile server sends): `raw_results` maps a method to the raw bytes
of its result (spliced into the JSON-RPC response as they are: invalid JSON, invalid UTF-8,
a 100,000-deep schema, a list `nextCursor` …), in a JSON reply or an SSE `data:` line;
`session_id` is the `Mcp-Session-Id` header value `initialize` hands out (any latin-1 text).
Slow servers (what a total deadline must end, each read returning in time): `slow` maps a
method to `"stall"` (the headers of an event stream, then nothing), `"keepalive"` (keep-alive
comments every 0.1 s, never the response) or `"trickle"` (the reply a byte every 0.1 s);
each holds at most FAULT_HOLD_S, or until the client hangs up or the server stops.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from .fake_wire import FAULT_HOLD_S
from .loopback import LoopbackServer

Slow = Literal["stall", "keepalive", "trickle"]
BEAT_S = 0.1  # how often a slow fault sends (or checks that it may stop)

PROTOCOL_VERSION = "2025-06-18"
Result = dict[str, Any]


@dataclass
class FakeMcpTool:
    name: str
    input_schema: dict[str, Any] = field(default_factory=lambda: {"type": "object"})
    description: str | None = None
    result: Result | Callable[[dict[str, Any]], Result] = field(
        default_factory=lambda: {"content": []}
    )
    server_request: dict[str, Any] | None = None  # sent before the response (SSE only)
    # D22: given the whole `tools/call` params (arguments, inputResponses, requestState),
    # returns the result, e.g. an `input_required` one asking questions; replaces `result`
    rounds: Callable[[dict[str, Any]], Result] | None = None

    def listing(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "inputSchema": self.input_schema}
        if self.description is not None:
            out["description"] = self.description
        return out

    def call(self, params: dict[str, Any]) -> Result:
        if self.rounds is not None:
            return self.rounds(params)
        arguments = params.get("arguments") or {}
        return self.result(arguments) if callable(self.result) else self.result


@dataclass
class Recorded:
    method: str | None  # None: a DELETE
    params: Any
    session: str | None


class FakeMcpServer(LoopbackServer):
    """The server; `start()` runs it on a daemon thread, `url` is its MCP endpoint."""

    def __init__(
        self,
        tools: Sequence[FakeMcpTool] = (),
        *,
        page_size: int | None = None,
        sse: bool = False,
        raw_results: dict[str, bytes] | None = None,
        session_id: str | None = None,
        slow: dict[str, Slow] | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.tools = list(tools)
        self.page_size, self.sse = page_size, sse
        self.raw_results = dict(raw_results or {})
        self.session_id = session_id
        self.slow: dict[str, Slow] = dict(slow or {})
        self.stopping = threading.Event()  # releases the slow faults' handlers
        self.requests: list[Recorded] = []
        self.sessions: set[str] = set()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer((host, port), _handler_for(self))
        self._httpd.daemon_threads = True

    @property
    def url(self) -> str:
        return self.origin + "/mcp"

    def stop(self) -> None:
        self.stopping.set()
        super().stop()

    def methods(self) -> list[str | None]:
        return [r.method for r in self.requests]

    def record(self, r: Recorded) -> None:
        with self._lock:
            self.requests.append(r)

    # ------------------------------------------------------------ JSON-RPC

    def answer(self, message: dict[str, Any], session: str | None) -> tuple[Any, str | None]:
        """(the reply message or None for a notification, a new session id or None)."""
        method, params = message.get("method"), message.get("params") or {}
        if method == "initialize":
            sid = self.session_id or uuid.uuid4().hex
            with self._lock:
                self.sessions.add(sid)
            return _ok(
                message,
                {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {"tools": {"listChanged": False}},
                    "serverInfo": {"name": "fake-mcp", "version": "1"},
                },
            ), sid
        if "id" not in message:
            return None, None
        if method == "tools/list":
            return _ok(message, self._page(params.get("cursor"))), None
        if method == "tools/call":
            tool = next((t for t in self.tools if t.name == params.get("name")), None)
            if tool is None:
                return _err(message, -32602, f"Unknown tool: {params.get('name')}"), None
            return _ok(message, tool.call(params)), None
        return _err(message, -32601, f"Method not found: {method}"), None

    def _page(self, cursor: str | None) -> Result:
        start = int(cursor or 0)
        size = self.page_size or len(self.tools) or 1
        page = self.tools[start : start + size]
        out: Result = {"tools": [t.listing() for t in page]}
        if start + size < len(self.tools):
            out["nextCursor"] = str(start + size)
        return out


def _ok(message: dict[str, Any], result: Result) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": message.get("id"), "result": result}


def _err(message: dict[str, Any], code: int, text: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": code, "message": text}}


def _handler_for(server: FakeMcpServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        fake = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    fake: FakeMcpServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def do_DELETE(self) -> None:
        sid = self.headers.get("Mcp-Session-Id")
        self.fake.record(Recorded(None, None, sid))
        self.fake.sessions.discard(sid or "")
        self._send(200, b"", "application/json")

    def do_POST(self) -> None:
        if self.path.split("?")[0].rstrip("/") != "/mcp":
            return self._send(404, b"no such endpoint", "text/plain")
        message = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
        sid = self.headers.get("Mcp-Session-Id")
        self.fake.record(Recorded(message.get("method"), message.get("params"), sid))
        if message.get("method") != "initialize" and sid not in self.fake.sessions:
            return self._send(400, b"missing or unknown Mcp-Session-Id", "text/plain")
        reply, new_sid = self.fake.answer(message, sid)
        if reply is None:
            return self._send(202, b"", "application/json")
        tool = self._tool(message)
        body = self._body(message, reply)
        slow = self.fake.slow.get(str(message.get("method")))
        if slow is not None:
            return self._slow(slow, body, new_sid)
        if self.fake.sse:
            return self._stream(body, new_sid, tool.server_request if tool else None)
        self._send(200, body, "application/json", new_sid)

    def _body(self, message: dict[str, Any], reply: Any) -> bytes:
        raw = self.fake.raw_results.get(str(message.get("method")))
        if raw is None:
            return json.dumps(reply).encode()
        head = json.dumps({"jsonrpc": "2.0", "id": message.get("id")})[:-1].encode()
        return head + b', "result": ' + raw + b"}"

    def _tool(self, message: dict[str, Any]) -> FakeMcpTool | None:
        if message.get("method") != "tools/call":
            return None
        name = (message.get("params") or {}).get("name")
        return next((t for t in self.fake.tools if t.name == name), None)

    def _stream(self, reply: bytes, sid: str | None, request: dict[str, Any] | None) -> None:
        events = [
            {
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {"level": "info", "data": "working"},
            }
        ]
        if request is not None:
            events.append({"jsonrpc": "2.0", "id": "srv-1", **request})
        lines = [json.dumps(e).encode() for e in events] + [reply]
        body = b"".join(b"event: message\ndata: " + line + b"\n\n" for line in lines)
        self._send(200, body, "text/event-stream", sid)

    def _slow(self, mode: Slow, body: bytes, sid: str | None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        if sid is not None:
            self.send_header("Mcp-Session-Id", sid)
        self.end_headers()
        pending = b"event: message\ndata: " + body + b"\n\n" if mode == "trickle" else b""
        ends = time.monotonic() + FAULT_HOLD_S
        try:
            while time.monotonic() < ends and not self.fake.stopping.wait(BEAT_S):
                if mode == "keepalive":
                    self.wfile.write(b"e\r\n: keep-alive\n\n\r\n")
                elif mode == "trickle" and pending:
                    self.wfile.write(b"1\r\n" + pending[:1] + b"\r\n")
                    pending = pending[1:]
                self.wfile.flush()
        except OSError:
            pass  # the client gave up
        self.close_connection = True

    def _send(self, status: int, body: bytes, kind: str, sid: str | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if sid is not None:
            self.send_header("Mcp-Session-Id", sid)
        self.end_headers()
        self.wfile.write(body)
