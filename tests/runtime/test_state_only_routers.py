"""Routers marked `state_only` (the agent loop's own): called on the state alone, without a
task context of their own; every other router runs as the current task, with its ctx."""

from __future__ import annotations

import asyncio

from support.graphs import END, START, chan, compiled, graph, node, router

from agentc.runtime.context import running_task
from agentc.runtime.types import state_only


def _routed(fn):
    return compiled(
        graph(
            state=[chan("log", "append", [])],
            nodes=[node("a", lambda s: {"log": ["a"]}), node("b", lambda s: {"log": ["b"]})],
            edges=[(START, "a"), ("b", END)],
            branches=[router("a", fn, {"go": "b", "stop": END})],
        )
    )


def test_a_state_only_router_routes_without_a_task_context_of_its_own():
    seen: list = []

    @state_only
    def pick(state):
        seen.append((list(state["log"]), running_task()))
        return "go"

    assert _routed(pick).invoke({})["log"] == ["a", "b"]
    assert asyncio.run(_routed(pick).ainvoke({}))["log"] == ["a", "b"]
    assert seen == [(["a"], None), (["a"], None)]  # the state after the step; no task made


def test_an_unmarked_router_runs_as_the_current_task():
    seen: list = []

    def pick(state):
        ctx = running_task()
        seen.append((ctx.node, ctx.step) if ctx is not None else None)
        return "stop"

    assert _routed(pick).invoke({})["log"] == ["a"]
    assert seen == [("a", 1)]


def test_an_async_state_only_router_is_awaited():
    @state_only
    async def pick(state):
        return "go"

    assert asyncio.run(_routed(pick).ainvoke({}))["log"] == ["a", "b"]
