"""Pure superstep functions: normalise node updates, apply writes, plan the next tasks.

Input: explicit values (channels, results in task order, routing answers). Output: new
channel values, the next step's tasks. No I/O, no clock, no concurrency: the executor owns
those. Determinism lives here: writes apply in task-path order (pull tasks by node name,
then pushed `Send` tasks in the order they were sent — E5), never in completion order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field, replace
from typing import Any

import agentc.ir as ir
from agentc.runtime.channels import MISSING, Channel
from agentc.runtime.errors import GraphStructureError, InvalidUpdateError, UndeclaredTargetError
from agentc.runtime.records import dataclass
from agentc.runtime.types import Command, CommandGraph, Send

PULL, PUSH = 0, 1
INPUT_WRITER = "__input__"


@dataclass(frozen=True, slots=True)
class Task:
    """One task of a step. `path` sorts pull tasks (by node) before pushed ones (by index)."""

    id: str
    node: str
    path: tuple[int, Any]
    arg: Any = MISSING  # a pushed task's `Send.arg`; pull tasks read the state


@dataclass(slots=True)
class TaskResult:
    writes: list[tuple[str, Any]] = field(default_factory=list)
    goto: list[str | Send] = field(default_factory=list)
    cached: bool = False  # replayed from the node's cache, not run (`cache.py`)


class ParentCommand(Exception):
    """A node returned `Command(graph=PARENT)`: it bubbles out to the parent graph."""

    def __init__(self, command: Command) -> None:
        super().__init__(command)
        self.command = command


EMPTY_RESULT = TaskResult()


def replayed(result: TaskResult) -> TaskResult:
    """A result saved by an earlier try of its step, marked as not run again (`cached`)."""
    return result if result.cached else TaskResult(result.writes, result.goto, cached=True)


def prepared(channels: Mapping[str, Channel], result: TaskResult) -> TaskResult:
    """A finished task's writes in the form they are saved in: a pending write is applied
    again at every restore (the paused result, each get_state, the resume), so it must
    apply the same way each time (B3/D8: a message gets its id once)."""
    writes = [(k, channels[k].prepare(v) if k in channels else v) for k, v in result.writes]
    return replace(result, writes=writes)


def normalize(node: str, out: Any, channels: Mapping[str, Any]) -> TaskResult:
    """A node's return value → writes and gotos (dict, Command, list of those, or None)."""
    if out is None:
        return EMPTY_RESULT
    if type(out) is dict:  # the usual update: `_collect`'s first case, inline
        for key in out:
            if key not in channels:
                raise _not_a_channel(node, key)
        return TaskResult(list(out.items()))
    result = TaskResult()
    _collect(node, out, channels, result)
    return result


def _collect(node: str, out: Any, channels: Mapping[str, Any], result: TaskResult) -> None:
    if isinstance(out, dict):
        _writes(node, out.items(), channels, result)
    elif isinstance(out, Command):
        if out.graph is CommandGraph.PARENT:
            raise ParentCommand(out)
        if out.update is not None:
            items = out.update.items() if isinstance(out.update, Mapping) else out.update
            _writes(node, items, channels, result)
        if out.goto is not None:
            gotos = out.goto if isinstance(out.goto, (list, tuple)) else [out.goto]
            result.goto.extend(gotos)
    elif isinstance(out, (list, tuple)):
        for item in out:
            if item is not None:
                _collect(node, item, channels, result)
    else:
        raise InvalidUpdateError(
            f"node `{node}` returned a {type(out).__name__}; expected a dict of channel "
            "writes, a Command, a list of those, or None"
        )


def _writes(
    node: str, items: Iterable[tuple[str, Any]], channels: Mapping[str, Any], result: TaskResult
) -> None:
    for key, value in items:
        if key not in channels:
            raise _not_a_channel(node, key)
        result.writes.append((key, value))


def _not_a_channel(node: str, key: str) -> InvalidUpdateError:
    return InvalidUpdateError(
        f"node `{node}` wrote `{key}`, which is not a state channel of this graph",
        help=f"declare `{key}` in the graph's state, or stop returning it",
    )


def apply_writes(
    channels: dict[str, Channel],
    ordered: Sequence[tuple[str, TaskResult]],
    last_value: frozenset[str],
    ephemeral: frozenset[str],
) -> set[str]:
    """Apply one step's writes, grouped per channel, in task order; clear stale ephemerals."""
    grouped: dict[str, list[Any]] = {}
    for _, result in ordered:
        for key, value in result.writes:
            values = grouped.get(key)
            if values is None:
                grouped[key] = [value]
            else:
                values.append(value)
    for key, values in grouped.items():
        if len(values) > 1 and key in last_value:
            raise _conflict(key, ordered)
        channels[key].update(values)
    updated = set(grouped)
    for key in ephemeral:  # written in the step before: cleared now (LangGraph's EphemeralValue)
        if key not in grouped and channels[key].value is not MISSING and channels[key].clear():
            updated.add(key)
    return updated


def _conflict(key: str, ordered: Sequence[tuple[str, TaskResult]]) -> InvalidUpdateError:
    writers = [node for node, result in ordered for k, _ in result.writes if k == key]
    return InvalidUpdateError(
        f"channel `{key}` can take one write per step, but got {len(writers)} "
        f"from {', '.join(f'`{w}`' for w in writers)}",
        help=f"give `{key}` a reducer (e.g. `reduce append`) or write it from one node",
    )


