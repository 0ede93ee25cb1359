"""`todo_list`: a `write_todos` tool and the guidance to plan with it.

Input: `system_prompt` and `tool_description` (none: langchain 1.4.10's texts, kept in
`stdlib/data/todo_prompts.json`). Output: the tool `write_todos(todos)` which replaces the
state's `todos` and answers "Updated todo list to [...]"; each model call's system message
with the guidance appended as a text block; after a model turn with more than one
`write_todos` call, each of them answered with an error (the list is replaced whole, so
parallel updates would be ambiguous). The tool's parameters are the schema LangChain's
model is given (`convert_to_openai_tool`): references inlined, titles dropped, the item's
description kept.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from ...runtime.types import Command
from ..messages import AIMessage, SystemMessage, ToolMessage
from ..tools import InjectedToolCallId, make_tool
from .base import AgentMiddleware, AgentRuntime, ModelRequest, ModelResult, StateUpdate
from .chain import ModelHandler
from .state import AgentState, OmitFromInput

_TEXTS = json.loads(
    (Path(__file__).resolve().parent.parent / "data" / "todo_prompts.json").read_text(
        encoding="utf-8"
    )
)
SYSTEM_PROMPT: str = _TEXTS["system_prompt"]
TOOL_DESCRIPTION: str = _TEXTS["tool_description"]
PARALLEL_ERROR = (
    "Error: The `write_todos` tool should never be called multiple times in "
    "parallel. Please call it only once per model invocation to update the todo "
    "list."
)


class Todo(TypedDict):
    """A single todo item with content and status."""

    content: str
    status: Literal["pending", "in_progress", "completed"]


def write_todos(todos: list[Todo], tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """Replace the todo list."""
    items = [dict(t) for t in todos]
    return Command(
        update={
            "todos": items,
            "messages": [
                ToolMessage(content=f"Updated todo list to {items}", tool_call_id=tool_call_id)
            ],
        }
    )


def model_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The parameters as LangChain sends them: `$ref`s inlined, `$defs`, titles and the
    top-level description (the tool's own) dropped."""
    defs = schema.get("$defs", {})

    def walk(node: Any, under_properties: bool = False) -> Any:
        if isinstance(node, list):
            return [walk(v) for v in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return walk({**defs[node["$ref"].rsplit("/", 1)[-1]], **rest})
        return {
            k: walk(v, k == "properties")
            for k, v in node.items()
            if k != "$defs" and (under_properties or k != "title")
        }

    out = walk(schema)
    out.pop("description", None)
    return out


Block = str | dict[str, Any]


def _text_blocks(message: SystemMessage) -> list[Block]:
    content = message.content
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return [b if isinstance(b, dict) else {"type": "text", "text": b} for b in content]


class TodoListState(AgentState):
    todos: NotRequired[Annotated[list[dict[str, Any]], OmitFromInput]]


class TodoList(AgentMiddleware):
    state_schema = TodoListState  # read statically by the compiler when used from Python

    def __init__(
        self, *, system_prompt: str | None = None, tool_description: str | None = None
    ) -> None:
        self.system_prompt = system_prompt or SYSTEM_PROMPT
        self.tool_description = tool_description or TOOL_DESCRIPTION
        tool = make_tool(write_todos, name="write_todos", description=self.tool_description)
        self.tools = [dataclasses.replace(tool, parameters=model_schema(tool.parameters))]

    async def awrap_model_call(self, request: ModelRequest, handler: ModelHandler) -> ModelResult:
        blocks: list[Block]
        if request.system_message is not None:
            blocks = [
                *_text_blocks(request.system_message),
                {"type": "text", "text": f"\n\n{self.system_prompt}"},
            ]
        else:
            blocks = [{"type": "text", "text": self.system_prompt}]
        return await handler(request.override(system_message=SystemMessage(content=blocks)))

    def after_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate | None:
        ai = next(
            (m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None
        )
        calls = [c for c in (ai.tool_calls if ai else []) if c.name == "write_todos"]
        if len(calls) <= 1:
            return None
        return {
            "messages": [
                ToolMessage(content=PARALLEL_ERROR, tool_call_id=c.id or "", status="error")
                for c in calls
            ]
        }


TodoListMiddleware = TodoList
