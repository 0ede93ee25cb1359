"""`tool_emulator` (E13, for tests): a model invents tool results instead of running tools.

Input: `tools` (names to emulate; none: every tool) and `model` (none: the agent's own).
Output: for an emulated call, a ToolMessage with the model's reply to langchain 1.4.10's
emulation prompt; other calls run normally.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..messages import HumanMessage, ToolMessage
from ..providers.base import ChatModel
from ..providers.base import ModelRequest as ChatRequest
from ..tools import Tool, ToolResult
from .base import AgentMiddleware, ToolCallRequest, tool_names
from .binding import BindInfo
from .chain import ToolHandler


def emulation_prompt(name: str, description: str, args: Mapping[str, Any]) -> str:
    return (
        f"You are emulating a tool call for testing purposes.\n\n"
        f"Tool: {name}\nDescription: {description}\nArguments: {args}\n\n"
        "Generate a realistic response that this tool would return given these "
        "arguments.\nReturn ONLY the tool's output, no explanation or preamble. "
        "Introduce variation into your responses."
    )


class ToolEmulator(AgentMiddleware):
    def __init__(
        self, *, tools: Sequence[Tool | str] | None = None, model: str | ChatModel | None = None
    ) -> None:
        self.only = tool_names(tools)
        self.model_spec = model
        self.model = None if isinstance(model, str) else model
        self._info: BindInfo | None = None

    def agentc_bind(self, info: BindInfo) -> None:
        self._info = info

    def emulator(self) -> ChatModel:
        if self.model is None:
            assert self._info is not None, "the agent's model needs agentc_bind"
            spec = self.model_spec if isinstance(self.model_spec, str) else None
            self.model = self._info.model(spec)
        return self.model

    async def awrap_tool_call(self, request: ToolCallRequest, handler: ToolHandler) -> ToolResult:
        name = request.tool_call["name"]
        if self.only is not None and name not in self.only:
            return await handler(request)
        model = self.emulator()
        description = request.tool.description if request.tool else "No description available"
        prompt = emulation_prompt(name, description, request.tool_call["args"])
        reply = await model.generate(ChatRequest(messages=(HumanMessage(content=prompt),)))
        return ToolMessage(
            content=reply.content, tool_call_id=request.tool_call["id"] or "", name=name
        )


LLMToolEmulator = ToolEmulator
