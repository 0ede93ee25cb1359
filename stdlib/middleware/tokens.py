"""Approximate token counts and context sizes, shared by summarization, context editing and
budgets.

Input: messages, or a context size as the IR writes it (`["tokens", n]`, `["messages", n]`,
`["fraction", x]`). Output: langchain-core 1.8.3's `count_tokens_approximately` count (4
characters a token rounded up per message, 3 tokens a message, role and name counted, tool
calls as their repr, 85 tokens an image) and validated `ContextSize` values.
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ...runtime.records import dataclass
from ..messages import AIMessage, BaseMessage, Content, ToolMessage
from ..providers.base import message_type

ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}

Counter = Callable[[Sequence[BaseMessage]], int]  # messages → tokens
# A context size as written: ["tokens", 4000], ("messages", 20), {"fraction": 0.8}
RawSize = tuple[str, float] | list[Any] | Mapping[str, float]


def _content_chars(content: Content) -> tuple[int, int]:
    """(characters, image tokens) of a message's content."""
    if isinstance(content, str):
        return len(content), 0
    chars = images = 0
    for block in content:
        if isinstance(block, str):
            chars += len(block)
        elif isinstance(block, dict) and block.get("type") in ("image", "image_url"):
            images += 85
        elif isinstance(block, dict) and block.get("type") == "text":
            chars += len(block.get("text", ""))
        else:
            chars += len(repr(block))
    return chars, images


def _calls_repr(m: AIMessage) -> str:
    return repr(
        [{"name": c.name, "args": c.args, "id": c.id, "type": "tool_call"} for c in m.tool_calls]
    )


def count_tokens_approximately(
    messages: Iterable[BaseMessage],
    *,
    chars_per_token: float = 4.0,
    extra_tokens_per_message: float = 3.0,
) -> int:
    total = 0.0
    for m in messages:
        chars, images = _content_chars(m.content)
        if isinstance(m, AIMessage) and not isinstance(m.content, list) and m.tool_calls:
            chars += len(_calls_repr(m))
        if isinstance(m, ToolMessage):
            chars += len(m.tool_call_id)
        kind = message_type(m)
        chars += len(ROLES.get(kind, kind))
        if m.name:
            chars += len(m.name)
        total += images + math.ceil(chars / chars_per_token) + extra_tokens_per_message
    return math.ceil(total)


class SizeKind(str, enum.Enum):
    TOKENS = "tokens"
    MESSAGES = "messages"
    FRACTION = "fraction"


@dataclass(frozen=True, slots=True)
class ContextSize:
    kind: SizeKind
    value: float

    @staticmethod
    def parse(raw: RawSize, what: str) -> ContextSize:
        """`["tokens", 4000]`, `("messages", 20)` or `{"fraction": 0.8}` (one key)."""
        if isinstance(raw, dict) and len(raw) == 1:
            raw = next(iter(raw.items()))
        if not (isinstance(raw, (list, tuple)) and len(raw) == 2):
            raise ValueError(f"{what} must be tokens(n), messages(n) or fraction(x), got {raw!r}")
        try:
            kind = SizeKind(raw[0])
        except ValueError:
            raise ValueError(f"Unsupported context size type {raw[0]} for {what}.") from None
        value = raw[1]
        if kind is SizeKind.FRACTION and not 0 < value <= 1:
            raise ValueError(f"Fractional {what} values must be between 0 and 1, got {value}.")
        if kind is not SizeKind.FRACTION and value <= 0:
            raise ValueError(f"{what} thresholds must be greater than 0, got {value}.")
        return ContextSize(kind, value)


def buffer_xml(messages: Sequence[BaseMessage]) -> str:
    """The messages as `<message type="…">` lines (get_buffer_string(format="xml"))."""
    lines = []
    for m in messages:
        text = escape(m.text)
        calls = m.tool_calls if isinstance(m, AIMessage) else []
        if not calls:
            lines.append(f"<message type={quoteattr(message_type(m))}>{text}</message>")
            continue
        inner = [f"  <content>{text}</content>"] if text else []
        inner += [
            f"  <tool_call id={quoteattr(c.id or '')} name={quoteattr(c.name)}>"
            f"{escape(json.dumps(c.args))}</tool_call>"
            for c in calls
        ]
        head = f"<message type={quoteattr(message_type(m))}>"
        lines.append(head + "\n" + "\n".join(inner) + "\n</message>")
    return "\n".join(lines)
