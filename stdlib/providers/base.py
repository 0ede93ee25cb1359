"""The chat-model interface every provider implements, and the request it receives.

Input: a `ModelRequest` (the system prompt already first in `messages`, tools as JSON
definitions, tool choice, an optional native response format). Output: one `AIMessage`
(`generate`) or its deltas (`stream`). One async core: there is no sync twin; the runtime's
sync adapter drives it. Providers live beside this file, one module each, registered by
provider key (`openai`, `anthropic`, `scripted`, …) in `registry.py`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import field
from typing import Any, Literal, Protocol

from ...runtime.records import dataclass
from ..messages import AIMessage, BaseMessage, UsageMetadata


def message_type(message: BaseMessage) -> str:
    """The message's `type` (`human`, `ai`, `system`, `tool`, `remove`)."""
    # every concrete message class declares `type`; BaseMessage itself does not
    return message.type  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class ToolDefinition:
    """A tool as the model sees it: name, description, JSON Schema of the arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ResponseFormat:
    """Native structured output (B7 provider strategy): a named JSON Schema."""

    name: str
    schema: dict[str, Any]
    strict: bool | None = None


ToolChoice = Literal["auto", "any", "none"] | str | None  # a str other than these: one tool

Block = dict[str, Any]  # one content block on the wire ({"type": "text", …})
Blocks = str | Sequence[str | Block]  # message content as a wire module reads it


@dataclass(frozen=True, slots=True)
class ModelRequest:
    messages: tuple[BaseMessage, ...]
    tools: tuple[ToolDefinition, ...] = ()
    provider_tools: tuple[dict[str, Any], ...] = ()  # A8: bound as given, run by the provider
    tool_choice: ToolChoice = None  # B6: None by default, "any" under tool-strategy output
    response_format: ResponseFormat | None = None
    options: dict[str, Any] = field(default_factory=dict)  # temperature, max_tokens, stop …


@dataclass(frozen=True, slots=True)
class ToolCallChunk:
    """A piece of a streamed tool call; `index` ties pieces of one call together."""

    index: int
    id: str | None = None
    name: str | None = None
    args: str = ""  # a fragment of the JSON arguments


@dataclass(frozen=True, slots=True)
class MessageDelta:
    """One streamed increment of the model's reply."""

    text: str = ""
    tool_call_chunks: tuple[ToolCallChunk, ...] = ()
    usage: UsageMetadata | None = None
    finish_reason: str | None = None
    id: str | None = None  # the provider's message id, on the first delta that knows it
    response_metadata: dict[str, Any] = field(default_factory=dict)  # model name, stop reason …

    @property
    def content(self) -> str:
        """The text under LangChain's `AIMessageChunk` name, for `stream_mode="messages"`
        readers that print `chunk.content`."""
        return self.text


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """What a model is known to do (I2); None means unknown."""

    context_window: int | None = None
    max_output_tokens: int | None = None
    tool_calling: bool | None = None
    structured_output: bool | None = None
    image_input: bool | None = None
    input_price_per_mtok: float | None = None
    output_price_per_mtok: float | None = None
    mid_conversation_system_messages: bool | None = None  # B9: Anthropic in-place system turns


class ChatModel(Protocol):
    provider: str
    name: str
    profile: ModelProfile

    async def generate(self, request: ModelRequest) -> AIMessage:
        """The whole reply. Tool-call arguments that are not JSON become invalid calls (C4)."""
        ...

    def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        """The reply as deltas; a consumer assembles them with `assemble`."""
        ...
