"""Deltas → one `AIMessage`, and tool-call arguments → calls or invalid calls (C4).

Input: the `MessageDelta`s of one streamed reply, in order. Output: the `AIMessage` the same
reply would have been without streaming. Invariants: text is concatenated; tool-call chunks
are grouped by `index` (id and name from the first chunk that has them, argument fragments
joined in order); usage is summed over the deltas that carry it; the last finish reason and
the merged response metadata win. Arguments follow C4: empty → `{}`, not a JSON object →
an `InvalidToolCall` carrying the raw text, never an exception — and so are arguments nested
deeper than `MAX_ARGUMENT_DEPTH`, which later steps could not save or print.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import field
from typing import Any

from ...runtime.records import dataclass
from ..messages import AIMessage, InvalidToolCall, ToolCall, UsageMetadata
from .base import MessageDelta

MAX_ARGUMENT_DEPTH = 100  # levels of nested objects and arrays in one call's arguments


def parse_tool_call(name: str | None, raw: Any, call_id: str | None) -> ToolCall | InvalidToolCall:
    """C4: arguments that are not a JSON object become an invalid call; empty become `{}`."""
    if isinstance(raw, dict):
        if too_deep(raw):
            return _invalid(name, _raw_text(raw), call_id, _deep_error(name))
        return ToolCall(name=name or "", args=raw, id=call_id)
    if not raw:
        return ToolCall(name=name or "", args={}, id=call_id)
    try:
        args = json.loads(raw, strict=False)  # strict=False: control chars in strings, as LC
    except RecursionError:
        return _invalid(name, str(raw), call_id, _deep_error(name))
    except (ValueError, TypeError) as exc:
        return _invalid(name, str(raw), call_id, f"arguments of `{name}` are not valid JSON: {exc}")
    if not args:
        return ToolCall(name=name or "", args={}, id=call_id)
    if not isinstance(args, dict):
        return _invalid(name, str(raw), call_id, f"arguments of `{name}` are not a JSON object")
    if too_deep(args):
        return _invalid(name, str(raw), call_id, _deep_error(name))
    return ToolCall(name=name or "", args=args, id=call_id)


def _invalid(name: str | None, raw: str, call_id: str | None, error: str) -> InvalidToolCall:
    return InvalidToolCall(name=name, args=raw, id=call_id, error=error)


def _deep_error(name: str | None) -> str:
    return f"arguments of `{name}` are nested more than {MAX_ARGUMENT_DEPTH} levels deep"


def _raw_text(args: dict[str, Any]) -> str:
    try:
        return json.dumps(args)
    except (RecursionError, ValueError, TypeError):
        return "(arguments too deeply nested to show)"


def too_deep(value: Any, limit: int = MAX_ARGUMENT_DEPTH) -> bool:
    """Whether `value` nests objects and arrays deeper than `limit` (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return False


def split_calls(
    calls: Iterable[ToolCall | InvalidToolCall],
) -> tuple[list[ToolCall], list[InvalidToolCall]]:
    valid: list[ToolCall] = []
    invalid: list[InvalidToolCall] = []
    for call in calls:
        (valid if isinstance(call, ToolCall) else invalid).append(call)  # type: ignore[arg-type]
    return valid, invalid


def add_usage(a: UsageMetadata | None, b: UsageMetadata | None) -> UsageMetadata | None:
    if a is None or b is None:
        return a or b
    return UsageMetadata(
        input_tokens=a.input_tokens + b.input_tokens,
        output_tokens=a.output_tokens + b.output_tokens,
        total_tokens=a.total_tokens + b.total_tokens,
        input_token_details=_add_counts(a.input_token_details, b.input_token_details),
        output_token_details=_add_counts(a.output_token_details, b.output_token_details),
    )


def _add_counts(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    out = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, 0) + value
    return out


@dataclass
class _PendingCall:
    id: str | None = None
    name: str | None = None
    args: list[str] = field(default_factory=list)


@dataclass
class Assembler:
    """Folds deltas one at a time; `message()` gives the reply so far."""

    text: list[str] = field(default_factory=list)
    calls: dict[int, _PendingCall] = field(default_factory=dict)
    usage: UsageMetadata | None = None
    finish_reason: str | None = None
    id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def add(self, delta: MessageDelta) -> None:
        if delta.text:
            self.text.append(delta.text)
        for chunk in delta.tool_call_chunks:
            pending = self.calls.setdefault(chunk.index, _PendingCall())
            pending.id = pending.id or chunk.id
            pending.name = pending.name or chunk.name
            if chunk.args:
                pending.args.append(chunk.args)
        self.usage = add_usage(self.usage, delta.usage)
        self.finish_reason = delta.finish_reason or self.finish_reason
        self.id = self.id or delta.id
        self.metadata.update(delta.response_metadata)

    def message(self) -> AIMessage:
        parsed = [
            parse_tool_call(c.name, "".join(c.args), c.id) for _, c in sorted(self.calls.items())
        ]
        valid, invalid = split_calls(parsed)
        metadata = dict(self.metadata)
        if self.finish_reason is not None:
            metadata.setdefault("finish_reason", self.finish_reason)
        return AIMessage(
            content="".join(self.text),
            id=self.id,
            tool_calls=valid,
            invalid_tool_calls=invalid,
            usage_metadata=self.usage,
            response_metadata=metadata,
        )


def assemble(deltas: Iterable[MessageDelta]) -> AIMessage:
    """The whole reply from its deltas (what `generate` would have returned)."""
    acc = Assembler()
    for delta in deltas:
        acc.add(delta)
    return acc.message()
