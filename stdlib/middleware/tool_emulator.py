"""`tool_emulator` (E13, for tests): a model invents tool results instead of running tools.

Input: `tools` (names to emulate; none: every tool) and `model` (none: the agent's own).
Output: for an emulated call, a ToolMessage with the model's reply to langchain 1.4.10's
emulation prompt; other calls run normally.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..messages import HumanMessage, ToolMessage
from ..providers.base import ModelRequest
from .base import AgentMiddleware


def emulation_prompt(name: str, description: str, args: Any) -> str:
    return (
        f"You are emulating a tool call for testing purposes.\n\n"
        f"Tool: {name}\nDescription: {description}\nArguments: {args}\n\n"
        "Generate a realistic response that this tool would return given these "
        "arguments.\nReturn ONLY the tool's output, no explanation or preamble. "
        "Introduce variation into your responses."
    )


class ToolEmulator(AgentMiddleware):
    def __init__(self, *, tools: Sequence[Any] | None = None, model: Any = None) -> None:
        self.only = None if tools is None else {getattr(t, "name", t) for t in tools}
        self.model_spec, self.model = model, None if isinstance(model, str) else model
        self._info: Any = None

    def agentc_bind(self, info: Any) -> None:
        self._info = info

    async def awrap_tool_call(self, request: Any, handler: Any) -> Any:
        name = request.tool_call["name"]
        if self.only is not None and name not in self.only:
            return await handler(request)
        if self.model is None:
            self.model = self._info.model(self.model_spec)
        description = request.tool.description if request.tool else "No description available"
        prompt = emulation_prompt(name, description, request.tool_call["args"])
        reply = await self.model.generate(ModelRequest(messages=(HumanMessage(content=prompt),)))
        return ToolMessage(
            content=reply.content, tool_call_id=request.tool_call["id"] or "", name=name
        )


LLMToolEmulator = ToolEmulator
