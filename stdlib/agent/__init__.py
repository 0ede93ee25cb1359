"""The nodes and routers an `agent { … }` block lowers to (docs/agent-template.md).

Input: at bind time, the `ir.Graph` (its `agent` is the `ir.AgentSpec`) and a `BindEnv`; at
run time, the state and a `RunContext`. Output: state updates (model replies, tool answers,
the structured answer) and route labels or `Send`s.

The IR names these by import key (`agentc.stdlib.agent:model_node`, `:tool_node`,
`:hook_node`, `:model_to_tools`, `:tools_to_model`, `:model_to_model`, `:hook_router`), so
this package re-exports them, and the names other layers import, from its modules:
- `spec.py` — what the agent's IR says (tool specs A7, state snapshots E4, hooks);
- `models.py` (one level up, `stdlib/models.py`) — which model a call uses (A1, A2, A4);
- `tools.py` — the agent's tools, structured output and MCP toolset, bound (A7, A9, B5, B7);
- `agent_tools.py` — another agent used as a tool (H1–H3);
- `repair.py` — malformed tool calls answered before a model call (B4, E10);
- `model_node.py` — the model call inside the `wrap_model_call` chain (B1–B7, F12, G1–G8);
- `tool_node.py` — the tool calls inside the `wrap_tool_call` chain (E1–E5);
- `routers.py` — the loop's routers (C2, C5, G2, G4, G8);
- `hooks.py` — middleware hooks as nodes.
"""

from __future__ import annotations

from ..models import (
    ModelChooser,
    ModelSource,
    is_configurable,
    model_source,
    model_spec_from_string,
    resolve_model,
)
from .agent_tools import agent_tool
from .hooks import hook_node
from .model_node import ModelCall, model_node, split_tools
from .repair import RepairScan, invalid_call_message, needs_repair, patch_invalid_tool_calls
from .routers import hook_router, model_to_model, model_to_tools, tools_to_model
from .spec import (
    STATE_KEY,
    TOOL_CALL_KEY,
    AgentSetupError,
    agent_of,
    all_tool_specs,
    needs_state,
    with_hook,
)
from .tool_node import ToolRunner, as_update, tool_node
from .tools import (
    MCP_TOOLSET,
    bind_output,
    bind_output_spec,
    bind_tool,
    bind_tools,
    mcp_toolset,
    merged_tools,
    middleware_tools,
    structured_names,
)

__all__ = [
    "MCP_TOOLSET",
    "STATE_KEY",
    "TOOL_CALL_KEY",
    "AgentSetupError",
    "ModelCall",
    "ModelChooser",
    "ModelSource",
    "RepairScan",
    "ToolRunner",
    "agent_of",
    "agent_tool",
    "all_tool_specs",
    "as_update",
    "bind_output",
    "bind_output_spec",
    "bind_tool",
    "bind_tools",
    "hook_node",
    "hook_router",
    "invalid_call_message",
    "is_configurable",
    "mcp_toolset",
    "merged_tools",
    "middleware_tools",
    "model_node",
    "model_source",
    "model_spec_from_string",
    "model_to_model",
    "model_to_tools",
    "needs_repair",
    "needs_state",
    "patch_invalid_tool_calls",
    "resolve_model",
    "split_tools",
    "structured_names",
    "tool_node",
    "tools_to_model",
    "with_hook",
]
