"""Anthropic messages API.

Input: a `ModelRequest`. Output: an `AIMessage` (`generate`, one POST to
`{base_url}/v1/messages`) or its `MessageDelta`s (`stream`: the server-sent events
message_start, content_block_start/delta/stop, message_delta, message_stop). Invariants:
system messages follow B9 (consecutive ones merge; a leading one goes in the `system` field;
a later one is sent in place only when the profile allows it and it follows a user turn, an
assistant turn ending in a server tool result, or another in-place system message; else it
is an error when a leading one exists, and is moved to the top with a warning when none
does); tool calls are `tool_use` blocks and tool replies `tool_result` blocks in a user turn;
`tool_choice="any"` is `{type: any}` (B6); the API requires `max_tokens`: the profile's (or
4096) when the file sets none; a reply or event of another shape is `ProviderReplyError`."""

from __future__ import annotations

import json
import warnings
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from ..messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    UsageMetadata,
)
from .assemble import MAX_ARGUMENT_DEPTH, parse_tool_call, split_calls, too_deep
from .base import (
    Block,
    Blocks,
    MessageDelta,
    ModelProfile,
    ModelRequest,
    ToolCallChunk,
    ToolChoice,
    ToolDefinition,
    message_type,
)
from .errors import ProviderError, ProviderReplyError, ProviderStreamError
from .http import iter_sse, open_response
from .http_model import HttpChatModel
from .openai import close_schema
from .settings import AuthStyle
from .shape import SHAPE_ERRORS, expect, tokens, unreadable

SystemField = str | list[Block] | None  # the request's `system`: text or blocks

PATH = "v1/messages"
API_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 4096
AUTH = AuthStyle("x-api-key", bearer=False, fixed={"anthropic-version": API_VERSION})


class SystemMessagePlacementError(ProviderError):
    """B9: a system message later in the history that Anthropic cannot take there."""

    code = "system-message-placement"


class AnthropicChatModel(HttpChatModel):
    PATH = PATH
    AUTH = AUTH

    def parse(self, data: dict[str, Any]) -> AIMessage:
        return parse_message(self.provider, data)

    async def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        endpoint = self._settings.endpoint
        async with open_response(
            endpoint, PATH, self.body(request, stream=True), stream=True
        ) as opened:
            reader = _StreamReader(self.provider)
            async for event in iter_sse(endpoint, opened.response, opened.deadline):
                try:
                    delta = reader.read(event.data)
                except SHAPE_ERRORS as exc:
                    raise unreadable(self.provider, exc) from None
                if delta is not None:
                    yield delta
                if reader.done:
                    break
            if not reader.done:
                raise ProviderStreamError(
                    self.provider, "stream ended before the reply was complete"
                )

    def body(self, request: ModelRequest, stream: bool) -> dict[str, Any]:
        system, messages = format_messages(request.messages, self.profile)
        body: dict[str, Any] = {"model": self.name, "messages": messages}
        body.update(self._settings.params)
        body.update(request.options)
        if "stop" in body:
            body["stop_sequences"] = body.pop("stop")
        body.setdefault("max_tokens", self.profile.max_output_tokens or DEFAULT_MAX_TOKENS)
        if system:
            body["system"] = system
        tools = [format_tool(t) for t in request.tools] + [dict(t) for t in request.provider_tools]
        if tools:
            body["tools"] = tools
            choice = format_tool_choice(request.tool_choice)
            if choice is not None:
                body["tool_choice"] = choice
        if request.response_format is not None:
            body["output_config"] = {
                "format": {
                    "type": "json_schema",
                    "schema": close_schema(request.response_format.schema),
                }
            }
        if stream:
            body["stream"] = True
        return body


# ---------------------------------------------------------------- request


def format_tool(tool: ToolDefinition) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "input_schema": tool.parameters}


def format_tool_choice(choice: ToolChoice) -> dict[str, Any] | None:
    if choice is None:
        return None
    if choice in ("auto", "any", "none"):
        return {"type": choice}
    if choice == "required":
        return {"type": "any"}
    return {"type": "tool", "name": choice}


