"""OpenAI chat completions, and any OpenAI-compatible server by base URL.

Input: a `ModelRequest`. Output: an `AIMessage` (`generate`, one POST to
`{base_url}/chat/completions`) or its `MessageDelta`s (`stream`, the same call with
`stream: true` read as server-sent events). Invariants: `tool_choice="any"` is sent as
`"required"` (B6); native structured output is `response_format: {type: json_schema}` and
tools are marked strict beside it (B7); tool-call arguments that are not JSON become invalid
calls and empty ones `{}` (C4); usage comes with the stream (`stream_options.include_usage`);
a stream that ends before it finished is a `ProviderStreamError`; a reply or event not of
this wire's shape (a string for `choices`, a number for content or a tool name, token counts
that are not whole numbers) is a `ProviderReplyError` naming the place (shape.py).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

from ..messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    InvalidToolCall,
    SystemMessage,
    ToolCall,
    ToolMessage,
    UsageMetadata,
)
from .assemble import MAX_ARGUMENT_DEPTH, parse_tool_call, split_calls, too_deep
from .base import (
    Block,
    Blocks,
    MessageDelta,
    ModelRequest,
    ResponseFormat,
    ToolCallChunk,
    ToolChoice,
    ToolDefinition,
    message_type,
)
from .errors import ProviderError, ProviderReplyError, ProviderStreamError
from .http import iter_sse, open_response
from .http_model import HttpChatModel
from .settings import AuthStyle
from .shape import SHAPE_ERRORS, expect, optional_tokens, tokens, unreadable

PATH = "chat/completions"
AUTH = AuthStyle("authorization", bearer=True)


class OpenAIChatModel(HttpChatModel):
    """A chat-completions model; `describe()` says where its calls go (A3)."""

    PATH = PATH
    AUTH = AUTH

    def parse(self, data: dict[str, Any]) -> AIMessage:
        return parse_completion(self.provider, data)

    async def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        endpoint = self._settings.endpoint
        async with open_response(
            endpoint, PATH, self.body(request, stream=True), stream=True
        ) as opened:
            reader = _StreamReader(self.provider)
            async for event in iter_sse(endpoint, opened.response, opened.deadline):
                if event.data == "[DONE]":
                    reader.done = True
                    break
                try:
                    delta = reader.read(event.data)
                except SHAPE_ERRORS as exc:
                    raise unreadable(self.provider, exc) from None
                if delta is not None:
                    yield delta
            reader.check_complete()

    def body(self, request: ModelRequest, stream: bool) -> dict[str, Any]:
        """The JSON body of one call (public so tests and `explain` can show it)."""
        body: dict[str, Any] = {"model": self.name, "messages": format_messages(request.messages)}
        body.update(self._settings.params)
        body.update(request.options)
        if self.provider == "openai" and "max_tokens" in body:
            # OpenAI deprecated `max_tokens`; reasoning models accept only the new name.
            body.setdefault("max_completion_tokens", body.pop("max_tokens"))
        strict_tools = request.response_format is not None  # B7
        tools = [format_tool(t, strict_tools) for t in request.tools]
        tools += [dict(t) for t in request.provider_tools]  # A8: bound as given
        if tools:
            body["tools"] = tools
            choice = format_tool_choice(request.tool_choice)
            if choice is not None:
                body["tool_choice"] = choice
        if request.response_format is not None:
            body["response_format"] = format_response_format(request.response_format)
        if stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        return body


# ---------------------------------------------------------------- request


def format_messages(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    return [format_message(m) for m in messages]


def format_message(m: BaseMessage) -> dict[str, Any]:
    if isinstance(m, AIMessage):
        out = _format_ai(m)
    elif isinstance(m, ToolMessage):
        out = {"role": "tool", "tool_call_id": m.tool_call_id, "content": _text_content(m)}
    elif isinstance(m, SystemMessage):
        # A6: a message read from role `developer` keeps that role on the wire.
        developer = m.additional_kwargs.get("__openai_role__") == "developer"
        role = "developer" if developer else "system"
        out = {"role": role, "content": _text_content(m)}
    elif isinstance(m, HumanMessage):
        out = {"role": "user", "content": format_content(m.content)}
    else:
        raise ProviderError("openai", f"cannot send a `{message_type(m)}` message to a model")
    if m.name and not isinstance(m, ToolMessage):
        out["name"] = m.name
    return out


def _format_ai(m: AIMessage) -> dict[str, Any]:
    calls = [
        {
            "id": c.id,
            "type": "function",
            "function": {"name": c.name, "arguments": json.dumps(c.args)},
        }
        for c in m.tool_calls
    ]
    # Invalid calls are sent back as written so the tool replies that answer them match.
    calls += [
        {
            "id": c.id,
            "type": "function",
            "function": {"name": c.name or "", "arguments": c.args or ""},
        }
        for c in m.invalid_tool_calls
    ]
    out: dict[str, Any] = {"role": "assistant", "content": m.text or (None if calls else "")}
    if calls:
        out["tool_calls"] = calls
    return out


def _text_content(m: BaseMessage) -> str | list[Block]:
    if isinstance(m.content, str):
        return m.content
    return [b for b in map(_format_block, m.content) if b.get("type") == "text"] or m.text


def format_content(content: Blocks) -> str | list[Block]:
    """Content blocks passed through; LangChain's standard image blocks become `image_url`."""
    if isinstance(content, str):
        return content
    return [_format_block(b) for b in content]