def route_targets(branch: ir.BranchSpec, answer: Any) -> list[str | Send]:
    """A router's answer (label, labels, Send, Sends) → node names and Sends (C2)."""
    answers = answer if isinstance(answer, (list, tuple)) else [answer]
    out: list[str | Send] = []
    for a in answers:
        if a is None:
            continue
        if isinstance(a, Send):
            if branch.sends and a.node not in branch.routes.values():
                raise _undeclared_send(branch, a.node)
            out.append(a)
            continue
        label = a if isinstance(a, str) else str(a)
        if branch.routes:
            if label not in branch.routes:
                raise GraphStructureError(
                    f"the router out of `{branch.source}` answered `{label}`, which is not one "
                    f"of its routes ({', '.join(branch.routes)})",
                    span=branch.span,
                )
            label = branch.routes[label]
        out.append(label)
    return out


def _undeclared_send(branch: ir.BranchSpec, node: str) -> UndeclaredTargetError:
    listed = ", ".join(f"`{n}`" for n in branch.routes) or "none"
    return UndeclaredTargetError(
        f"the router out of `{branch.source}` sent a task to `{node}`, which is not in its "
        f"target list ({listed})",
        span=branch.span,
        help=f"add `{node}` to the route's target list, or send to one of the listed nodes",
    )


def check_goto(node: str, declared: frozenset[str], gotos: Sequence[str | Send]) -> None:
    """A `Command(goto=…)` from a node that declares `goto: [...]` names only those."""
    for g in gotos:
        name = g.node if isinstance(g, Send) else g
        if name not in declared:
            listed = ", ".join(f"`{_shown(n)}`" for n in sorted(declared)) or "none"
            raise UndeclaredTargetError(
                f"node `{node}` returned Command(goto=`{_shown(name)}`), which is not one of "
                f"its declared goto targets ({listed})",
                help=f"add `{_shown(name)}` to the node's `goto: [...]`, or go to a declared one",
            )


def _shown(name: str) -> str:
    return "END" if name == ir.END else name


def when_target(cases: Sequence[tuple[Any, str]], state: Any) -> list[str]:
    """Ordered `when` cases: the first that holds (or `otherwise`) picks the target."""
    for test, target in cases:
        if test is None or test(state):
            return [target]
    return []


def plan_tasks(step: int, targets: Sequence[str | Send], nodes: Mapping[str, Any]) -> list[Task]:
    """The next step's tasks: each pulled node once (sorted by name), then each Send."""
    if len(targets) == 1 and type(targets[0]) is str and targets[0] != ir.END:  # the usual step
        name = targets[0]
        if name not in nodes:
            _check_target(name, nodes)  # raises
        return [Task(f"{step}:{name}", name, (PULL, name))]
    if len(targets) == 1 and type(targets[0]) is Send:  # one pushed task (one tool call)
        send = targets[0]
        if send.node not in nodes:
            _check_target(send.node, nodes)  # raises
        return [Task(f"{step}#0", send.node, (PUSH, 0), send.arg)]
    pulls: set[str] = set()
    pushes: list[Send] = []
    for t in targets:
        if isinstance(t, Send):
            _check_target(t.node, nodes)
            pushes.append(t)
        elif t != ir.END:
            _check_target(t, nodes)
            pulls.add(t)
    # Task ids are unique within a thread's namespace (checkpoints are kept per namespace),
    # deterministic (pending writes and interrupt ids find their task again after a
    # restart), and cheap: a pull task is named by step and node, a push by step and index.
    tasks = [Task(f"{step}:{name}", name, (PULL, name)) for name in sorted(pulls)]
    tasks.extend(Task(f"{step}#{i}", s.node, (PUSH, i), s.arg) for i, s in enumerate(pushes))
    return tasks


def replan(
    step: int, tasks: Sequence[Task], nodes: Mapping[str, Any], extra: Sequence[str | Send] = ()
) -> list[Task]:
    """`tasks` (and `extra` targets) as tasks of `step`: pulled nodes again, Sends with
    their payloads; the START task of an input checkpoint keeps the input it holds."""
    if tasks and tasks[0].node == ir.START and not extra:
        return [Task(f"{step}:{ir.START}", ir.START, (PULL, ir.START), tasks[0].arg)]
    pending = [t.node if t.path[0] == PULL else Send(t.node, t.arg) for t in tasks]
    return plan_tasks(step, [*pending, *extra], nodes)


def _check_target(name: str, nodes: Mapping[str, Any]) -> None:
    if name not in nodes:
        raise GraphStructureError(
            f"cannot go to `{name}`: there is no node of that name",
            help=f"known nodes: {', '.join(sorted(nodes))}",
        )


def should_interrupt(
    versions: Mapping[str, int],
    seen: Mapping[str, int],
    breakpoints: frozenset[str],
    tasks: Iterable[Task],
) -> bool:
    """D7: pause when a listed node is among the tasks and some channel changed since the
    last interrupt (so a resume does not stop again on the same state)."""
    if not breakpoints or not any(t.node in breakpoints for t in tasks):
        return False
    # versions are step numbers, 0 for what the first (START) step wrote: unseen is -1
    return any(v > seen.get(k, -1) for k, v in versions.items())
