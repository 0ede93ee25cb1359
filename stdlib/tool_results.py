"""A tool's return value as the answer the model reads, or the Command the graph applies.

Input: what a tool function returned for one `ToolCall` (a value, a `ToolMessage`, a
`Command`, or a list of messages and Commands) and the tool's name and response format.
Output: a `ToolResult`. Invariants:
- B8/E9: values are formatted as LangChain's core + ToolNode do (strings as they are,
  content blocks passed, anything else as JSON, else `str`), never truncated.
- C7/D3/E11: a returned `Command` that updates this graph's messages must answer its own
  call (its ToolMessage is named after the tool); a returned list must hold exactly one
  answer to the call.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from ..runtime.types import Command, CommandGraph
from .messages import REMOVE_ALL_MESSAGES, RemoveMessage, ToolCall, ToolMessage, coerce_messages

ResponseFormat = Literal["content", "content_and_artifact"]
ToolResult = ToolMessage | Command | list[ToolMessage | Command]

# B8: content blocks a tool may return as-is (langchain_core TOOL_MESSAGE_BLOCK_TYPES).
BLOCK_TYPES = frozenset(
    {
        "text",
        "image_url",
        "image",
        "json",
        "search_result",
        "custom_tool_call_output",
        "document",
        "file",
    }
)


class ToolCommandError(ValueError):
    """A tool returned a `Command` or list that does not answer its own call (E11)."""


def format_content(value: Any) -> str | list[Any]:
    """B8/E9: what the model reads for a tool's return value; nothing is cut."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(_is_block_or_str(v) for v in value):
        value = list(value)
        if all(isinstance(v, dict) for v in value):
            return value  # typed content blocks pass
        # a list of plain strings reaches the model as one JSON string (ToolNode's step)
    if type(value) is int:
        return int.__repr__(value)  # what the encoder writes for an int
    try:
        return _ENCODE(value)  # json.dumps(value, ensure_ascii=False), its encoder kept
    except (TypeError, ValueError):
        return str(value)


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def _is_block_or_str(v: Any) -> bool:
    return isinstance(v, str) or (isinstance(v, dict) and v.get("type") in BLOCK_TYPES)


def normalize_result(
    value: Any, call: ToolCall, name: str, response_format: ResponseFormat
) -> ToolResult:
    """A tool's return value as its answer: a Command or list checked (E11), a message's
    content formatted (B8), anything else made the content of a ToolMessage."""
    if isinstance(value, Command):
        return validate_command(value, call)
    if isinstance(value, ToolMessage):
        return value.model_copy(update={"content": format_content(value.content)})
    if (
        isinstance(value, list)
        and value
        and all(isinstance(v, (Command, ToolMessage)) for v in value)
    ):
        return validate_command_list(value, call)
    artifact = None
    if response_format == "content_and_artifact":
        if not (isinstance(value, tuple) and len(value) == 2):
            raise ValueError(
                f"tool `{name}` has response_format 'content_and_artifact' so it must "
                f"return a (content, artifact) pair; it returned {type(value).__name__}"
            )
        value, artifact = value
    return ToolMessage(
        content=format_content(value), artifact=artifact, name=name, tool_call_id=call.id or ""
    )


def validate_command(cmd: Command, call: ToolCall, *, require_answer: bool = True) -> Command:
    """C7/D3/E11: a messages update to this graph must answer the tool's own call."""
    if isinstance(cmd.update, list):  # under create_agent a list-shaped update is refused
        raise ToolCommandError(
            f"tool `{call.name}` returned Command(update=[...]); under an agent a tool's "
            'Command must update a dict, e.g. Command(update={"messages": [ToolMessage(..., '
            "tool_call_id=...)]})"
        )
    if not isinstance(cmd.update, Mapping):
        return cmd
    messages = coerce_messages(cmd.update.get("messages", []))
    if (
        len(messages) == 1
        and isinstance(messages[0], RemoveMessage)
        and messages[0].id == REMOVE_ALL_MESSAGES
    ):
        return cmd
    answered = False
    fixed = []
    for m in messages:
        if isinstance(m, ToolMessage) and m.tool_call_id == call.id:
            m, answered = m.model_copy(update={"name": call.name}), True
        fixed.append(m)
    if require_answer and cmd.graph is CommandGraph.CURRENT and not answered:
        raise ToolCommandError(
            f"tool `{call.name}` returned a Command that updates state but carries no "
            f"ToolMessage for its call {call.id!r}; add ToolMessage(..., tool_call_id="
            f"{call.id!r}) to Command.update['messages']"
        )
    update = dict(cmd.update)
    if "messages" in cmd.update:
        update["messages"] = fixed
    return replace(cmd, update=update)


def validate_command_list(items: list[Any], call: ToolCall) -> list[ToolMessage | Command]:
    """E11: a returned list must hold exactly one answer to the tool's own call."""
    count = 0
    for item in items:
        if isinstance(item, ToolMessage):
            count += item.tool_call_id == call.id
        elif isinstance(item.update, Mapping):
            count += sum(
                isinstance(m, ToolMessage) and m.tool_call_id == call.id
                for m in coerce_messages(item.update.get("messages", []))
            )
    if count != 1:
        raise ToolCommandError(
            f"tool `{call.name}` returned a list with {count} messages bound to tool_call_id "
            f"{call.id!r}; expected exactly one terminating ToolMessage"
        )
    return [
        validate_command(i, call, require_answer=False)
        if isinstance(i, Command)
        else i.model_copy(update={"content": format_content(i.content)})
        for i in items
    ]
