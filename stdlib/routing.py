"""Routing decisions of the agent loop, as pure functions of the state.

Input: the state's `messages` (and `jump_to`, `structured_response`). Output: a route label
(`model`, `tools`, `end`) or the tool calls to dispatch. The routers in `agent.py` and the
prelude's `tools_condition` are thin wrappers over these.

Seats: C2 (after a model turn: jump_to wins; no AI message or no tool calls ends; each
pending non-structured call goes to the tools node; else a fresh structured answer ends,
anything else returns to the model), C5/G2 (after tools: every executed client-side tool
`return_direct` ends; a structured-output answer not marked error ends — G8), G1 (a reply
with no tool calls is the answer), E5 (calls dispatched in the order the model listed them).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .messages import AIMessage, BaseMessage, ToolCall, ToolMessage


class Route(str, enum.Enum):
    MODEL = "model"
    TOOLS = "tools"
    END = "end"


def last_ai_and_tool_messages(
    messages: Sequence[BaseMessage],
) -> tuple[AIMessage | None, list[ToolMessage]]:
    """The last AI message and the tool messages after it."""
    for i in range(len(messages) - 1, -1, -1):
        last = messages[i]
        if isinstance(last, AIMessage):
            return last, [m for m in messages[i + 1 :] if isinstance(m, ToolMessage)]
    return None, []


def jump_route(state: Mapping[str, Any]) -> Route | None:
    """A middleware hook's `jump_to`, which wins over every other rule (C2)."""
    jump = state.get("jump_to")
    if not jump:
        return None
    return Route(jump.value if isinstance(jump, enum.Enum) else jump)


def after_model(
    state: Mapping[str, Any], structured_names: Iterable[str] = ()
) -> Route | list[ToolCall]:
    """C2: where the run goes after a model turn when there is a tools node."""
    jump = jump_route(state)
    if jump is not None:
        return jump
    ai, answers = last_ai_and_tool_messages(state.get("messages") or [])
    if ai is None or not ai.tool_calls:  # G1: no tool calls, the reply is the answer
        return Route.END
    answered = {m.tool_call_id for m in answers}
    names = set(structured_names)
    pending = [c for c in ai.tool_calls if c.id not in answered and c.name not in names]
    if pending:
        return pending  # E5: one task per call, in listed order
    if state.get("structured_response") is not None:
        return Route.END
    return Route.MODEL  # answered by something else (a retry message, a hook): ask again


def after_model_no_tools(state: Mapping[str, Any]) -> Route:
    """C2 with no tools node under tool-strategy output: end on a fresh answer, else retry."""
    jump = jump_route(state)
    if jump is not None:
        return jump
    return Route.END if state.get("structured_response") is not None else Route.MODEL


def after_tools(
    state: Mapping[str, Any],
    return_direct: Mapping[str, bool],
    structured_names: Iterable[str] = (),
) -> Route:
    """C5/G2/G8: back to the model, unless every executed tool is return_direct or a
    structured answer (not an error) is among the results."""
    ai, answers = last_ai_and_tool_messages(state.get("messages") or [])
    if ai is None:
        return Route.MODEL
    by_id = {
        m.tool_call_id: m.name for m in answers if m.name is not None and m.name in return_direct
    }
    executed = [
        name for c in ai.tool_calls if (name := by_id.get(c.id or "", c.name)) in return_direct
    ]
    if executed and all(return_direct[n] for n in executed):
        return Route.END
    names = set(structured_names)
    if any(m.name in names and m.status != "error" for m in answers):
        return Route.END
    return Route.MODEL


def tools_condition(state: Mapping[str, Any]) -> str:
    """The prelude router for hand-built graphs: `tools` when the last message is an AI
    message with tool calls, else `end`."""
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and last.tool_calls:
        return Route.TOOLS.value
    return Route.END.value


def has_structured_response(state: Mapping[str, Any]) -> str:
    """The prelude router `has_structured_response`: `yes` once an answer is in the state."""
    return "yes" if state.get("structured_response") is not None else "no"
