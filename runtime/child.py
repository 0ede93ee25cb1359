"""Running a compiled child graph inside a parent's task: subgraph nodes, agents as tools,
and graphs a Python node or tool runs itself (`run_child`, or `invoke` inside a task).

Input: the child `CompiledGraph`, its input (a dict of its input channels), the parent
task's `RunContext` (None: called outside any run) and, when one task may run several
children (one per tool call), the `key` that tells them apart. Output: the child's output
channel values. A pause inside the child raises `GraphInterrupt` (so the parent pauses); a
child node's `Command(graph=PARENT)` leaves as `ParentCommand` for the caller to apply.

Invariants:
- H2: the child runs under its own bound recursion limit, not what is left of the parent's.
  A graph a Python node or tool runs (`run_child`) that binds no limit of its own (no
  `limits { steps }`, not an agent) gets the limit the parent run was given, as a
  LangGraph child inherits its parent's config.
- H3: with the parent's checkpointer and a thread id, the child saves into that
  checkpointer under its own namespace, the parent's namespace plus `node:task` (and
  `:key`): the same saver, not the same history. `lend=False` runs the child unsaved. A
  task's second and later `run_child` calls get the keys `1`, `2`, … in call order, so
  each child has a namespace of its own (LangGraph refuses a second subgraph call in one
  node under a checkpointer).
- D4: resuming the parent runs the task again; when the child has a pending checkpoint, the
  parent's resume answers go to it (ids it does not know are ignored) and it continues
  where it paused instead of starting over.
- I1: the child's tasks see the parent's long-term store, and its run context (checked
  again against the child's own `context` schema, if it declares one).
- The child's `messages`, `custom` and `events` events reach the parent's stream readers
  as they are: their `ns` is the emitting task's checkpoint namespace (`node:task|…`, the
  path LangGraph's `subgraphs=True` namespaces give).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import agentc.ir as ir
from agentc.runtime.checkpoint import Checkpointer
from agentc.runtime.context import Sink, TaskContext, running_task
from agentc.runtime.events import RUN_EVENTS, CustomEvent, MessagesEvent
from agentc.runtime.inputs import ResumeMap
from agentc.runtime.syncrun import run_sync
from agentc.runtime.types import Command, GraphInterrupt, RunConfig, RunContext, StreamMode

if TYPE_CHECKING:
    from agentc.runtime.compiled import CompiledGraph

FORWARDED = frozenset({StreamMode.MESSAGES, StreamMode.CUSTOM, StreamMode.EVENTS})


def run_child(
    graph: CompiledGraph, value: Mapping[str, Any], *, key: str | None = None
) -> dict[str, Any]:
    """Run `graph` as a nested run of the task whose Python node or tool calls this: its
    checkpoints under the task's namespace in the parent's checkpointer (H3), its
    `interrupt()` pausing the parent and the parent's resume reaching it (D4), the parent's
    recursion limit when it binds none (H2), store, context and stream readers (I1). The
    child's output values; outside a running graph, a plain run of its own."""
    return run_sync(lambda: arun_child(graph, value, key=key))


async def arun_child(
    graph: CompiledGraph, value: Mapping[str, Any], *, key: str | None = None
) -> dict[str, Any]:
    """`run_child` for async code."""
    task = running_task()
    if task is None:
        return await graph.ainvoke(dict(value))
    if key is None:  # the first call keeps the plain `node:task` namespace (H3)
        index, task.children = task.children, task.children + 1
        key = str(index) if index else None
    limit = None if binds_limit(graph) else task.config.recursion_limit
    return await nest(graph, value, task, key=key, lend=lends(graph), limit=limit)


def lends(child: CompiledGraph) -> bool:
    """H3: a child saves into its parent's checkpointer unless its file says `checkpoint
    none` explicitly (a child with no `checkpoint` line still saves, as LangGraph's)."""
    spec = child.graph.checkpoint
    return spec.kind is not ir.CheckpointKind.NONE or spec.span is None


def binds_limit(child: CompiledGraph) -> bool:
    """H2: an agent binds create_agent's limit; a graph binds one when it writes `limits`."""
    return child.graph.agent is not None or child.graph.limits.steps.span is not None


async def nest(
    child: CompiledGraph,
    value: Mapping[str, Any],
    ctx: RunContext | None,
    *,
    key: str | None = None,
    lend: bool = True,
    limit: int | None = None,
) -> dict[str, Any]:
    """Run `child` to its end (or its pause) as part of the task `ctx` (H2, H3, I1, D4);
    `limit`: the recursion limit, None for the child's own."""
    task = ctx if isinstance(ctx, TaskContext) else None
    if task is None:  # not inside a running graph: a plain run of its own
        return await child.ainvoke(dict(value), RunConfig())
    segment = f"{task.node}:{task.task_id}" if key is None else f"{task.node}:{task.task_id}:{key}"
    ns = f"{task.ns}|{segment}" if task.ns else segment
    thread = task.config.thread_id
    saver = task.checkpointer if lend and thread is not None else None
    start = value if saver is None or thread is None else _start(saver, thread, ns, value, task)
    config = RunConfig(
        thread_id=thread,
        configurable=task.config.configurable,
        tags=task.config.tags,
        context=task.config.context,  # the run's context reaches every level
        recursion_limit=limit,  # None: the child's own (H2)
    )
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


def _start(
    saver: Checkpointer, thread: str, ns: str, value: Mapping[str, Any], task: TaskContext
) -> Mapping[str, Any] | Command | None:
    """D4: what the child starts from. A child paused in its namespace is resumed (with the
    parent's answers, when the parent is resumed with some); a child this task finished
    before a later one paused it gives back its saved result when the parent is resumed
    (None: nothing left to run), as LangGraph's resuming subgraph does; else `value`."""
    last = saver.get(thread, ns)
    if last is None:
        return value
    if last.next:
        return Command(resume=ResumeMap(task.resumes)) if task.resumes else None
    return None if task.resumes else value


def _forward(sink: Sink, label: str) -> Sink:
    """The child's `messages` / `custom` events, passed on to the parent's readers."""

    def forward(event: Any) -> None:
        if isinstance(event, (MessagesEvent, CustomEvent)):
            # a child task's `ns` is already its whole namespace (`node:task|…`, LangGraph's)
            ns = event.ns or label
            sink(type(event)(event.step, event.node, event.payload, ns))
        elif isinstance(event, RUN_EVENTS):  # their `ns` is already the child's namespace
            sink(event)

    return forward


def nests(value: Any, config: RunConfig | None, *others: Any) -> bool:
    """Whether `invoke(value, config)` called inside a running task is a nested run of that
    task, as in LangGraph, where a graph invoked inside a node inherits the node's config:
    an input mapping, and no config or one of the task's own thread. A config naming
    another thread, a `Command`, or any other argument (`others`: durability,
    breakpoints, context) keeps the old detached run."""
    task = running_task()
    if task is None or not isinstance(value, Mapping) or any(o is not None for o in others):
        return False
    return config is None or config.thread_id == task.config.thread_id