def _merge_systems(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    out: list[BaseMessage] = []
    for m in messages:
        if isinstance(m, SystemMessage) and out and isinstance(out[-1], SystemMessage):
            merged: list[str | Block] = [*_blocks(out[-1].content), *_blocks(m.content)]
            out[-1] = SystemMessage(content=merged)
        else:
            out.append(m)
    return out


def format_messages(
    messages: Sequence[BaseMessage], profile: ModelProfile
) -> tuple[SystemField, list[dict[str, Any]]]:
    """B9 placement of system messages, then each turn; consecutive same-role turns merge."""
    merged = _merge_systems(messages)
    system: SystemField = None
    if merged and isinstance(merged[0], SystemMessage):
        system, merged = _system_content(merged[0]), merged[1:]
    turns: list[dict[str, Any]] = []
    for m in merged:
        if isinstance(m, SystemMessage):
            system = _place_system(m, turns, system, profile)
            continue
        turn = _format_turn(m)
        if turn is not None:
            _append_turn(turns, turn)
    return system, turns


def _place_system(
    m: SystemMessage, turns: list[dict[str, Any]], system: SystemField, profile: ModelProfile
) -> SystemField:
    if profile.mid_conversation_system_messages and turns and _may_follow(turns[-1]):
        turns.append({"role": "system", "content": _blocks(m.content)})
        return system
    if system is not None:
        raise SystemMessagePlacementError(
            "anthropic",
            "a system message after the first message cannot be sent to this "
            "model while a leading system prompt exists (B9); merge it into the system prompt "
            "or send it as a user message",
        )
    warnings.warn(
        "a system message after the first message was moved to the top, where it "
        "applies to the whole conversation (B9)",
        stacklevel=3,
    )
    return _system_content(m)


def _may_follow(previous: dict[str, Any]) -> bool:
    if previous["role"] in ("user", "system"):
        return True
    content = previous["content"]
    last = content[-1] if isinstance(content, list) and content else {}
    return str(last.get("type", "")).endswith("_tool_result")


def _system_content(m: SystemMessage) -> str | list[Block]:
    return m.content if isinstance(m.content, str) else _blocks(m.content)


def _format_turn(m: BaseMessage) -> dict[str, Any] | None:
    if isinstance(m, AIMessage):
        content = _ai_blocks(m)
        return {"role": "assistant", "content": content} if content else None
    if isinstance(m, ToolMessage):
        result: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": m.tool_call_id,
            "content": format_content(m.content),
        }
        if m.status == "error":
            result["is_error"] = True
        return {"role": "user", "content": [result]}
    if isinstance(m, HumanMessage):
        return {"role": "user", "content": format_content(m.content)}
    raise ProviderError("anthropic", f"cannot send a `{message_type(m)}` message to a model")


def _ai_blocks(m: AIMessage) -> list[dict[str, Any]]:
    blocks = [
        b
        for b in _blocks(m.content)
        if b.get("type") != "tool_use" and not (b.get("type") == "text" and not b["text"])
    ]
    blocks += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": c.args} for c in m.tool_calls
    ]
    # Invalid calls still need their tool_use so the tool_result answering them matches.
    blocks += [
        {"type": "tool_use", "id": c.id, "name": c.name or "", "input": {}}
        for c in m.invalid_tool_calls
    ]
    return blocks


def _append_turn(turns: list[dict[str, Any]], turn: dict[str, Any]) -> None:
    if turns and turns[-1]["role"] == turn["role"]:
        turns[-1] = {
            "role": turn["role"],
            "content": _blocks(turns[-1]["content"]) + _blocks(turn["content"]),
        }
    else:
        turns.append(turn)


def _blocks(content: Blocks) -> list[Block]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return [_format_block(b) for b in content]


def format_content(content: Blocks) -> str | list[Block]:
    return content if isinstance(content, str) else [_format_block(b) for b in content]


