"""Runtime benchmark: the same workloads on agentc and on LangGraph 1.2.24, as ratios.

Run: `python bench/runtime_bench.py [--quick]`. Times are per run in steady state (batches
of runs, best of several; see `best`). LangGraph (and langgraph-checkpoint-sqlite
for the SQLite rows) is imported only here, never by agentc. Workloads:
- loop N: a 2-node loop (model -> tools -> model …) for N round trips, each node appending
  one message to a growing history; reported per superstep;
- fan-out K: one step of K parallel tasks started by Send;
- loop N with the in-memory / SQLite checkpointer (async durability; SQLite file size);
- 1,000 concurrent short runs under asyncio: runs/s and tracemalloc peak.
"""

import asyncio
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from support.graphs import END, START, chan, cmp, compiled, field, graph, node, router, when  # noqa: E402

from agentc.runtime import Durability, MemoryCheckpointer, RunConfig, Send, SqliteCheckpointer  # noqa: E402
from agentc.stdlib.messages import AIMessage as AAI  # noqa: E402
from agentc.stdlib.messages import ToolMessage as ATool

ROWS: list[tuple[str, str, str, str]] = []


def row(name: str, lg: float, ac: float, unit: str, lower_better: bool = True) -> None:
    ratio = (lg / ac if lower_better else ac / lg) if ac and lg else float("nan")
    ROWS.append((name, f"{lg:,.3f} {unit}", f"{ac:,.3f} {unit}", f"{ratio:,.1f}x"))
    print(f"  {name}: langgraph {lg:.3f} {unit}, agentc {ac:.3f} {unit}", flush=True)


def best(make: Callable[[], Any], repeat: int = 3, batch_s: float = 0.05) -> float:
    """Seconds per `await make()`: the best of `repeat` batches, each of as many runs as
    fill about `batch_s` (timeit's autorange), all inside one event loop (so loop start-up
    is not charged to either runtime). A batch, not a single run after `gc.collect()`:
    one sub-millisecond run right after a collection mostly measures cold CPU caches,
    which charges both runtimes the same absolute time and hides the ratio."""

    async def main() -> float:
        t0 = time.perf_counter()
        await make()  # warm-up (and the size of a batch)
        once = max(time.perf_counter() - t0, 1e-6)
        n = max(1, min(1000, int(batch_s / once)))
        for _ in range(min(n, 5)):
            await make()
        times = []
        for _ in range(repeat):
            gc.collect()
            t0 = time.perf_counter()
            for _ in range(n):
                await make()
            times.append((time.perf_counter() - t0) / n)
        return min(times)

    return asyncio.run(main())


# ---------------------------------------------------------------- agentc graphs


def ac_loop(n: int, checkpointer: Any = None) -> Any:
    async def model(s):
        return {"messages": [AAI(content="m")]}

    async def tools(s):
        return {"messages": [ATool(content="t", tool_call_id="c")], "k": s["k"] + 1}

    return compiled(
        graph(
            state=[chan("messages", "messages"), chan("k", default=0)],
            nodes=[node("model", model), node("tools", tools)],
            edges=[(START, "model"), ("tools", "model")],
            branches=[when("model", (cmp(field("k"), "<", n), "tools"), (None, END))],
            steps=2 * n + 10,
        ),
        checkpointer=checkpointer,
    )


def ac_fan(k: int) -> Any:
    async def work(i):
        return {"out": [i]}

    return compiled(
        graph(
            state=[chan("k"), chan("out", "append", [])],
            nodes=[node("plan", lambda s: None), node("work", work)],
            edges=[(START, "plan"), ("work", END)],
            branches=[router("plan", lambda s: [Send("work", i) for i in range(s["k"])])],
        )
    )


def ac_short() -> Any:
    async def a(s):
        return {"x": s["x"] + 1}

    return compiled(
        graph(
            state=[chan("x")],
            nodes=[node("a", a), node("b", a)],
            edges=[(START, "a"), ("a", "b"), ("b", END)],
        )
    )


# ---------------------------------------------------------------- langgraph graphs


def lg_loop(n: int, checkpointer: Any = None) -> Any:
    from typing import Annotated, TypedDict

    from langchain_core.messages import AIMessage, ToolMessage
    from langgraph.graph import END as LEND
    from langgraph.graph import START as LSTART
    from langgraph.graph import StateGraph
    from langgraph.graph.message import add_messages

    class S(TypedDict):
        messages: Annotated[list, add_messages]
        k: int

    async def model(s):
        return {"messages": [AIMessage(content="m")]}

    async def tools(s):
        return {"messages": [ToolMessage(content="t", tool_call_id="c")], "k": s["k"] + 1}

    g = StateGraph(S)
    g.add_node("model", model)
    g.add_node("tools", tools)
    g.add_edge(LSTART, "model")
    g.add_edge("tools", "model")
    g.add_conditional_edges("model", lambda s: "tools" if s["k"] < n else LEND, ["tools", LEND])
    return g.compile(checkpointer=checkpointer)


def lg_fan(k: int) -> Any:
    import operator
    from typing import Annotated, TypedDict

    from langgraph.graph import END as LEND
    from langgraph.graph import START as LSTART
    from langgraph.graph import StateGraph
    from langgraph.types import Send as LSend

    class S(TypedDict):
        k: int
        out: Annotated[list, operator.add]

    async def work(i):
        return {"out": [i]}

    g = StateGraph(S)
    g.add_node("plan", lambda s: {})
    g.add_node("work", work)
    g.add_edge(LSTART, "plan")
    g.add_edge("work", LEND)
    g.add_conditional_edges("plan", lambda s: [LSend("work", i) for i in range(s["k"])], ["work"])
    return g.compile()


