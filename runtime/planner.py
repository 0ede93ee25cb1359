"""Planning the next step after a commit: edges, gotos, branches, joins and deferred nodes.

Input: the loop after a step's writes landed (its state view, step number, what waits at
joins and deferred nodes) and the tasks that ran with their results. Output: the next
step's tasks (and the loop's new `waits`). Routers run here, inline, on the state after
the whole step (C2); an async router is awaited. The pure parts are `algo.plan_tasks`,
`algo.route_targets` and `barriers.advance`.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agentc.runtime.algo import Task, TaskResult, plan_tasks, route_targets, when_target
from agentc.runtime.barriers import advance
from agentc.runtime.bind import BoundBranch, Callee
from agentc.runtime.context import TaskContext
from agentc.runtime.step import call_sync

if TYPE_CHECKING:
    from agentc.runtime.executor import Loop


async def plan_next(loop: Loop, ran: list[tuple[Task, TaskResult]]) -> list[Task]:
    edges, branches = loop.b.edges, loop.b.branches
    targets: list[Any] = []
    sources: list[str] = []
    for task, result in ran:
        targets.extend(edges.get(task.node, ()))
        if result.goto:
            targets.extend(result.goto)
        if task.node not in sources:
            sources.append(task.node)
    for name in sources:
        for branch in branches.get(name, ()):
            view = loop.view()  # branches read the state after the whole step (C2)
            if branch.router is None:
                targets.extend(when_target(branch.cases, view))
                continue
            router = branch.router
            answer = router.fn(view) if router.state_only else route(loop, router, branch, view)
            if type(answer) not in _PLAIN and inspect.isawaitable(answer):
                answer = await answer
            targets.extend(route_targets(branch.spec, answer))
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