def _format_block(block: str | Block) -> Block:
    """Content passed through; OpenAI / LangChain image blocks become Anthropic image sources."""
    if isinstance(block, str):
        return {"type": "text", "text": block}
    kind = block.get("type")
    if kind == "image_url":
        url = (
            block["image_url"]["url"]
            if isinstance(block["image_url"], dict)
            else block["image_url"]
        )
        return _image(url)
    if kind == "image" and "source" not in block:
        if block.get("url"):
            return _image(block["url"])
        data = block.get("base64") or block.get("data")
        return {
            "type": "image",
            "source": {
                "type": "base64",
                "data": data,
                "media_type": block.get("mime_type", "image/png"),
            },
        }
    return block


def _image(url: str) -> Block:
    if url.startswith("data:") and ";base64," in url:
        head, data = url[5:].split(";base64,", 1)
        return {"type": "image", "source": {"type": "base64", "media_type": head, "data": data}}
    return {"type": "image", "source": {"type": "url", "url": url}}


# ---------------------------------------------------------------- reply


def parse_message(provider: str, data: dict[str, Any]) -> AIMessage:
    blocks = expect(provider, data.get("content"), "content", list) or []
    for n, b in enumerate(blocks):
        _check_block(provider, b, f"content[{n}]")
    calls = [
        parse_tool_call(b.get("name"), b.get("input"), b.get("id"))
        for b in blocks
        if b.get("type") == "tool_use"
    ]
    valid, invalid = split_calls(calls)
    kept = [b for b in blocks if b.get("type") != "tool_use"]
    if any(b.get("type") != "text" and too_deep(b) for b in kept):
        raise ProviderReplyError(
            provider, f"a content block is nested more than {MAX_ARGUMENT_DEPTH} levels deep"
        )
    only_text = all(b.get("type") == "text" for b in kept)
    content: str | list[str | Block] = (
        "".join(b.get("text") or "" for b in kept) if only_text else list(kept)
    )
    stop = expect(provider, data.get("stop_reason"), "stop_reason", str)
    meta = {
        "model_provider": provider,
        "model_name": expect(provider, data.get("model"), "model", str),
        "stop_reason": stop,
        "stop_sequence": expect(provider, data.get("stop_sequence"), "stop_sequence", str),
        "finish_reason": stop,
    }
    return AIMessage(
        content=content,
        id=expect(provider, data.get("id"), "id", str),
        tool_calls=valid,
        invalid_tool_calls=invalid,
        usage_metadata=parse_usage(data.get("usage"), provider),
        response_metadata=meta,
    )


def _check_block(provider: str, block: Any, where: str) -> None:
    block = expect(provider, block, where, dict, optional=False)
    kind = expect(provider, block.get("type"), f"{where}.type", str, optional=False)
    if kind == "text":
        expect(provider, block.get("text"), f"{where}.text", str)
    elif kind == "tool_use":
        expect(provider, block.get("name"), f"{where}.name", str)
        expect(provider, block.get("id"), f"{where}.id", str)
        expect(provider, block.get("input"), f"{where}.input", dict, str)


def parse_usage(usage: Any, provider: str = "anthropic") -> UsageMetadata | None:
    usage = expect(provider, usage, "usage", dict)
    if not usage:
        return None
    cache_read = tokens(provider, usage, "cache_read_input_tokens", "usage")
    cache_write = tokens(provider, usage, "cache_creation_input_tokens", "usage")
    inp = tokens(provider, usage, "input_tokens", "usage") + cache_read + cache_write
    out = tokens(provider, usage, "output_tokens", "usage")
    details = {k: v for k, v in (("cache_read", cache_read), ("cache_creation", cache_write)) if v}
    return UsageMetadata(
        input_tokens=inp, output_tokens=out, total_tokens=inp + out, input_token_details=details
    )


