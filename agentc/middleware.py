"""`from agentc.middleware import before_model, AgentMiddleware, …`: the short import path
for users' hooks.

Input: nothing. Output: the names of `agentc.stdlib.middleware`, re-exported (library
classes load on first use, through its `__getattr__`). Invariants: nothing is defined here,
so the two import paths can never disagree.
"""

from agentc.stdlib.middleware import (
    AgentMiddleware,
    AgentRuntime,  # noqa: F401
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
    ToolCallRequest,
    __all__,
    __getattr__,
    after_agent,
    after_model,
    before_agent,
    before_model,
    dynamic_prompt,
    hook_config,
    wrap_model_call,
    wrap_tool_call,
)
