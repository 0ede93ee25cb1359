"""agentc's middleware: the hook protocol, decorator hooks and the built-in library.

`from agentc.stdlib.middleware import AgentMiddleware, before_model, ...` (or the short
`agentc.middleware`) gives LangChain v1's names, so a hook written for
`langchain.agents.middleware` ports by changing its import line. The built-in classes load
on first use under both their agentc names and LangChain's (`HumanInTheLoopMiddleware` …).
"""

from __future__ import annotations

import importlib
from typing import Any

from .base import (
    AgentMiddleware,
    AgentRuntime,
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
    ToolCallRequest,
    hook_config,
)
from .decorators import (
    after_agent,
    after_model,
    before_agent,
    before_model,
    dynamic_prompt,
    wrap_model_call,
    wrap_tool_call,
)

_LIBRARY = {
    "HumanInTheLoop": "human_in_the_loop",
    "HumanInTheLoopMiddleware": "human_in_the_loop",
    "Summarization": "summarization",
    "SummarizationMiddleware": "summarization",
    "ContextEditing": "context_editing",
    "ContextEditingMiddleware": "context_editing",
    "ClearToolUsesEdit": "context_editing",
    "ModelCallLimit": "call_limits",
    "ModelCallLimitMiddleware": "call_limits",
    "ToolCallLimit": "call_limits",
    "ToolCallLimitMiddleware": "call_limits",
    "ModelCallLimitExceededError": "call_limits",
    "ToolCallLimitExceededError": "call_limits",
    "ModelFallback": "model_fallback",
    "ModelFallbackMiddleware": "model_fallback",
    "ModelRetry": "retry",
    "ModelRetryMiddleware": "retry",
    "ToolRetry": "retry",
    "ToolRetryMiddleware": "retry",
    "ToolError": "tool_error",
    "ToolErrorMiddleware": "tool_error",
    "PII": "pii",
    "PIIMiddleware": "pii",
    "PIIDetectionError": "pii",
    "TodoList": "todo",
    "TodoListMiddleware": "todo",
    "LLMToolSelector": "tool_selection",
    "LLMToolSelectorMiddleware": "tool_selection",
    "ToolEmulator": "tool_emulator",
    "LLMToolEmulator": "tool_emulator",
    "Budgets": "budgets",
    "ShellTool": "shell_tool",
    "ShellToolMiddleware": "shell_tool",
    "FileSearch": "file_search",
    "FilesystemFileSearchMiddleware": "file_search",
    "ModelRefusal": "model_refusal",
    "ModelRefusalMiddleware": "model_refusal",
    "ModelRefusalError": "model_refusal",
    "AgentState": "state",
    "OmitFromSchema": "state",
    "OmitFromInput": "state",
    "OmitFromOutput": "state",
    "PrivateStateAttr": "state",
}

__all__ = [
    "AgentMiddleware",
    "AgentRuntime",
    "ExtendedModelResponse",
    "ModelRequest",
    "ModelResponse",
    "ToolCallRequest",
    "after_agent",
    "after_model",
    "before_agent",
    "before_model",
    "dynamic_prompt",
    "hook_config",
    "wrap_model_call",
    "wrap_tool_call",
    *_LIBRARY,
]


def __getattr__(name: str) -> Any:
    module = _LIBRARY.get(name)
    if module is None:
        raise AttributeError(f"module 'agentc.stdlib.middleware' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
