"""`tool_error` (E3): a tool's exception becomes an error reply the model reads.

Input: `on_error` (a function `(error, request) -> text | None`; None from it re-raises;
no function: the error's own text, agentc's default — LangChain requires one) and `tools`
(only these tool names; none: all). Output: `ToolMessage(status="error")` in place of the
exception, so the run continues (E3 otherwise stops it). Interrupts pass through.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence

from ..messages import Content, ToolMessage
from ..tools import Tool, ToolResult
from .base import CONTROL_SIGNALS, AgentMiddleware, ToolCallRequest, tool_names
from .chain import ToolHandler

ErrorText = Content | None
OnError = Callable[[Exception, ToolCallRequest], ErrorText | Awaitable[ErrorText]]


class ToolError(AgentMiddleware):
    def __init__(
        self, on_error: OnError | None = None, *, tools: Sequence[Tool | str] | None = None
    ) -> None:
        self.on_error = on_error
        self.only = tool_names(tools)

    async def awrap_tool_call(self, request: ToolCallRequest, handler: ToolHandler) -> ToolResult:
        name = request.tool.name if request.tool is not None else request.tool_call["name"]
        if self.only is not None and name not in self.only:
            return await handler(request)
        try:
            return await handler(request)
        except CONTROL_SIGNALS:
            raise
        except Exception as exc:  # noqa: BLE001 - E3: the point is to catch it
            content = self.on_error(exc, request) if self.on_error else f"Error: {exc}"
            if inspect.isawaitable(content):
                content = await content
            if content is None:
                raise
            return ToolMessage(
                content=content,
                tool_call_id=request.tool_call["id"] or "",
                name=name,
                status="error",
            )


ToolErrorMiddleware = ToolError
