"""A fake model provider on 127.0.0.1 that speaks the real wire formats, faults included.

Input: scripted replies (`FakeReply`), pushed in order by a test (`server.push(...)`) or over
HTTP (`POST /_fake/push` with the reply as JSON). Output: real HTTP answers to OpenAI chat
completions (`…/chat/completions`) and Anthropic messages (`…/v1/messages`), plain JSON or
server-sent events, with tool calls, usage and stop reasons; and scripted faults: an error
status with `Retry-After`, a slow answer, a dropped connection, malformed tool-call JSON, a
stream cut off mid-way. Every request is recorded (path, headers, body, timings) for tests
to assert the wire format (`server.requests`, or `GET /_fake/requests`).

Standard library only. Run it by hand:

    python -m agentc.testing.fake_provider --port 0
    # prints: fake provider listening on http://127.0.0.1:PORT
    # OpenAI base URL: http://127.0.0.1:PORT/v1   Anthropic base URL: http://127.0.0.1:PORT
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .loopback import LoopbackServer


@dataclass
class FakeToolCall:
    name: str
    arguments: str = "{}"  # raw JSON text, sent as is (so it may be malformed on purpose)
    id: str | None = None


@dataclass
class FakeReply:
    """One scripted answer. Fault fields are off by default."""

    text: str = ""
    tool_calls: list[FakeToolCall] = field(default_factory=list)
    finish_reason: str | None = None  # default: tool calls → tool_calls/tool_use, else stop
    input_tokens: int = 11
    output_tokens: int = 7
    chunks: list[str] | None = None  # how the text is split into stream events
    status: int | None = None  # an error status instead of an answer
    error_message: str = "scripted failure"
    headers: dict[str, str] = field(default_factory=dict)  # e.g. {"retry-after": "0"}
    delay_s: float = 0.0  # before the answer starts (slow responses, timeouts)
    chunk_delay_s: float = 0.0  # between stream events
    drop: bool = False  # close the connection without answering
    truncate_after: int | None = None  # stream: cut the connection after this many events
    omit_end: bool = False  # stream: end cleanly, without the events that finish the reply
    model: str | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FakeReply:
        data = dict(data)
        data["tool_calls"] = [FakeToolCall(**c) for c in data.get("tool_calls", [])]
        return cls(**data)


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
        self._httpd = ThreadingHTTPServer((host, port), _handler_for(self))
        self._httpd.daemon_threads = True

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


def _handler_for(server: FakeProviderServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        fake = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, chunked streams
    fake: FakeProviderServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/_fake/requests":
            self._send_json(200, [asdict(r) for r in self.fake.requests])
        else:
            self._send_json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
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

    def _answer(self, wire: str, body: dict[str, Any], record: RecordedRequest) -> None:
        reply = self.fake._next()
        if reply is None:
            return self._send_json(400, _error_body(wire, "fake server: no scripted reply queued"))
        if reply.delay_s:
            time.sleep(reply.delay_s)
        if reply.drop:
            return self._drop()
        if reply.status is not None:
            return self._send_json(
                reply.status, _error_body(wire, reply.error_message), reply.headers
            )
        model = reply.model or body.get("model") or "fake-model"
        render = _OPENAI if wire == "openai" else _ANTHROPIC
        if body.get("stream"):
            self._stream(render.events(reply, model), render.TAIL, reply, record)
        else:
            record.first_byte_at = time.perf_counter()
            self._send_json(200, render.message(reply, model), reply.headers)

    # -------------------------------------------------------------- writing

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _stream(
        self, events: Iterator[bytes], tail: int, reply: FakeReply, record: RecordedRequest
    ):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        events = list(events)
        if reply.omit_end:
            events = events[:-tail]  # everything that says the reply is complete
        for n, event in enumerate(events):
            if reply.truncate_after is not None and n >= reply.truncate_after:
                return self._drop()
            if n and reply.chunk_delay_s:
                time.sleep(reply.chunk_delay_s)
            if record.first_byte_at is None:
                record.first_byte_at = time.perf_counter()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
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


def _split_text(reply: FakeReply) -> list[str]:
    if reply.chunks is not None:
        return reply.chunks
    return re.findall(r"\S+\s*|\s+", reply.text)


def _split_args(text: str, size: int = 7) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _sse(data: Any, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    payload = data if isinstance(data, str) else json.dumps(data)
    return f"{head}data: {payload}\n\n".encode()


def _call_id(call: FakeToolCall, n: int, prefix: str) -> str:
    return call.id or f"{prefix}{n}_{uuid.uuid4().hex[:8]}"


class _OpenAIRender:
    TAIL = 3  # the finish chunk, the usage chunk, [DONE]

    def message(self, reply: FakeReply, model: str) -> dict[str, Any]:
        calls = [
            {
                "id": _call_id(c, n, "call_"),
                "type": "function",
                "function": {"name": c.name, "arguments": c.arguments},
            }
            for n, c in enumerate(reply.tool_calls)
        ]
        msg: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
        if calls:
            msg["tool_calls"] = calls
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "message": msg, "finish_reason": _finish(reply, "openai")}],
            "usage": _openai_usage(reply),
        }

    def events(self, reply: FakeReply, model: str) -> Iterator[bytes]:
        base = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
        }

        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            return _sse(
                {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            )

        yield chunk({"role": "assistant", "content": ""})
        for piece in _split_text(reply):
            yield chunk({"content": piece})
        for n, call in enumerate(reply.tool_calls):
            pieces = _split_args(call.arguments)
            yield chunk(
                {
                    "tool_calls": [
                        {
                            "index": n,
                            "id": _call_id(call, n, "call_"),
                            "type": "function",
                            "function": {"name": call.name, "arguments": pieces[0]},
                        }
                    ]
                }
            )
            for piece in pieces[1:]:
                yield chunk({"tool_calls": [{"index": n, "function": {"arguments": piece}}]})
        yield chunk({}, _finish(reply, "openai"))
        yield _sse({**base, "choices": [], "usage": _openai_usage(reply)})
        yield _sse("[DONE]")


class _AnthropicRender:
    TAIL = 2  # message_delta (stop reason), message_stop

    def message(self, reply: FakeReply, model: str) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        if reply.text:
            content.append({"type": "text", "text": reply.text})
        for n, call in enumerate(reply.tool_calls):
            try:
                args: Any = json.loads(call.arguments) if call.arguments else {}
            except ValueError:
                args = call.arguments  # malformed on purpose: sent as a raw string
            content.append(
                {
                    "type": "tool_use",
                    "id": _call_id(call, n, "toolu_"),
                    "name": call.name,
                    "input": args,
                }
            )
        return {
            "id": f"msg_{uuid.uuid4().hex[:12]}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": _finish(reply, "anthropic"),
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
        }

    def events(self, reply: FakeReply, model: str) -> Iterator[bytes]:
        start = {
            "id": f"msg_{uuid.uuid4().hex[:12]}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
        }
        yield _sse({"type": "message_start", "message": start}, "message_start")
        index = 0
        if reply.text or not reply.tool_calls:
            yield from self._text_block(index, _split_text(reply))
            index += 1
        yield _sse({"type": "ping"}, "ping")
        for n, call in enumerate(reply.tool_calls):
            yield from self._tool_block(index, n, call)
            index += 1
        yield _sse(
            {
                "type": "message_delta",
                "delta": {"stop_reason": _finish(reply, "anthropic"), "stop_sequence": None},
                "usage": {"output_tokens": reply.output_tokens},
            },
            "message_delta",
        )
        yield _sse({"type": "message_stop"}, "message_stop")

    def _text_block(self, index: int, pieces: list[str]) -> Iterator[bytes]:
        yield _sse(
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            },
            "content_block_start",
        )
        for piece in pieces:
            yield _sse(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": piece},
                },
                "content_block_delta",
            )
        yield _sse({"type": "content_block_stop", "index": index}, "content_block_stop")

    def _tool_block(self, index: int, n: int, call: FakeToolCall) -> Iterator[bytes]:
        yield _sse(
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {
                    "type": "tool_use",
                    "id": _call_id(call, n, "toolu_"),
                    "name": call.name,
                    "input": {},
                },
            },
            "content_block_start",
        )
        for piece in _split_args(call.arguments):
            yield _sse(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": piece},
                },
                "content_block_delta",
            )
        yield _sse({"type": "content_block_stop", "index": index}, "content_block_stop")


def _finish(reply: FakeReply, wire: str) -> str:
    if reply.finish_reason is not None:
        return reply.finish_reason
    if wire == "openai":
        return "tool_calls" if reply.tool_calls else "stop"
    return "tool_use" if reply.tool_calls else "end_turn"


def _openai_usage(reply: FakeReply) -> dict[str, int]:
    return {
        "prompt_tokens": reply.input_tokens,
        "completion_tokens": reply.output_tokens,
        "total_tokens": reply.input_tokens + reply.output_tokens,
    }


_OPENAI = _OpenAIRender()
_ANTHROPIC = _AnthropicRender()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
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
