"""Supersteps: E5 (order), concurrency, E6 (first failure), E7 (retry), F1 (limit), F2
(timeouts), routers, Command and Send."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from agentc.compiler import ir
from agentc.runtime import (Command, InvalidUpdateError, RecursionLimitError, RunConfig, Send,
                            StepTimeoutError)
from agentc.runtime.errors import GraphStructureError
from conftest import END, START, chain, chan, cmp, compiled, field, graph, node, router, when


def _fanout(worker, k=4, extra_state=()):
    """START -> plan; plan routes one Send per item to `work` (E5's shape)."""
    return graph(
        state=[chan("items"), chan("results", "append", []), *extra_state],
        nodes=[node("plan", lambda s: None), node("work", worker)],
        edges=[(START, "plan"), ("work", END)],
        branches=[router("plan", lambda s: [Send("work", i) for i in s["items"]])])


def test_E5_results_in_listed_order():
    async def work(i):  # later items finish first
        await asyncio.sleep(0.01 * (5 - i))
        return {"results": [i]}
    out = asyncio.run(compiled(_fanout(work)).ainvoke({"items": [0, 1, 2, 3, 4]}))
    assert out["results"] == [0, 1, 2, 3, 4]


def test_E5_sync_fanout_runs_in_threads_concurrently():
    active, peak, lock = [0], [0], threading.Lock()

    def work(i):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.15)
        with lock:
            active[0] -= 1
        return {"results": [i]}
    t0 = time.perf_counter()
    out = compiled(_fanout(work)).invoke({"items": [3, 2, 1, 0]})
    assert out["results"] == [3, 2, 1, 0]
    assert peak[0] >= 2 and time.perf_counter() - t0 < 0.45


def test_E5_async_fanout_overlaps():
    async def work(i):
        await asyncio.sleep(0.1)
        return {"results": [i]}
    t0 = time.perf_counter()
    out = asyncio.run(compiled(_fanout(work)).ainvoke({"items": list(range(20))}))
    assert out["results"] == list(range(20)) and time.perf_counter() - t0 < 0.5


def test_E5_pull_tasks_apply_by_node_name():
    g = graph(state=[chan("log", "append", [])],
              nodes=[node("zeta", lambda s: {"log": "zeta"}), node("alpha", lambda s: {"log": "alpha"})],
              edges=[(START, "zeta"), (START, "alpha"), ("zeta", END), ("alpha", END)])
    assert compiled(g).invoke({})["log"] == ["alpha", "zeta"]


def test_E6_first_failure_aborts_step():
    cancelled = asyncio.Event()

    async def work(i):
        if i == 0:
            await asyncio.sleep(0.01)
            raise KeyError("boom")
        if i == 1:
            return {"results": [i]}
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            cancelled.set()
            raise
    g = compiled(_fanout(work))

    async def main():
        t0 = time.perf_counter()
        with pytest.raises(KeyError, match="boom"):
            await g.ainvoke({"items": [0, 1, 2]})
        assert time.perf_counter() - t0 < 2 and cancelled.is_set()
    asyncio.run(main())


def test_E6_finished_siblings_writes_kept_only_under_checkpointer(memory):
    calls = []

    async def work(i):
        calls.append(i)
        if i == 0:
            await asyncio.sleep(0.05)
            if len(calls) <= 2:
                raise KeyError("first time")
        return {"results": [i]}
    g = compiled(_fanout(work, k=2), checkpointer=memory)
    cfg = RunConfig(thread_id="t")
    with pytest.raises(KeyError):
        g.invoke({"items": [0, 1]}, cfg)
    out = g.invoke(None, cfg)  # resume: only the failed task runs again
    assert out["results"] == [0, 1] and calls == [0, 1, 0]


def test_E7_no_retry_without_policy():
    calls = []

    def flaky(s):
        calls.append(1)
        raise ConnectionError("down")
    g = compiled(graph(state=[chan("x")], nodes=[node("n", flaky)], edges=chain("n")))
    with pytest.raises(ConnectionError):
        g.invoke({})
    assert len(calls) == 1


def test_E7_retry_policy_retries_and_respects_retry_on():
    calls = []

    def flaky(s):
        calls.append(1)
        if len(calls) < 3:
            raise ConnectionError("down")
        return {"x": len(calls)}
    policy = ir.RetryPolicy(max_attempts=3, initial_interval=0.001, jitter=False)
    g = compiled(graph(state=[chan("x")], nodes=[node("n", flaky, retry=policy)],
                       edges=chain("n")))
    assert g.invoke({}) == {"x": 3}
    calls.clear()

    def bad(s):
        calls.append(1)
        raise ValueError("a bug, not a blip")
    g = compiled(graph(state=[chan("x")], nodes=[node("n", bad, retry=policy)],
                       edges=chain("n")))
    with pytest.raises(ValueError):
        g.invoke({})
    assert len(calls) == 1  # the default retry_on skips programming errors


