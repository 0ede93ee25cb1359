"""`agent(...)` / `subgraph(...)` nodes: run another graph of the same program as a node.

Input: `NodeSpec.config {"graph": "<name>"}`. Output: the child's output channels that the
parent also has, as the node's update. The child keeps its own bound recursion limit (H2:
the parent's run limit does not apply) and saves into the parent's store under its own
namespace `node:task` (H3: same saver, not the same history); its tasks see the parent's
long-term store (I1). A child's interrupts pause
the parent; resuming the parent re-runs this task, which resumes the child.
"""

from __future__ import annotations

from typing import Any

from agentc.runtime.algo import ParentCommand
from agentc.runtime.context import TaskContext
from agentc.runtime.errors import BindError
from agentc.runtime.events import CustomEvent, MessagesEvent
from agentc.runtime.inputs import ResumeMap
from agentc.runtime.types import Command, GraphInterrupt, RunConfig, StreamMode, factory

_FORWARDED = frozenset({StreamMode.MESSAGES, StreamMode.CUSTOM})


@factory
def subgraph_node(spec: Any, graph: Any, env: Any) -> Any:
    name = spec.config.get("graph")
    if not isinstance(name, str):
        raise BindError(f'node `{spec.name}` needs config {{"graph": "<name>"}}', span=spec.span)
    child = env.subgraph(name)
    parent_channels = frozenset(c.name for c in graph.state)

    async def run_subgraph(state: Any, ctx: TaskContext) -> Any:
        ns = f"{ctx.ns}|{ctx.node}:{ctx.task_id}" if ctx.ns else f"{ctx.node}:{ctx.task_id}"
        config = RunConfig(
            thread_id=ctx.config.thread_id,
            configurable=ctx.config.configurable,
            tags=ctx.config.tags,
        )  # recursion_limit None: the child's own (H2)
        saver = ctx.checkpointer if ctx.config.thread_id is not None else None
        value: Any = {k: v for k, v in state.items() if k in child.bound.input_channels}
        if saver is not None and _has_pending(saver, ctx.config.thread_id, ns):
            value = Command(resume=ResumeMap(ctx.resumes)) if ctx.resumes else None
        sink = _forward(ctx) if ctx.sink is not None and ctx.modes & _FORWARDED else None
        spec_ = child.spec(
            config,
            modes=ctx.modes & _FORWARDED,
            sink=sink,
            ns=ns,
            checkpointer=saver,
            store=ctx.store,
        )  # I1: the parent's store
        try:
            outcome = await child.run(value, spec_)
        except ParentCommand as pc:
            return Command(update=pc.command.update, goto=pc.command.goto)
        if outcome.paused:
            raise GraphInterrupt(outcome.interrupts)
        return {k: v for k, v in outcome.values.items() if k in parent_channels}

    return run_subgraph


def _has_pending(store: Any, thread: str, ns: str) -> bool:
    last = store.get(thread, ns)
    return last is not None and bool(last.next)


def _forward(ctx: TaskContext) -> Any:
    def sink(event: Any) -> None:
        if isinstance(event, (MessagesEvent, CustomEvent)):
            ctx.sink(
                type(event)(
                    event.step,
                    event.node,
                    event.payload,
                    f"{ctx.node}|{event.ns}" if event.ns else ctx.node,
                )
            )

    return sink
