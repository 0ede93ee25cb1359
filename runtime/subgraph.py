"""`agent(...)` / `subgraph(...)` nodes: run another graph of the same program as a node.

Input: `NodeSpec.config {"graph": "<name>"}`. Output: the child's output channels that the
parent also has, as the node's update; a child node's `Command(graph=PARENT)` becomes this
node's own `Command`. Running the child (its own step limit H2, the parent's saver under
the namespace `node:task` H3, the parent's long-term store I1, pausing and resuming with
the parent) is `child.run_child`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import agentc.ir as ir
from agentc.runtime.algo import ParentCommand
from agentc.runtime.child import run_child
from agentc.runtime.errors import BindError
from agentc.runtime.types import BindEnv, Command, RunContext, factory

SubgraphNode = Callable[[Mapping[str, Any], RunContext], Awaitable[dict[str, Any] | Command]]


@factory
def subgraph_node(spec: ir.NodeSpec, graph: ir.Graph, env: BindEnv) -> SubgraphNode:
    name = spec.config.get("graph")
    if not isinstance(name, str):
        raise BindError(f'node `{spec.name}` needs config {{"graph": "<name>"}}', span=spec.span)
    child = env.subgraph(name)
    inputs = child.bound.input_channels
    parent_channels = frozenset(c.name for c in graph.state)

    async def run_subgraph(state: Mapping[str, Any], ctx: RunContext) -> dict[str, Any] | Command:
        value = {k: v for k, v in state.items() if k in inputs}
        try:
            values = await run_child(child, value, ctx)
        except ParentCommand as pc:
            return Command(update=pc.command.update, goto=pc.command.goto)
        return {k: v for k, v in values.items() if k in parent_channels}

    return run_subgraph
