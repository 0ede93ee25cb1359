"""Model and tool nodes for hand-built `graph` blocks.

Input: `node write = model("openai:gpt-4o-mini", prompt: "…", tools: [tools.add])` and
`node act = tools([tools.add])`, as `ir.NodeSpec`s whose `config` carries `model` (an
`ir.ModelSpec` as JSON, or the model string), `prompt` and `tools` (`ir.ToolSpec`s as JSON).
Output: a node that calls the model on the graph's `messages` (system prompt prepended,
never saved: B1; the tools offered every call: B5) and one that runs every tool call of the
last AI message concurrently, answers in listed order (E5) — LangGraph's prebuilt ToolNode
used with `tools_condition`.
"""

from __future__ import annotations

from typing import Any

from ..ir import Graph, ModelSpec, NodeSpec, ToolSpec
from ..runtime.types import factory
from .agent import (
    AgentSetupError,
    ModelCall,
    ModelChooser,
    ToolRunner,
    bind_tool,
    model_spec_from_string,
)
from .messages import SystemMessage
from .providers.base import ToolDefinition


def _model_spec(raw: Any, spec: NodeSpec) -> ModelSpec:
    if isinstance(raw, dict):
        return ModelSpec.model_validate(raw)
    if isinstance(raw, str):
        return model_spec_from_string(raw, spec.span)
    raise AgentSetupError(f"model node `{spec.name}` names no model")


def _tool_specs(spec: NodeSpec) -> list[ToolSpec]:
    return [ToolSpec.model_validate(t) for t in spec.config.get("tools", [])]


@factory
def model_node(spec: NodeSpec, graph: Graph, env: Any) -> ModelCall:
    tools = [bind_tool(t, env) for t in _tool_specs(spec)]
    prompt = spec.config.get("prompt")
    return ModelCall(
        chooser=ModelChooser(
            _model_spec(spec.config.get("model"), spec),
            env.base_dir,
            graph=f"{graph.name}.{spec.name}",
        ),
        system=SystemMessage(content=prompt) if prompt is not None else None,
        tools=tuple(ToolDefinition(t.name, t.description, t.parameters) for t in tools),
        provider_tools=tuple(spec.config.get("provider_tools", [])),
        output=None,
    )


@factory
def tool_node(spec: NodeSpec, graph: Graph, env: Any) -> ToolRunner:
    by_name = {}
    for t in _tool_specs(spec):  # A7: the last tool of a name wins
        by_name[t.name] = bind_tool(t, env)
    return ToolRunner(by_name)
