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

from ..ir import JSON, Graph, ModelSpec, NodeSpec, ToolSpec
from ..runtime.types import BindEnv, factory
from .agent.model_node import ModelCall
from .agent.spec import AgentSetupError
from .agent.tool_node import ToolRunner
from .agent.tools import bind_tool
from .messages import SystemMessage
from .models import ModelChooser, model_spec_from_string
from .tools import Tool


def _model_spec(raw: JSON, spec: NodeSpec) -> ModelSpec:
    if isinstance(raw, dict):
        return ModelSpec.model_validate(raw)
    if isinstance(raw, str):
        return model_spec_from_string(raw, spec.span)
    raise AgentSetupError(f"model node `{spec.name}` names no model")


def _tool_specs(spec: NodeSpec) -> list[ToolSpec]:
    raw = spec.config.get("tools") or []
    return [ToolSpec.model_validate(t) for t in raw] if isinstance(raw, list) else []


def _provider_tools(spec: NodeSpec) -> tuple[dict[str, JSON], ...]:
    raw = spec.config.get("provider_tools") or []
    return tuple(t for t in raw if isinstance(t, dict)) if isinstance(raw, list) else ()


@factory
def model_node(spec: NodeSpec, graph: Graph, env: BindEnv) -> ModelCall:
    prompt = spec.config.get("prompt")
    return ModelCall(
        chooser=ModelChooser(
            _model_spec(spec.config.get("model"), spec),
            env.base_dir,
            graph=f"{graph.name}.{spec.name}",
        ),
        system=SystemMessage.model_validate({"content": prompt}) if prompt is not None else None,
        tools=[bind_tool(t, env) for t in _tool_specs(spec)],  # offered as definitions (B5)
        provider_tools=_provider_tools(spec),
        output=None,
    )


@factory
def tool_node(spec: NodeSpec, graph: Graph, env: BindEnv) -> ToolRunner:
    by_name: dict[str, Tool] = {}
    for t in _tool_specs(spec):  # A7: the last tool of a name wins
        by_name[t.name] = bind_tool(t, env)
    return ToolRunner(by_name)