def _format_block(block: str | Block) -> Block:
    if isinstance(block, str):
        return {"type": "text", "text": block}
    if block.get("type") != "image":
        return block
    source = block.get("source")
    if isinstance(source, dict):  # Anthropic's shape
        if source.get("type") == "base64":
            return _image_url(f"data:{source.get('media_type')};base64,{source.get('data')}")
        return _image_url(source.get("url", ""))
    if block.get("url"):
        return _image_url(block["url"])
    data = block.get("base64") or block.get("data")
    mime = block.get("mime_type", "image/png")
    return _image_url(f"data:{mime};base64,{data}")


def _image_url(url: str) -> Block:
    return {"type": "image_url", "image_url": {"url": url}}


def format_tool(tool: ToolDefinition, strict: bool = False) -> dict[str, Any]:
    fn: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
    }
    if strict:
        fn["strict"] = True
        fn["parameters"] = close_schema(tool.parameters)
    return {"type": "function", "function": fn}


def close_schema(schema: Any) -> Any:
    """Strict tools need `additionalProperties: false` on every object (as LangChain sets)."""
    if isinstance(schema, list):
        return [close_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: close_schema(v) for k, v in schema.items()}
    if out.get("type") == "object" and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def format_tool_choice(choice: ToolChoice) -> str | dict[str, Any] | None:
    """B6: None sends nothing; `any` is OpenAI's `required`; another name forces that tool."""
    if choice is None:
        return None
    if choice in ("auto", "none", "required"):
        return choice
    if choice == "any":
        return "required"
    return {"type": "function", "function": {"name": choice}}


def format_response_format(fmt: ResponseFormat) -> dict[str, Any]:
    schema: dict[str, Any] = {"name": fmt.name, "schema": fmt.schema}
    if fmt.strict:
        schema["strict"] = True
    return {"type": "json_schema", "json_schema": schema}


# ---------------------------------------------------------------- reply


def parse_completion(provider: str, data: dict[str, Any]) -> AIMessage:
    choices = expect(provider, data.get("choices"), "choices", list)
    if not choices:
        raise ProviderError(provider, f"reply has no choices: {_preview(data)}")
    choice = expect(provider, choices[0], "choices[0]", dict, optional=False)
    msg = expect(provider, choice.get("message"), "choices[0].message", dict) or {}
    content = expect(provider, msg.get("content"), "choices[0].message.content", str, list)
    if isinstance(content, list) and too_deep(content):
        raise ProviderReplyError(
            provider,
            f"`choices[0].message.content` is nested more than {MAX_ARGUMENT_DEPTH} levels deep",
        )
    raw_calls = expect(provider, msg.get("tool_calls"), "choices[0].message.tool_calls", list)
    calls = [
        _parse_call(provider, c, f"choices[0].message.tool_calls[{n}]")
        for n, c in enumerate(raw_calls or ())
    ]
    valid, invalid = split_calls(calls)
    refusal = expect(provider, msg.get("refusal"), "choices[0].message.refusal", str)
    extra = {"refusal": refusal} if refusal else {}
    finish = expect(provider, choice.get("finish_reason"), "choices[0].finish_reason", str)
    return AIMessage(
        content=content or "",
        id=expect(provider, data.get("id"), "id", str),
        tool_calls=valid,
        invalid_tool_calls=invalid,
        usage_metadata=parse_usage(data.get("usage"), provider),
        additional_kwargs=extra,
        response_metadata=_metadata(provider, data, finish),
    )


def _preview(data: Any) -> str:
    try:
        return json.dumps(data)[:300]
    except (ValueError, TypeError, RecursionError):
        return "(unprintable)"


def _parse_call(provider: str, raw: Any, where: str) -> ToolCall | InvalidToolCall:
    call = expect(provider, raw, where, dict, optional=False)
    fn = expect(provider, call.get("function"), f"{where}.function", dict) or {}
    name = expect(provider, fn.get("name"), f"{where}.function.name", str)
    args = expect(provider, fn.get("arguments"), f"{where}.function.arguments", str, dict)
    return parse_tool_call(name, args, expect(provider, call.get("id"), f"{where}.id", str))


def _metadata(provider: str, data: dict[str, Any], finish: str | None) -> dict[str, Any]:
    model = expect(provider, data.get("model"), "model", str)
    meta: dict[str, Any] = {"model_provider": provider, "model_name": model}
    if finish is not None:
        meta["finish_reason"] = finish
    fingerprint = expect(provider, data.get("system_fingerprint"), "system_fingerprint", str)
    if fingerprint:
        meta["system_fingerprint"] = fingerprint
    return meta