def _counter(steps):
    return graph(state=[chan("n", default=0)], nodes=[node("inc", lambda s: {"n": s["n"] + 1})],
                 edges=[(START, "inc")],
                 branches=[when("inc", (cmp(field("n"), "<", 5), "inc"), (None, END))],
                 steps=steps)


def test_F1_finishing_at_limit_succeeds():
    assert compiled(_counter(5)).invoke({}) == {"n": 5}  # 5 steps, limit 5: our divergence


def test_F1_exceeding_limit_raises_clear_error():
    with pytest.raises(RecursionLimitError, match="more than 4 supersteps") as err:
        compiled(_counter(4)).invoke({})
    assert "recursion_limit" in str(err.value) and err.value.span is not None


def test_F1_run_may_pass_its_own_limit():
    g = compiled(_counter(100))
    with pytest.raises(RecursionLimitError):
        g.invoke({}, RunConfig(recursion_limit=3))


def test_F2_step_timeout():
    async def slow(i):
        await asyncio.sleep(2)
    g = compiled(graph(state=[chan("items"), chan("results", "append", [])],
                       nodes=[node("plan", lambda s: None), node("work", slow)],
                       edges=[(START, "plan")],
                       branches=[router("plan", lambda s: [Send("work", 1), Send("work", 2)])],
                       step_timeout=0.05))
    t0 = time.perf_counter()
    with pytest.raises(StepTimeoutError, match="longer than 0.05s"):
        g.invoke({"items": []})
    assert time.perf_counter() - t0 < 1.5


def test_F2_node_timeout():
    async def slow(s):
        await asyncio.sleep(2)
    g = compiled(graph(state=[chan("x")], nodes=[node("n", slow, timeout=0.05)],
                       edges=chain("n")))
    with pytest.raises(StepTimeoutError, match="`n`"):
        g.invoke({})


def test_router_labels_go_through_routes():
    g = compiled(graph(state=[chan("x"), chan("log", "append", [])],
                       nodes=[node("a", lambda s: None), node("yes", lambda s: {"log": "yes"}),
                              node("no", lambda s: {"log": "no"})],
                       edges=[(START, "a"), ("yes", END), ("no", END)],
                       branches=[router("a", lambda s, ctx: "t" if s["x"] else "f",
                                        {"t": "yes", "f": "no"})]))
    assert g.invoke({"x": True})["log"] == ["yes"]
    assert g.invoke({"x": False})["log"] == ["no"]


def test_router_unknown_label_is_a_clear_error():
    g = compiled(graph(state=[chan("x")], nodes=[node("a", lambda s: None)],
                       edges=[(START, "a")],
                       branches=[router("a", lambda s: "maybe", {"t": END})]))
    with pytest.raises(GraphStructureError, match="`maybe`"):
        g.invoke({})


def test_command_update_and_goto():
    g = compiled(graph(state=[chan("log", "append", [])],
                       nodes=[node("a", lambda s: Command(update={"log": "a"}, goto="c")),
                              node("c", lambda s: [{"log": "c1"}, Command(update=[("log", "c2")])])],
                       edges=[(START, "a"), ("c", END)]))
    assert g.invoke({})["log"] == ["a", "c1", "c2"]


def test_bad_return_type_is_a_clear_error():
    g = compiled(graph(state=[chan("x")], nodes=[node("n", lambda s: "oops")], edges=chain("n")))
    with pytest.raises(InvalidUpdateError, match="returned a str"):
        g.invoke({})


def test_sync_invoke_works_inside_a_running_loop():
    g = compiled(_counter(10))

    async def main():
        return g.invoke({})  # sync API called from async code: runs on a helper thread
    assert asyncio.run(main()) == {"n": 5}


def test_concurrent_runs_share_one_compiled_graph():
    async def inc(s):
        await asyncio.sleep(0)
        return {"n": s["n"] + 1}
    g = compiled(graph(state=[chan("n", default=0)], nodes=[node("inc", inc)],
                       edges=[(START, "inc")],
                       branches=[when("inc", (cmp(field("n"), "<", 5), "inc"), (None, END))]))

    async def main():
        return await asyncio.gather(*(g.ainvoke({"n": i % 3}) for i in range(200)))
    assert all(r == {"n": 5} for r in asyncio.run(main()))
