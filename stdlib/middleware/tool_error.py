"""`tool_error` (E3): a tool's exception becomes an error reply the model reads.

Input: `on_error` (a function `(error, request) -> text | None`; None from it re-raises;
no function: the error's own text, agentc's default — LangChain requires one) and `tools`
(only these tool names; none: all). Output: `ToolMessage(status="error")` in place of the
exception, so the run continues (E3 otherwise stops it). Interrupts pass through.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from ..messages import ToolMessage
from .base import AgentMiddleware, control_signals


class ToolError(AgentMiddleware):
    def __init__(
        self, on_error: Callable[..., Any] | None = None, *, tools: Sequence[Any] | None = None
    ) -> None:
        self.on_error = on_error
        self.only = None if tools is None else {getattr(t, "name", t) for t in tools}

    async def awrap_tool_call(self, request: Any, handler: Any) -> Any:
        name = request.tool.name if request.tool is not None else request.tool_call["name"]
        if self.only is not None and name not in self.only:
            return await handler(request)
        try:
            return await handler(request)
        except control_signals():
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