def parse_usage(usage: Any, provider: str = "openai") -> UsageMetadata | None:
    usage = expect(provider, usage, "usage", dict)
    if not usage:
        return None
    prompt = tokens(provider, usage, "prompt_tokens", "usage")
    completion = tokens(provider, usage, "completion_tokens", "usage")
    total = tokens(provider, usage, "total_tokens", "usage")
    where_in, where_out = "usage.prompt_tokens_details", "usage.completion_tokens_details"
    in_details = expect(provider, usage.get("prompt_tokens_details"), where_in, dict)
    out_details = expect(provider, usage.get("completion_tokens_details"), where_out, dict)
    inp = {
        "cache_read": optional_tokens(provider, in_details, "cached_tokens", where_in),
        "audio": optional_tokens(provider, in_details, "audio_tokens", where_in),
    }
    out = {
        "reasoning": optional_tokens(provider, out_details, "reasoning_tokens", where_out),
        "audio": optional_tokens(provider, out_details, "audio_tokens", where_out),
    }
    return UsageMetadata(
        input_tokens=prompt,
        output_tokens=completion,
        total_tokens=total or prompt + completion,
        input_token_details={k: v for k, v in inp.items() if v is not None},
        output_token_details={k: v for k, v in out.items() if v is not None},
    )


class _StreamReader:
    """Turns each `chat.completion.chunk` into a delta; remembers whether the reply ended."""

    def __init__(self, provider: str) -> None:
        self.provider = provider
        self.first = True
        self.done = False
        self.finished = False
        self.model: str | None = None  # the model named by the first chunk

    def read(self, data: str) -> MessageDelta | None:
        try:
            chunk = json.loads(data)
        except RecursionError:
            raise ProviderReplyError(self.provider, "a stream event is nested too deeply") from None
        except ValueError:
            raise ProviderStreamError(
                self.provider, f"stream event is not JSON: {data[:200]!r}"
            ) from None
        chunk = expect(self.provider, chunk, "stream event", dict, optional=False)
        if chunk.get("error"):
            err = chunk["error"]
            raise ProviderStreamError(
                self.provider, str(err.get("message", err) if isinstance(err, dict) else err)
            )
        return self._delta(chunk)

    def _delta(self, chunk: dict[str, Any]) -> MessageDelta | None:
        p = self.provider
        choices = expect(p, chunk.get("choices"), "stream event.choices", list) or ()
        text, calls, finish = "", (), None
        if choices:
            first = expect(p, choices[0], "stream event.choices[0]", dict, optional=False)
            delta = expect(p, first.get("delta"), "stream event.choices[0].delta", dict) or {}
            where = "stream event.choices[0].delta"
            text = expect(p, delta.get("content"), f"{where}.content", str) or ""
            raw_calls = expect(p, delta.get("tool_calls"), f"{where}.tool_calls", list) or ()
            calls = tuple(
                _call_chunk(p, i, c, f"{where}.tool_calls[{i}]") for i, c in enumerate(raw_calls)
            )
            finish = expect(p, first.get("finish_reason"), "stream event.finish_reason", str)
            self.finished = self.finished or finish is not None
        usage = parse_usage(chunk.get("usage"), p)
        # Where langchain-openai puts them: the provider on every chunk of a choice, the
        # model's name beside the finish reason, nothing on the usage chunk (A2, B3)
        if self.first:
            self.model = expect(p, chunk.get("model"), "stream event.model", str)
        meta: dict[str, Any] = {"model_provider": p} if choices or self.first else {}
        if finish is not None:
            model = expect(p, chunk.get("model"), "stream event.model", str) or self.model
            meta["model_name"] = model
        if not (text or calls or finish or usage or self.first):
            return None
        delta_id = expect(p, chunk.get("id"), "stream event.id", str) if self.first else None
        self.first = False
        return MessageDelta(
            text=text,
            tool_call_chunks=calls,
            usage=usage,
            finish_reason=finish,
            id=delta_id,
            response_metadata=meta,
        )

    def check_complete(self) -> None:
        # Some compatible servers omit `[DONE]`; a finish reason is enough to know it ended.
        if not (self.done or self.finished):
            raise ProviderStreamError(self.provider, "stream ended before the reply was complete")


def _call_chunk(provider: str, position: int, raw: Any, where: str) -> ToolCallChunk:
    raw = expect(provider, raw, where, dict, optional=False)
    fn = expect(provider, raw.get("function"), f"{where}.function", dict) or {}
    index = expect(provider, raw.get("index"), f"{where}.index", int)
    return ToolCallChunk(
        index=position if index is None else index,
        id=expect(provider, raw.get("id"), f"{where}.id", str),
        name=expect(provider, fn.get("name"), f"{where}.function.name", str),
        args=expect(provider, fn.get("arguments"), f"{where}.function.arguments", str) or "",
    )