def lg_short() -> Any:
    from typing import TypedDict

    from langgraph.graph import END as LEND
    from langgraph.graph import START as LSTART
    from langgraph.graph import StateGraph

    class S(TypedDict):
        x: int

    async def a(s):
        return {"x": s["x"] + 1}

    g = StateGraph(S)
    g.add_node("a", a)
    g.add_node("b", a)
    g.add_edge(LSTART, "a")
    g.add_edge("a", "b")
    g.add_edge("b", LEND)
    return g.compile()


# ---------------------------------------------------------------- workloads


def bench_loops(ns: list[int]) -> None:
    for n in ns:
        steps = 2 * n + 1
        lg, ac = lg_loop(n), ac_loop(n)
        t_lg = best(
            lambda lg=lg, n=n: lg.ainvoke(
                {"messages": ["hi"], "k": 0}, {"recursion_limit": 2 * n + 10}
            )
        )
        t_ac = best(lambda ac=ac: ac.ainvoke({"messages": ["hi"]}))
        row(f"loop N={n}: per step", t_lg / steps * 1e3, t_ac / steps * 1e3, "ms")


def bench_fan(ks: list[int]) -> None:
    for k in ks:
        lg, ac = lg_fan(k), ac_fan(k)
        t_lg = best(lambda lg=lg, k=k: lg.ainvoke({"k": k, "out": []}), 5)
        t_ac = best(lambda ac=ac, k=k: ac.ainvoke({"k": k}), 5)
        row(f"fan-out K={k}: per run", t_lg * 1e3, t_ac * 1e3, "ms")


def bench_checkpointers(n: int) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    steps = 2 * n + 1
    lg, ac = lg_loop(n, InMemorySaver()), ac_loop(n, MemoryCheckpointer())
    ids = iter(range(10**6))
    t_lg = best(
        lambda: lg.ainvoke(
            {"messages": ["hi"], "k": 0},
            {"recursion_limit": 2 * n + 10, "configurable": {"thread_id": f"t{next(ids)}"}},
        )
    )
    t_ac = best(lambda: ac.ainvoke({"messages": ["hi"]}, RunConfig(thread_id=f"t{next(ids)}")))
    row(f"loop N={n} + memory saver: per step", t_lg / steps * 1e3, t_ac / steps * 1e3, "ms")
    bench_sqlite(n)


def bench_sqlite(n: int) -> None:
    steps = 2 * n + 1
    tmp = tempfile.mkdtemp()
    lg_time, lg_size = _lg_sqlite(n, os.path.join(tmp, "lg.db"))
    store = SqliteCheckpointer(os.path.join(tmp, "ac.db"))
    g = ac_loop(n, store)
    t0 = time.perf_counter()
    asyncio.run(
        g.ainvoke({"messages": ["hi"]}, RunConfig(thread_id="t"), durability=Durability.ASYNC)
    )
    ac_time = time.perf_counter() - t0
    store.close()
    ac_size = _db_size(os.path.join(tmp, "ac.db"))
    row(
        f"loop N={n} + SQLite (async): per step", lg_time / steps * 1e3, ac_time / steps * 1e3, "ms"
    )
    row(f"loop N={n} + SQLite: file size", lg_size / 1024, ac_size / 1024, "KiB")


def _db_size(path: str) -> int:
    return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))


def _lg_sqlite(n: int, path: str) -> tuple[float, int]:
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    async def main() -> float:
        async with AsyncSqliteSaver.from_conn_string(path) as saver:
            g = lg_loop(n, saver)
            t0 = time.perf_counter()
            await g.ainvoke(
                {"messages": ["hi"], "k": 0},
                {"recursion_limit": 2 * n + 10, "configurable": {"thread_id": "t"}},
            )
            return time.perf_counter() - t0

    t = asyncio.run(main())
    return t, _db_size(path)


def bench_concurrent(runs: int) -> None:
    lg, ac = lg_short(), ac_short()

    async def many(g):
        await asyncio.gather(*(g.ainvoke({"x": i}) for i in range(runs)))

    t_lg = best(lambda: many(lg))
    t_ac = best(lambda: many(ac))
    row(
        f"{runs} concurrent runs: throughput",
        runs / t_lg,
        runs / t_ac,
        "runs/s",
        lower_better=False,
    )
    row(
        f"{runs} concurrent runs: peak memory",
        _peak(lambda: asyncio.run(many(lg))) / 1024,
        _peak(lambda: asyncio.run(many(ac))) / 1024,
        "KiB",
    )


def _peak(fn: Callable[[], Any]) -> int:
    gc.collect()
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> None:
    quick = "--quick" in sys.argv
    bench_loops([10, 100] if quick else [10, 100, 1000])
    bench_fan([1, 10] if quick else [1, 10, 100])
    bench_checkpointers(10 if quick else 100)
    bench_concurrent(100 if quick else 1000)
    widths = [
        max(len(r[i]) for r in ROWS + [("workload", "LangGraph", "agentc", "ratio")])
        for i in range(4)
    ]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"  # noqa: E731
    print()
    print(line(("workload", "LangGraph", "agentc", "ratio (LangGraph/agentc)")))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in ROWS:
        print(line(r))


if __name__ == "__main__":
    main()
