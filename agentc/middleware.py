"""`from agentc.middleware import before_model, AgentMiddleware, …`: the short import path
for users' hooks; everything comes from `agentc.stdlib.middleware` (library classes load on
first use)."""

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
