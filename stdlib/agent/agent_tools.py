"""H1: another agent of the program, used as a tool of this one.

Input: an `ir.ToolSpec` whose `agent` names the child agent, and the `BindEnv`. Output: a
`Tool` taking one `request` string: the model's request becomes the child's user message
and the child's last message its answer. Running the child inside the tool's task is
`runtime.child.nest` (H2: the child's own step limit; H3: the parent's saver under
the tool task's namespace, keyed by the tool call's id; D4: a pause in the child pauses
the parent, and resuming the parent resumes the child; I1: the parent's store).
Invariants: an explicit `checkpoint none` on the child runs it unsaved (H3).
"""

from __future__ import annotations

from ...ir import ToolSpec
from ...runtime.child import lends, nest
from ...runtime.types import BindEnv
from ..tools import Tool, ToolRuntime, make_tool


def agent_tool(spec: ToolSpec, env: BindEnv) -> Tool:
    """The child agent `spec.agent` as a tool named `spec.name` (H1)."""
    assert spec.agent is not None, "agent_tool binds a tool spec that names an agent"
    child = env.subgraph(spec.agent)
    lend = lends(child)  # an explicit `checkpoint none` opts out (H3)

    async def run_agent(request: str, runtime: ToolRuntime) -> str:
        value = {"messages": [{"role": "user", "content": request}]}
        key = runtime.tool_call_id or ""
        outcome = await nest(child, value, runtime.task, key=key, lend=lend)
        messages = outcome.get("messages") or []
        return messages[-1].text if messages else ""

    run_agent.__name__ = spec.name
    return make_tool(
        run_agent,
        name=spec.name,
        description=spec.description or spec.name,
        return_direct=spec.return_direct,
    )
