"""Middleware hook nodes: `before_agent`, `before_model`, `after_model`, `after_agent`.

Input: at bind time the hook's `ir.NodeSpec` (config `{"middleware": name, "point":
point}`), the agent's `ir.Graph` and the `BindEnv`; per task the state and the task's
`RunContext`. Output: the hook's update (which may set `jump_to`), or None. Invariants: the
node calls the agent's shared middleware object (`middleware/binding.py`), the same one
its model and tools nodes call, with `(state, AgentRuntime)`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ...ir import Graph, HookPoint, NodeSpec
from ...runtime.types import BindEnv, Command, RunContext, factory
from ..middleware.base import AgentRuntime, StateUpdate
from ..middleware.binding import bound_middleware
from ..middleware.chain import hook_caller
from .spec import AgentSetupError
from .tools import bind_tools

HookNode = Callable[[Mapping[str, Any], RunContext], Awaitable[StateUpdate | Command | None]]


@factory
def hook_node(spec: NodeSpec, graph: Graph, env: BindEnv) -> HookNode:
    """One middleware hook as a node of the agent's graph."""
    name, point = spec.config["middleware"], HookPoint(spec.config["point"])
    bound = next((b for b in bound_middleware(graph, env) if b.name == name), None)
    if bound is None:
        raise AgentSetupError(f"hook node `{spec.name}` names unknown middleware `{name}`")
    try:
        hook = hook_caller(bound.obj, point)
    except TypeError:
        raise AgentSetupError(f"middleware `{name}` has no `{point.value}` hook") from None
    tools = tuple(bind_tools(graph, env))

    async def node(state: Mapping[str, Any], ctx: RunContext) -> StateUpdate | Command | None:
        return await hook(state, AgentRuntime(ctx, tools))

    node.__name__ = spec.name
    return node
