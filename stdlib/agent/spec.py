"""What an agent's IR says, read at bind time by every agent node and router.

Input: an `ir.Graph` whose `agent` is the `ir.AgentSpec`, and the agent's bound middleware.
Output: the agent spec itself, its tool specs (A7: middleware tools first, then the
agent's, a later name replacing an earlier one), whether tool tasks need a state snapshot
(E4), and the middleware objects that declare a hook. Invariants: pure reads of the IR; the
names of the payload of a tool task's `Send` (E5) are defined here, once.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...ir import AgentSpec, Graph, HookPoint, InjectedKind, ToolSpec
from ..middleware.binding import BoundMiddleware

TOOL_CALL_KEY = "__tool_call__"  # the Send payload of one tool task (E5)
STATE_KEY = "__state__"  # … and the state snapshot it carries when a tool reads it (E4)


class AgentSetupError(ValueError):
    """An agent that cannot be bound: a tool that is not a tool, a model that will not load."""


def agent_of(graph: Graph) -> AgentSpec:
    if graph.agent is None:
        raise AgentSetupError(f"graph `{graph.name}` is not an agent; the agent nodes need one")
    return graph.agent


def all_tool_specs(agent: AgentSpec) -> list[ToolSpec]:
    """A7: middleware tools first, then the agent's; a later name replaces an earlier one."""
    by_name: dict[str, ToolSpec] = {}
    for spec in [t for m in agent.middleware for t in m.tools] + list(agent.tools):
        by_name[spec.name] = spec
    return list(by_name.values())


def needs_state(agent: AgentSpec) -> bool:
    """Whether any tool reads the state (E4), so each Send carries a snapshot of it."""
    if any(HookPoint.WRAP_TOOL_CALL in m.hooks for m in agent.middleware):
        return True  # a wrap_tool_call reads `request.state` (D12: the reviewer's edits)
    return any(
        a.kind in (InjectedKind.STATE, InjectedKind.RUNTIME)
        for t in all_tool_specs(agent)
        for a in t.injected
    )


def with_hook(bound: Sequence[BoundMiddleware], *points: HookPoint) -> list[object]:
    """The objects of the middleware that declare one of `points`, in declaration order."""
    return [b.obj for b in bound if any(b.has(p) for p in points)]
