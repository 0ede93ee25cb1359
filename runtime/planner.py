"""Planning the next step after a commit: edges, gotos, branches, joins and deferred nodes.

Input: the loop after a step's writes landed (its state view, step number, what waits at
joins and deferred nodes) and the tasks that ran with their results. Output: the next
step's tasks (and the loop's new `waits`). Routers run here, inline, on the state after
the whole step (C2); an async router is awaited. The pure parts are `algo.plan_tasks`,
`algo.route_targets` and `barriers.advance`.
"""

from __future__ import annotations

import inspect
from collections.abc import Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from agentc.runtime.algo import Task, TaskResult, plan_tasks, route_targets, when_target
from agentc.runtime.barriers import advance
from agentc.runtime.bind import BoundBranch, Callee
from agentc.runtime.context import TaskContext
from agentc.runtime.step import call_sync

if TYPE_CHECKING:
    from agentc.runtime.executor import Loop


def plan_next(
    loop: Loop, ran: list[tuple[Task, TaskResult]]
) -> list[Task] | Coroutine[Any, Any, list[Task]]:
    """The next step's tasks; a coroutine making them once an async router answered (the
    usual graph has none, so it is planned without a coroutine of its own)."""
    edges, branches = loop.b.edges, loop.b.branches
    targets: list[Any] = []
    sources: list[str] = []
    for task, result in ran:
        targets.extend(edges.get(task.node, ()))
        if result.goto:
            targets.extend(result.goto)
        if task.node not in sources:
            sources.append(task.node)
    if len(sources) == 1:  # the usual step: one node ran
        todo: Sequence[BoundBranch] = branches.get(sources[0], ())
    else:
        todo = [b for name in sources for b in branches.get(name, ())]
    for i, branch in enumerate(todo):  # `_answer` and `_targets`, inline: the usual path
        view = loop.view()  # branches read the state after the whole step (C2)
        router = branch.router
        if router is None:
            targets.extend(when_target(branch.cases, view))
            continue
        answer = router.fn(view) if router.state_only else route(loop, router, branch, view)
        if type(answer) not in _PLAIN and inspect.isawaitable(answer):
            return _plan_after(loop, ran, targets, todo[i:], answer)
        targets.extend(route_targets(branch.spec, answer))
    return _planned(loop, ran, targets)


async def _plan_after(
    loop: Loop,
    ran: list[tuple[Task, TaskResult]],
    targets: list[Any],
    todo: Sequence[BoundBranch],
    answer: Any,
) -> list[Task]:
    """`plan_next` from an async router's answer on: each later router is called only after
    the one before it answered, as in one loop."""
    targets.extend(_targets(todo[0], await answer))
    for branch in todo[1:]:
        answer = _answer(loop, branch)
        if type(answer) not in _PLAIN and inspect.isawaitable(answer):
            answer = await answer
        targets.extend(_targets(branch, answer))
    return _planned(loop, ran, targets)


def _answer(loop: Loop, branch: BoundBranch) -> Any:
    """A branch's answer (awaitable when its router is async), read from the state after
    the whole step (C2); `when` cases answer with their target list."""
    view = loop.view()
    if branch.router is None:
        return when_target(branch.cases, view)
    router = branch.router
    return router.fn(view) if router.state_only else route(loop, router, branch, view)


def _targets(branch: BoundBranch, answer: Any) -> list[Any]:
    return answer if branch.router is None else route_targets(branch.spec, answer)


def _planned(loop: Loop, ran: list[tuple[Task, TaskResult]], targets: list[Any]) -> list[Task]:
    flow = loop.b.flow
    if flow is not None:
        targets, loop.waits = advance(flow, loop.waits, [t for t, _ in ran], targets)
    return plan_tasks(loop.step + 1, targets, loop.b.nodes)


_PLAIN = (str, list)  # a router's usual answers: never awaitable


def route(loop: Loop, router: Callee, branch: BoundBranch, view: Mapping[str, Any]) -> Any:
    """A router's answer (awaitable when the router is async); routers run inline."""
    s = loop.s
    ctx = TaskContext(loop.step, branch.source, s.config, "", s.ns, store=s.store)
    return call_sync(router.fn, (view, ctx) if router.wants_ctx else (view,), ctx)
