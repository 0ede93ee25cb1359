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

from ..runtime.channels import list_parts
from .messages import AIMessage, BaseMessage, ToolCall, ToolMessage


class Route(str, enum.Enum):
    MODEL = "model"
    TOOLS = "tools"
    END = "end"


LABEL: dict[Route, str] = {r: r.value for r in Route}  # `route.value`, without the property


def last_ai_and_tool_messages(
    messages: Sequence[BaseMessage],
) -> tuple[AIMessage | None, list[ToolMessage]]:
    """The last AI message and the tool messages after it."""
    # the state's history is a `ListView`: read the list under it, not item by item
    items, n = list_parts(messages)
    for i in range(n - 1, -1, -1):
        last = items[i]
        if isinstance(last, AIMessage):
            answers = []  # (a loop, not a comprehension: no frame of its own on 3.11)
            for j in range(i + 1, n):
                if isinstance(items[j], ToolMessage):
                    answers.append(items[j])
            return last, answers
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
    messages = state.get("messages")
    ai, answers = last_ai_and_tool_messages(messages if messages is not None else ())
    if ai is None or not ai.tool_calls:  # G1: no tool calls, the reply is the answer
        return Route.END
    names = set(structured_names)
    if not answers and not names:  # the usual turn: every call is pending
        return list(ai.tool_calls)  # E5: one task per call, in listed order
    answered = {m.tool_call_id for m in answers}
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
    messages = state.get("messages")
    ai, answers = last_ai_and_tool_messages(messages if messages is not None else ())
    if ai is None:
        return Route.MODEL
    by_id: dict[str, str] = {}  # (loops, not comprehensions: no frame of their own on 3.11)
    for m in answers:
        if m.name is not None and m.name in return_direct:
            by_id[m.tool_call_id] = m.name
    executed, direct = False, True  # some executed tool is a client-side one; all direct
    for c in ai.tool_calls:
        name = by_id.get(c.id or "", c.name)
        if name in return_direct:
            executed, direct = True, direct and return_direct[name]
    if executed and direct:
        return Route.END
    names = set(structured_names)
    if names and any(m.name in names and m.status != "error" for m in answers):
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
