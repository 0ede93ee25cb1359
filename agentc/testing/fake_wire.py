"""How a scripted reply is written on each wire: the fake provider's renderers.

Input: a `FakeReply` (text, tool calls, usage, finish reason and the fault switches the
server reads) and the model name to report. Output: OpenAI chat-completion and Anthropic
messages bodies, whole (`message`) or as server-sent events (`events`), byte for byte what
the real APIs send; `TAIL` events at the end are the ones that say the reply is complete
(`FakeReply.omit_end` leaves them out). The slow faults (`trickle_s`, `keepalive_s`,
`stall`) are what a total deadline must end: each read returns in time, the answer never
completes.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

FAULT_HOLD_S = 120.0  # a slow fault gives up after this, so a lost client frees its thread


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
    # Slow servers (a total deadline's faults): each fault holds the answer at most
    # `FAULT_HOLD_S`, or until the client hangs up or the server stops
    trickle_s: float = 0.0  # send the answer one byte at a time, this long apart
    keepalive_s: float = 0.0  # stream: keep-alive comments this often, never an event
    stall: bool = False  # send the status and headers, then nothing
    split_bytes: int | None = None  # stream: each event in chunks of this many bytes
    model: str | None = None
    # Malformed replies, sent as given instead of the rendered one (the fault tests of item 17):
    body: Any = None  # a JSON value sent as the whole (non-streamed) reply
    raw: bytes | str | None = None  # bytes sent verbatim as the whole (non-streamed) reply
    # stream: the events sent instead of the rendered ones; a JSON value or str is sent as
    # `data: …` (a str as written), bytes verbatim (e.g. invalid UTF-8)
    events: list[Any] | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FakeReply:
        data = dict(data)
        data["tool_calls"] = [FakeToolCall(**c) for c in data.get("tool_calls", [])]
        return cls(**data)


def _split_text(reply: FakeReply) -> list[str]:
    if reply.chunks is not None:
        return reply.chunks
    return re.findall(r"\S+\s*|\s+", reply.text)


def _split_args(text: str, size: int = 7) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def scripted_events(reply: FakeReply) -> list[bytes]:
    """`FakeReply.events` as the bytes of server-sent events."""
    out: list[bytes] = []
    for item in reply.events or ():
        out.append(item if isinstance(item, bytes) else _sse(item))
    return out


def raw_bytes(raw: bytes | str) -> bytes:
    return raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogateescape")


def _sse(data: Any, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    payload = data if isinstance(data, str) else json.dumps(data)
    return f"{head}data: {payload}\n\n".encode()


def _call_id(call: FakeToolCall, n: int, prefix: str) -> str:
    return call.id or f"{prefix}{n}_{uuid.uuid4().hex[:8]}"


class OpenAIRender:
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


class AnthropicRender:
    TAIL = 2  # message_delta (stop reason), message_stop

    def message(self, reply: FakeReply, model: str) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        if reply.text:
            content.append({"type": "text", "text": reply.text})
        for n, call in enumerate(reply.tool_calls):
            try:
                args: Any = json.loads(call.arguments) if call.arguments else {}
            except (ValueError, RecursionError):
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


OPENAI = OpenAIRender()
ANTHROPIC = AnthropicRender()
