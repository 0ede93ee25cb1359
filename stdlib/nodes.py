"""Model and tool nodes for hand-built `graph` blocks: the factories the IR names.

Input: `node write = model("openai:gpt-4o-mini", prompt: "…", input: "…", into: joke)` and
`node act = tools([tools.add])`, as `ir.NodeSpec`s whose `config` is an
`ir.ModelNodeConfig` / `ir.ToolNodeConfig` as JSON (read back here, so a config the
factory cannot read is a bind error naming the node). Output: `graph_model.GraphModelCall`
(what a LangGraph node calling `model.invoke(…)` / `with_structured_output(…)` does) and a
`ToolRunner` over the config's `messages` channel — LangGraph's prebuilt ToolNode: every
call of the last AI message, run concurrently and answered in listed order (E5), a bad
argument or unknown tool answered as an error tool message (E1, E2), injected state, store,
tool-call id and runtime (E4), `Command`s from tools (E11) — routed by `tools_condition`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..ir import Graph, HookPoint, ModelNodeConfig, NodeSpec, ToolNodeConfig
from ..runtime.errors import AgentcRuntimeError, BindError
from ..runtime.types import BindEnv, RunContext, factory
from .agent.spec import TOOL_CALL_KEY
from .agent.tool_node import ToolRunner, Update
from .agent.tools import bind_output_spec, bind_tool
from .graph_model import GraphModelCall, bind_wrappers, writes_items
from .models import ModelChooser
from .routing import last_ai_and_tool_messages
from .tools import Tool

C = TypeVar("C", bound=BaseModel)


def _config(spec: NodeSpec, cls: type[C], what: str) -> C:
    try:
        return cls.model_validate(spec.config)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "config"
        raise BindError(
            f"{what} node `{spec.name}` cannot read its config: `{where}`: {first.get('msg')}",
            span=spec.span,
            help="recompile the .agent file with this agentc version",
        ) from None


def _tools(specs: list[Any], env: BindEnv) -> dict[str, Tool]:
    by_name: dict[str, Tool] = {}
    for t in specs:  # A7: the last tool of a name wins
        by_name[t.name] = bind_tool(t, env)
    return by_name


@factory
def model_node(spec: NodeSpec, graph: Graph, env: BindEnv) -> GraphModelCall:
    config = _config(spec, ModelNodeConfig, "model")
    return GraphModelCall(
        spec.name,
        config,
        ModelChooser(config.model, env.base_dir, graph=f"{graph.name}.{spec.name}"),
        tools=list(_tools(list(config.tools), env).values()),  # offered every call (B5)
        output=bind_output_spec(config.output, env) if config.output is not None else None,
        wrappers=bind_wrappers(config.wrap, env, HookPoint.WRAP_MODEL_CALL, spec.name),
        as_item=writes_items(next((c for c in graph.state if c.name == config.into), None)),
    )


class ToolNodeError(AgentcRuntimeError):
    """A graph tools node reached with no AI message to run the calls of."""

    code = "tool-node-failed"


class GraphToolRunner(ToolRunner):
    """LangGraph's ToolNode: a conversation without an AI message is an error (its
    "No AIMessage found in input"); an AI message without calls answers nothing."""

    def __init__(
        self,
        node: str,
        config: ToolNodeConfig,
        tools: Mapping[str, Tool],
        wrappers: list[object],
    ) -> None:
        super().__init__(tools, wrappers, messages=config.messages)
        self.node, self.span = node, config.span

    async def __call__(self, state: Mapping[str, Any], ctx: RunContext) -> Update:
        if TOOL_CALL_KEY not in state:
            ai, _ = last_ai_and_tool_messages(state.get(self.messages) or ())
            if ai is None:
                raise ToolNodeError(
                    f"tools node `{self.node}` found no AI message in `{self.messages}` "
                    "to run the tool calls of",
                    span=self.span,
                    help="route to this node after a model node, e.g. with `tools_condition`",
                )
        return await super().__call__(state, ctx)


@factory
def tool_node(spec: NodeSpec, graph: Graph, env: BindEnv) -> ToolRunner:
    config = _config(spec, ToolNodeConfig, "tools")
    wraps = bind_wrappers(config.wrap, env, HookPoint.WRAP_TOOL_CALL, spec.name)
    return GraphToolRunner(spec.name, config, _tools(list(config.tools), env), wraps)