class _StreamReader:
    """One delta per meaningful event; `done` once message_stop arrives."""

    def __init__(self, provider: str) -> None:
        self.provider = provider
        self.done = False
        self._on: dict[str, Callable[[dict[str, Any]], MessageDelta | None]] = {
            "message_start": self._on_message_start,
            "content_block_start": self._on_content_block_start,
            "content_block_delta": self._on_content_block_delta,
            "message_delta": self._on_message_delta,
            "message_stop": self._on_message_stop,
            "error": self._on_error,
        }  # other events (ping, content_block_stop) carry nothing for the reply

    def read(self, data: str) -> MessageDelta | None:
        try:
            event = json.loads(data)
        except RecursionError:
            raise ProviderReplyError(self.provider, "a stream event is nested too deeply") from None
        except ValueError:
            raise ProviderStreamError(
                self.provider, f"stream event is not JSON: {data[:200]!r}"
            ) from None
        event = expect(self.provider, event, "stream event", dict, optional=False)
        kind = expect(self.provider, event.get("type"), "stream event.type", str)
        handler = self._on.get(kind) if kind is not None else None
        return handler(event) if handler is not None else None

    def _get(self, event: dict[str, Any], key: str, *kinds: type) -> Any:
        where = f"{event.get('type')} event.{key}"
        return expect(self.provider, event.get(key), where, *kinds)

    def _on_message_start(self, event: dict[str, Any]) -> MessageDelta:
        message = self._get(event, "message", dict) or {}
        p, where = self.provider, "message_start event.message"
        usage_in = expect(p, message.get("usage"), f"{where}.usage", dict) or {}
        usage = parse_usage({**usage_in, "output_tokens": 0}, p)
        return MessageDelta(
            id=expect(p, message.get("id"), f"{where}.id", str),
            usage=usage,
            response_metadata={
                "model_provider": p,
                "model_name": expect(p, message.get("model"), f"{where}.model", str),
            },
        )

    def _on_content_block_start(self, event: dict[str, Any]) -> MessageDelta | None:
        block = self._get(event, "content_block", dict) or {}
        index = self._get(event, "index", int) or 0
        p, where = self.provider, "content_block_start event.content_block"
        kind = expect(p, block.get("type"), f"{where}.type", str)
        if kind == "tool_use":
            chunk = ToolCallChunk(
                index=index,
                id=expect(p, block.get("id"), f"{where}.id", str),
                name=expect(p, block.get("name"), f"{where}.name", str),
            )
            return MessageDelta(tool_call_chunks=(chunk,))
        if kind == "text":
            text = expect(p, block.get("text"), f"{where}.text", str)
            return MessageDelta(text=text) if text else None
        return None

    def _on_content_block_delta(self, event: dict[str, Any]) -> MessageDelta | None:
        delta = self._get(event, "delta", dict) or {}
        index = self._get(event, "index", int) or 0
        p, where = self.provider, "content_block_delta event.delta"
        kind = expect(p, delta.get("type"), f"{where}.type", str)
        if kind == "text_delta":
            return MessageDelta(text=expect(p, delta.get("text"), f"{where}.text", str) or "")
        if kind == "input_json_delta":
            args = expect(p, delta.get("partial_json"), f"{where}.partial_json", str) or ""
            chunk = ToolCallChunk(index=index, args=args)
            return MessageDelta(tool_call_chunks=(chunk,))
        return None

    def _on_message_delta(self, event: dict[str, Any]) -> MessageDelta:
        delta = self._get(event, "delta", dict) or {}
        usage = self._get(event, "usage", dict) or {}
        p, where = self.provider, "message_delta event"
        out = tokens(p, usage, "output_tokens", f"{where}.usage")
        stop = expect(p, delta.get("stop_reason"), f"{where}.delta.stop_reason", str)
        sequence = expect(p, delta.get("stop_sequence"), f"{where}.delta.stop_sequence", str)
        return MessageDelta(
            finish_reason=stop,
            usage=UsageMetadata(output_tokens=out, total_tokens=out),
            response_metadata={"stop_reason": stop, "stop_sequence": sequence},
        )

    def _on_message_stop(self, event: dict[str, Any]) -> None:
        self.done = True
        return None

    def _on_error(self, event: dict[str, Any]) -> None:
        err = event.get("error") or {}
        raise ProviderStreamError(
            self.provider, str(err.get("message", err) if isinstance(err, dict) else err)
        )
