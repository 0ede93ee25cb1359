"""The routers of the agent loop, bound once per agent: thin wrappers over `routing.py`.

Input: at bind time the `ir.BranchSpec`, the agent's `ir.Graph` and the `BindEnv`; per
call the state after the step. Output: a route label of the branch's `routes` map, or (out
of the model) one `Send` per pending tool call. Invariants: pure functions of the state
that never block (the runtime calls every router on the event loop: `runtime/inline.py`).

Seats: C2 (after a model turn: `jump_to` wins, no tool calls ends, each pending call is one
`tools` task: E5), C5/G2/G8 (after tools: back to the model unless every executed tool
returns directly or a structured answer was given), G4 (no tools node: retry until a fresh
structured answer), and a hook's declared jumps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...ir import BranchSpec, Graph
from ...runtime.types import BindEnv, Send, factory, state_only
from .. import routing
from .spec import STATE_KEY, TOOL_CALL_KEY, agent_of, all_tool_specs, needs_state
from .tools import structured_names

State = Mapping[str, Any]


@factory
def model_to_tools(
    spec: BranchSpec, graph: Graph, env: BindEnv
) -> Callable[[State], str | list[Send]]:
    """C2: jump_to wins; no tool calls ends; each pending call is one `tools` task (E5)."""
    agent = agent_of(graph)
    names = structured_names(agent, env)
    with_state = needs_state(agent)

    @state_only  # pure functions of the state (see above)
    def route(state: State) -> str | list[Send]:
        decision = routing.after_model(state, names)
        if isinstance(decision, routing.Route):
            return routing.LABEL[decision]
        snapshot = dict(state) if with_state else None
        return [Send("tools", {TOOL_CALL_KEY: c, STATE_KEY: snapshot}) for c in decision]

    return route


@factory
def tools_to_model(spec: BranchSpec, graph: Graph, env: BindEnv) -> Callable[[State], str]:
    """C5/G2/G8: back to the model unless all executed tools return directly or a
    structured answer was given."""
    agent = agent_of(graph)
    direct = {t.name: t.return_direct for t in all_tool_specs(agent)}
    names = structured_names(agent, env)

    @state_only  # pure functions of the state (see above)
    def route(state: State) -> str:
        return routing.LABEL[routing.after_tools(state, direct, names)]

    return route


@factory
def model_to_model(spec: BranchSpec, graph: Graph, env: BindEnv) -> Callable[[State], str]:
    """C2/G4 with no tools node: retry until a fresh structured answer ends the run."""

    @state_only  # pure functions of the state (see above)
    def route(state: State) -> str:
        return routing.after_model_no_tools(state).value

    return route


@factory
def hook_router(spec: BranchSpec, graph: Graph, env: BindEnv) -> Callable[[State], str]:
    """A hook with declared jumps: its `jump_to`, else the default edge."""

    @state_only  # pure functions of the state (see above)
    def route(state: State) -> str:
        jump = routing.jump_route(state)
        return jump.value if jump is not None else "default"

    return route
