"""E5: where sync nodes run (`runtime/inline.py`, `runtime/step.py`) — the pool sees the
caller's context variables; a step of inline tasks runs them in task order on the loop,
stopping at the first failure (E6) and collecting interrupts; a node that blocks mid-step
hands the rest of the step to the pool; noisy samples do not demote a node; a subgraph
under the sync API runs its lone sync nodes on the private loop too."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import threading
import time

import pytest
from support.graphs import END, START, chan, compiled, graph, node, router, subgraph

from agentc.runtime import Command, MemoryCheckpointer, RunConfig, Send
from agentc.runtime.inline import MEASURED, Placement, SyncPolicy, inline

SOURCE: contextvars.ContextVar[str | None] = contextvars.ContextVar("source", default=None)


def _fan(work, k: int, **kw):
    """plan -> k Sends to `work` -> END; `out` gathers what each task returns."""
    return compiled(
        graph(
            state=[chan("out", "append", [])],
            nodes=[node("plan", lambda s: None), node("work", work)],
            edges=[(START, "plan"), ("work", END)],
            branches=[router("plan", lambda s: [Send("work", i) for i in range(k)])],
        ),
        **kw,
    )


def test_E5_parallel_sync_nodes_in_the_pool_see_the_callers_context_variables():
    meet = threading.Barrier(2, timeout=30)  # only two tasks running at once pass it
    seen: list[tuple[str | None, int]] = []

    def work(i):
        meet.wait()
        seen.append((SOURCE.get(), threading.get_ident()))
        return {"out": [i]}

    g = _fan(work, 2)
    token = SOURCE.set("cassette")
    try:
        assert g.invoke({})["out"] == [0, 1]
        assert asyncio.run(g.ainvoke({}))["out"] == [0, 1]
    finally:
        SOURCE.reset(token)
    assert [s for s, _ in seen] == ["cassette"] * 4
    assert threading.get_ident() not in {t for _, t in seen}  # they ran in the pool


def test_sync_invoke_inside_a_running_loop_keeps_the_callers_context_variables():
    seen: list[str | None] = []

    def work(i):
        seen.append(SOURCE.get())
        return {"out": [i]}

    g = _fan(work, 2)

    async def main():
        SOURCE.set("cassette")  # this task's own context
        return g.invoke({})  # runs on a helper thread with a loop of its own

    assert asyncio.run(main())["out"] == [0, 1]
    assert seen == ["cassette", "cassette"]


def test_E5_a_step_of_inline_tasks_runs_them_in_order_on_the_loop():
    calls: list[tuple[int, int]] = []

    @inline
    def work(i):
        calls.append((i, threading.get_ident()))
        return {"out": [i]}

    assert _fan(work, 20).invoke({})["out"] == list(range(20))
    assert [i for i, _ in calls] == list(range(20))
    assert {t for _, t in calls} == {threading.get_ident()}  # the caller's loop


def test_E6_the_first_failure_in_a_step_of_inline_tasks_stops_it():
    calls: list[int] = []

    @inline
    def work(i):
        calls.append(i)
        if i == 2:
            raise KeyError("boom")
        return {"out": [i]}

    cfg = RunConfig(thread_id="t")
    g = _fan(work, 5, checkpointer=MemoryCheckpointer())
    with pytest.raises(KeyError, match="boom"):
        g.invoke({}, cfg)
    assert calls == [0, 1, 2]  # the tasks after the failure never started
    with pytest.raises(KeyError):
        g.invoke(None, cfg)  # resume: the finished siblings' writes were kept
    assert calls == [0, 1, 2, 2]


def test_D4_interrupts_in_a_step_of_inline_tasks_are_collected():
    calls: list[int] = []

    @inline
    def work(i, ctx):
        calls.append(i)
        answer = ctx.interrupt(f"q{i}") if i == 1 else i
        return {"out": [answer]}

    cfg = RunConfig(thread_id="t")
    g = _fan(work, 3, checkpointer=MemoryCheckpointer())
    first = g.invoke({}, cfg)
    assert [i.value for i in first["__interrupt__"]] == ["q1"]
    assert first["out"] == [0, 2]  # the finished tasks' writes show, as LangGraph's
    assert g.invoke(Command(resume="yes"), cfg)["out"] == [0, "yes", 2]
    assert calls == [0, 1, 2, 1]  # only the task that asked ran again


@pytest.mark.skipif(not MEASURED, reason="no per-thread counters: nothing is proven cheap")
def test_E5_a_node_that_blocks_mid_step_sends_the_rest_of_the_step_to_the_pool():
    import time

    loop_threads: list[int] = []
    calls: list[tuple[int, int]] = []

    def work(i):
        calls.append((i, threading.get_ident()))
        if i == 1:
            time.sleep(0.01)  # gives the CPU up: a block
        return {"out": [i]}

    g = _fan(work, 4)
    policy = g.bound.nodes["work"].policy
    for _ in range(SyncPolicy.PROVE):
        policy.observe(1_000, blocked=False, inline=False)
    assert policy.placement is Placement.INLINE

    async def run():
        loop_threads.append(threading.get_ident())
        return await g.ainvoke({})

    gc.disable()  # a collection during the call would make it teach nothing
    try:
        assert asyncio.run(run())["out"] == [0, 1, 2, 3]
    finally:
        gc.enable()
    on_loop = [t == loop_threads[0] for _, t in sorted(calls)]
    assert on_loop == [True, True, False, False] and policy.slow


def test_E5_one_costly_sample_keeps_a_node_inline_two_in_a_row_do_not():
    policy = SyncPolicy()
    for _ in range(SyncPolicy.PROVE):
        policy.observe(1_000, blocked=False, inline=False)
    costly = SyncPolicy.CHEAP_CPU_NS + 1
    policy.observe(costly, blocked=False, inline=True)  # a noisy sample: kept inline
    assert policy.placement is Placement.INLINE
    policy.observe(1_000, blocked=False, inline=True)
    policy.observe(costly, blocked=False, inline=True)  # not in a row: still inline
    assert policy.placement is Placement.INLINE
    policy.observe(costly, blocked=False, inline=True)  # the second in a row
    assert policy.placement is Placement.POOL and policy.slow


def test_E5_a_blocking_inline_call_demotes_at_once():
    policy = SyncPolicy()
    for _ in range(SyncPolicy.PROVE):
        policy.observe(1_000, blocked=False, inline=False)
    policy.observe(1_000, blocked=True, inline=True)
    assert policy.placement is Placement.POOL and policy.slow


@pytest.mark.skipif(not MEASURED, reason="no per-thread counters: calls are not measured")
def test_E5_a_call_during_which_the_collector_ran_teaches_nothing():
    policy = SyncPolicy()
    for _ in range(SyncPolicy.PROVE - 1):
        policy.observe(1_000, blocked=False, inline=False)

    def busy_while_collecting():
        # What a collection looks like from inside a call: the gc callback fires, and the
        # call's CPU time is far over SyncPolicy.CHEAP_CPU_NS. Real `gc.collect()` is not used: in a
        # full suite it runs other objects' finalizers, which may block (a socket or a
        # thread join), and a block is rightly counted — that would test the heap, not this.
        for callback in gc.callbacks:
            callback("start", {"generation": 2})
        deadline = time.thread_time_ns() + 20 * SyncPolicy.CHEAP_CPU_NS
        while time.thread_time_ns() < deadline:
            pass
        for callback in gc.callbacks:
            callback("stop", {"generation": 2, "collected": 0, "uncollectable": 0})

    policy.call(busy_while_collecting, (), {}, False)
    assert policy.proven == SyncPolicy.PROVE - 1 and policy.placement is Placement.POOL


@pytest.mark.skipif(not MEASURED, reason="no per-thread counters: calls are not measured")
def test_E5_a_block_counts_even_when_the_collector_ran():
    import time

    def collect_and_sleep():
        gc.collect()
        time.sleep(0.001)  # gives the CPU up: a block

    policy = SyncPolicy()
    for _ in range(SyncPolicy.PROVE):
        policy.observe(1_000, blocked=False, inline=False)
    policy.call(collect_and_sleep, (), {}, True)
    assert policy.placement is Placement.POOL and policy.slow


def test_E5_a_subgraph_under_the_sync_api_runs_its_lone_sync_nodes_on_its_loop():
    calls: list[int] = []

    def inc(state):
        calls.append(threading.get_ident())
        return {"n": state["n"] + 1}

    inner = graph(
        "inner",
        state=[chan("n", default=0)],
        nodes=[node("a", inc), node("b", inc)],
        edges=[(START, "a"), ("a", "b"), ("b", END)],
    )
    outer = graph(
        "outer",
        state=[chan("n", default=0)],
        nodes=[subgraph("sub", "inner")],
        edges=[(START, "sub"), ("sub", END)],
    )
    g = compiled(outer, inner)
    assert g.invoke({"n": 0})["n"] == 2
    assert calls == [threading.get_ident()] * 2  # the first calls too: nothing to prove
    child = g.env.subgraph("inner")
    assert all(n.policy.proven == 0 for n in child.bound.nodes.values())  # nothing learnt
