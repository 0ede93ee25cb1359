"""E5, rule 3 of `runtime/inline.py`: a sync callable sent back to the pool by one inline
call that blocked is not sent there for good — a long clean streak in the pool brings it
back to the loop, each further demotion doubling the streak — while one that really blocks
blocks in the pool too and stays there."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from support.graphs import END, START, chan, compiled, graph, node, router

from agentc.runtime.inline import MEASURED, Placement, SyncPolicy


def _demoted() -> SyncPolicy:
    policy = SyncPolicy()
    for _ in range(SyncPolicy.PROVE):
        policy.observe(1_000, blocked=False, inline=False)
    policy.observe(1_000, blocked=True, inline=True)  # one block on the loop
    assert policy.placement is Placement.POOL and policy.slow
    return policy


def test_E5_a_long_clean_streak_in_the_pool_brings_a_demoted_callable_back():
    policy = _demoted()
    for _ in range(SyncPolicy.REPROVE - 1):
        policy.observe(1_000, blocked=False, inline=False)
    assert policy.placement is Placement.POOL
    policy.observe(1_000, blocked=False, inline=False)
    assert policy.placement is Placement.INLINE and not policy.slow


def test_E5_each_demotion_doubles_the_streak_and_a_block_restarts_it():
    policy = _demoted()
    for _ in range(SyncPolicy.REPROVE):
        policy.observe(1_000, blocked=False, inline=False)
    policy.observe(1_000, blocked=True, inline=True)  # demoted a second time
    for _ in range(2 * SyncPolicy.REPROVE - 1):
        policy.observe(1_000, blocked=False, inline=False)
    policy.observe(1_000, blocked=True, inline=False)  # it blocked in the pool: from zero
    for _ in range(2 * SyncPolicy.REPROVE - 1):
        policy.observe(1_000, blocked=False, inline=False)
    assert policy.placement is Placement.POOL
    policy.observe(1_000, blocked=False, inline=False)
    assert policy.placement is Placement.INLINE


def _loop(work, steps: int):
    return compiled(
        graph(
            state=[chan("n", default=0)],
            nodes=[node("work", work)],
            edges=[(START, "work")],
            branches=[router("work", lambda s: "work" if s["n"] < steps else END)],
            steps=steps + 10,
        )
    )


async def _threads_of(g) -> tuple[int, dict]:
    return threading.get_ident(), await g.ainvoke({"n": 0})


@pytest.mark.skipif(not MEASURED, reason="no per-thread counters: nothing is proven cheap")
def test_E5_a_node_that_blocked_once_runs_on_the_loop_again():
    seen: list[int] = []

    def work(state):
        seen.append(threading.get_ident())
        if len(seen) == 10:
            time.sleep(0.005)  # one call gives the CPU up (on the loop, by now)
        return {"n": state["n"] + 1}

    steps = 10 + 2 * SyncPolicy.REPROVE + 20
    loop_thread, out = asyncio.run(asyncio.wait_for(_threads_of(_loop(work, steps)), 60))
    assert out["n"] == steps
    assert seen[9] == loop_thread  # it was inline when it blocked ...
    assert seen[10] != loop_thread  # ... so the next call went to the pool
    assert seen[-1] == loop_thread  # and it came back


@pytest.mark.skipif(not MEASURED, reason="no per-thread counters: nothing is proven cheap")
def test_E5_a_node_that_always_blocks_stays_in_the_pool():
    seen: list[int] = []

    def work(state):
        seen.append(threading.get_ident())
        time.sleep(0.0005)  # every call gives the CPU up
        return {"n": state["n"] + 1}

    steps = 2 * SyncPolicy.REPROVE + 10
    loop_thread, out = asyncio.run(asyncio.wait_for(_threads_of(_loop(work, steps)), 60))
    assert out["n"] == steps
    assert loop_thread not in seen
