"""Running a compiled child graph inside a parent's task: subgraph nodes, agents as tools.

Input: the child `CompiledGraph`, its input (a dict of its input channels), the parent
task's `RunContext` (None: called outside any run) and, when one task may run several
children (one per tool call), the `key` that tells them apart. Output: the child's output
channel values. A pause inside the child raises `GraphInterrupt` (so the parent pauses); a
child node's `Command(graph=PARENT)` leaves as `ParentCommand` for the caller to apply.

Invariants:
- H2: the child runs under its own bound recursion limit, not what is left of the parent's.
- H3: with the parent's checkpointer and a thread id, the child saves into that
  checkpointer under its own namespace, the parent's namespace plus `node:task` (and
  `:key`): the same saver, not the same history. `lend=False` runs the child unsaved.
- D4: resuming the parent runs the task again; when the child has a pending checkpoint, the
  parent's resume answers go to it (ids it does not know are ignored) and it continues
  where it paused instead of starting over.
- I1: the child's tasks see the parent's long-term store, and its run context (checked
  again against the child's own `context` schema, if it declares one).
- The child's `messages` and `custom` events reach the parent's stream readers, their `ns`
  prefixed with the node's name (a subgraph node) or the child's namespace segment (keyed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agentc.runtime.checkpoint import Checkpointer
from agentc.runtime.context import Sink, TaskContext
from agentc.runtime.events import CustomEvent, MessagesEvent
from agentc.runtime.inputs import ResumeMap
from agentc.runtime.types import Command, GraphInterrupt, RunConfig, RunContext, StreamMode

if TYPE_CHECKING:
    from agentc.runtime.compiled import CompiledGraph

FORWARDED = frozenset({StreamMode.MESSAGES, StreamMode.CUSTOM})


async def run_child(
    child: CompiledGraph,
    value: Mapping[str, Any],
    ctx: RunContext | None,
    *,
    key: str | None = None,
    lend: bool = True,
) -> dict[str, Any]:
    """Run `child` to its end (or its pause) as part of the task `ctx` (H2, H3, I1, D4)."""
    task = ctx if isinstance(ctx, TaskContext) else None
    if task is None:  # not inside a running graph: a plain run of its own
        return await child.ainvoke(dict(value), RunConfig())
    segment = f"{task.node}:{task.task_id}" if key is None else f"{task.node}:{task.task_id}:{key}"
    ns = f"{task.ns}|{segment}" if task.ns else segment
    thread = task.config.thread_id
    saver = task.checkpointer if lend and thread is not None else None
    start: Mapping[str, Any] | Command | None = value
    if saver is not None and thread is not None and _has_pending(saver, thread, ns):
        start = Command(resume=ResumeMap(task.resumes)) if task.resumes else None
    config = RunConfig(
        thread_id=thread,
        configurable=task.config.configurable,
        tags=task.config.tags,
        context=task.config.context,  # the run's context reaches every level
    )  # recursion_limit None: the child's own (H2)
    modes = task.modes & FORWARDED
    label = task.node if key is None else segment
    spec = child.spec(
        config,
        modes=modes,
        sink=_forward(task.sink, label) if task.sink is not None and modes else None,
        ns=ns,
        checkpointer=saver,
        store=task.store,  # I1: the parent's store
        # a lone task on the sync API's private loop: the child has that loop to itself
        # too; not a keyed child (several may run at once inside one task)
        inline_sync=task.inline and key is None,
    )
    outcome = await child.run(start, spec)
    if outcome.paused:
        raise GraphInterrupt(outcome.interrupts)
    return outcome.values


def _has_pending(saver: Checkpointer, thread: str, ns: str) -> bool:
    last = saver.get(thread, ns)
    return last is not None and bool(last.next)


def _forward(sink: Sink, label: str) -> Sink:
    """The child's `messages` / `custom` events, passed on to the parent's readers."""

    def forward(event: Any) -> None:
        if isinstance(event, (MessagesEvent, CustomEvent)):
            ns = f"{label}|{event.ns}" if event.ns else label
            sink(type(event)(event.step, event.node, event.payload, ns))

    return forward
