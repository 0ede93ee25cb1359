"""`context_editing` with `clear_tool_uses` (F7): old tool results blanked in what the model
is sent; the saved history keeps them.

Input: each model request's messages; `edits` (each `{type: "clear_tool_uses", trigger:
100000, clear_at_least: 0, keep: 3, clear_tool_inputs: false, exclude_tools: [],
placeholder: "[cleared]"}`) and `token_count_method` ("approximate"; "model" counts the same
way here, as no provider exposes a counter). Output: the request with a COPY of the
messages edited — once the conversation passes `trigger` tokens, every tool result but the
newest `keep` is replaced by the placeholder (until `clear_at_least` tokens are freed, when
set), its AI call's arguments too with `clear_tool_inputs`. State is never changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any, Protocol

from ...runtime.records import dataclass
from ..messages import AIMessage, BaseMessage, ToolMessage
from .base import AgentMiddleware, ModelRequest, ModelResult
from .chain import ModelHandler
from .tokens import Counter, count_tokens_approximately

PLACEHOLDER = "[cleared]"


class ContextEdit(Protocol):
    """One edit of the messages a model call is sent (LangChain's `ContextEdit`)."""

    def apply(self, messages: list[BaseMessage], *, count_tokens: Counter) -> None: ...


@dataclass(frozen=True, slots=True)
class ClearToolUsesEdit:
    trigger: int = 100_000
    clear_at_least: int = 0
    keep: int = 3
    clear_tool_inputs: bool = False
    exclude_tools: Sequence[str] = field(default_factory=tuple)
    placeholder: str = PLACEHOLDER

    def apply(self, messages: list[BaseMessage], *, count_tokens: Counter) -> None:
        """Edit `messages` (a copy the caller owns) in place, as LangChain's edit does."""
        tokens = count_tokens(messages)
        if tokens <= self.trigger:
            return
        candidates = [i for i, m in enumerate(messages) if isinstance(m, ToolMessage)]
        candidates = (
            []
            if self.keep >= len(candidates)
            else (candidates[: -self.keep] if self.keep else candidates)
        )
        for idx in candidates:
            if self._clear_one(messages, idx) and self.clear_at_least > 0:
                if tokens - count_tokens(messages) >= self.clear_at_least:
                    break

    def _clear_one(self, messages: list[BaseMessage], idx: int) -> bool:
        tool_message = messages[idx]
        assert isinstance(tool_message, ToolMessage)
        if tool_message.response_metadata.get("context_editing", {}).get("cleared"):
            return False
        at = next((j for j in range(idx - 1, -1, -1) if isinstance(messages[j], AIMessage)), None)
        if at is None:
            return False
        ai = messages[at]
        assert isinstance(ai, AIMessage)
        call = next((c for c in ai.tool_calls if c.id == tool_message.tool_call_id), None)
        if call is None or (tool_message.name or call.name) in set(self.exclude_tools):
            return False
        messages[idx] = tool_message.model_copy(
            update={
                "artifact": None,
                "content": self.placeholder,
                "response_metadata": {
                    **tool_message.response_metadata,
                    "context_editing": {"cleared": True, "strategy": "clear_tool_uses"},
                },
            }
        )
        if self.clear_tool_inputs:
            messages[at] = cleared_inputs(ai, tool_message.tool_call_id)
        return True


def cleared_inputs(message: AIMessage, call_id: str) -> AIMessage:
    calls = [
        c.model_copy(update={"args": {}}) if c.id == call_id else c for c in message.tool_calls
    ]
    meta = dict(message.response_metadata)
    entry = dict(meta.get("context_editing", {}))
    entry["cleared_tool_inputs"] = sorted(set(entry.get("cleared_tool_inputs", [])) | {call_id})
    meta["context_editing"] = entry
    return message.model_copy(update={"tool_calls": calls, "response_metadata": meta})


EDIT_TYPES = {"clear_tool_uses": ClearToolUsesEdit}


def make_edit(raw: Mapping[str, Any] | ContextEdit) -> ContextEdit:
    if not isinstance(raw, Mapping):
        return raw  # an edit object given from Python
    options = dict(raw)
    kind = options.pop("type", "clear_tool_uses")
    if kind not in EDIT_TYPES:
        raise ValueError(f"unknown context edit type {kind!r}; known: {sorted(EDIT_TYPES)}")
    if "exclude_tools" in options:
        options["exclude_tools"] = tuple(options["exclude_tools"] or ())
    return EDIT_TYPES[kind](**options)


class ContextEditing(AgentMiddleware):
    """F7: apply the edits to each request's messages (never to the state)."""

    def __init__(
        self,
        *,
        edits: Sequence[Mapping[str, Any] | ContextEdit] | None = None,
        token_count_method: str = "approximate",
        token_counter: Counter | None = None,
    ) -> None:
        if token_count_method not in ("approximate", "model"):
            raise ValueError("token_count_method must be 'approximate' or 'model'")
        self.edits = [make_edit(e) for e in (edits or [{"type": "clear_tool_uses"}])]
        self.token_count_method = token_count_method
        self.count = token_counter or count_tokens_approximately

    async def awrap_model_call(self, request: ModelRequest, handler: ModelHandler) -> ModelResult:
        if not request.messages:
            return await handler(request)
        edited = list(request.messages)  # messages are frozen: a new list is a copy
        for edit in self.edits:
            edit.apply(edited, count_tokens=self.count)
        return await handler(request.override(messages=edited))


ContextEditingMiddleware = ContextEditing
