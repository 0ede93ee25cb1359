"""A plain `def` tool against an `async def` one, and both against create_agent's.

The agent of `agent_bench.py` (an instant model, one trivial tool `ping`) for N tool round
trips in one run (N = 10, 100, 1000), sync and async, three ways: agentc with `def ping`,
agentc with `async def ping`, create_agent with `def ping`. Where a sync tool runs (the
event loop or the thread pool) is learnt per graph (`runtime/inline.py`), so every sample
builds fresh agentc graphs and gives each one untimed run before its timed one: each
sample is a placement decision of its own, and a decision that depends on a noisy moment
shows as spread between samples. The three sides of a sample run one after the other (in
an order that turns from sample to sample), so a change in the machine's load hits all
three; each cell is the median over the samples.

What is timed is the run, not its surroundings. The garbage of the side before is
collected before the untimed run, not between it and the timed one: a full collection
walks the whole heap (create_agent's included) and leaves the CPU caches cold, so the
timed run refilled them — the untimed run is there to warm them — and that weighs on the
short run most (in one run, sync, N = 10, load 8: agentc +39 % per trip, create_agent
+14 %; touching 32 MB of memory instead of collecting costs agentc the same). Async runs
share one event loop, as the requests of an async server do, rather than `asyncio.run`
each: making and closing a loop (with its default executor, where create_agent's async
ToolNode runs a sync tool, and on Python 3.11 a repr of the run's result) is neither
side's work.

Printed per round trip: the three times, `def/async` (target ≤ 1.2) and
`create_agent/def` (target ≥ 20), by the wall clock and by this process's CPU time (all
its threads: a hop to the pool costs CPU on both sides, but a wait for a core does not).

Run: `python bench/tool_bench.py [--samples 7]`. Needs `pip install -e .[oracle]`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(__file__))

from agent_bench import INPUT, InstantModel, Plan, langchain_graph  # noqa: E402

AGENT = """agentc 1
use "./bench_tools.py" as t
agent bench {
  model "scripted" { replies: ["unused"] }
  tools [t.ping]
  checkpoint none
}
"""
TOOLS = {
    "def": 'def ping(x: int) -> int:\n    """Return x."""\n    return x\n',
    "async": 'async def ping(x: int) -> int:\n    """Return x."""\n    return x\n',
}


ORDERS = (("def", "async", "lc"), ("async", "lc", "def"), ("lc", "def", "async"))


def agentc_graph(plan: Plan, folder: Path) -> Any:
    from agentc.api import load_agent

    graph = load_agent(folder / "bench.agent")
    graph.bound.nodes["model"].callee.fn.chooser.default = InstantModel(plan)
    return graph


def once(run: Callable[[], Any]) -> tuple[float, float]:
    """Wall and process CPU seconds of one timed run, after an untimed one."""
    gc.collect()  # not the garbage of the side before (create_agent's is large)
    run()  # untimed: lazy imports, schema builds, the placement of a sync tool; warm caches
    t0, c0 = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - t0, time.process_time() - c0


def runner(graph: Any, limit: int, is_async: bool, agentc: bool) -> Callable[[], Any]:
    from agentc.runtime import RunConfig

    config: Any = RunConfig(recursion_limit=limit) if agentc else {"recursion_limit": limit}
    if is_async:
        return lambda: LOOP.run_until_complete(graph.ainvoke(INPUT, config))
    return lambda: graph.invoke(INPUT, config)


LOOP = asyncio.new_event_loop()  # every async run's, both sides' (see the docstring)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--n", default="10,100,1000")
    args = parser.parse_args()
    folders = {}
    for kind, text in TOOLS.items():
        folders[kind] = Path(tempfile.mkdtemp())
        (folders[kind] / "bench.agent").write_text(AGENT)
        (folders[kind] / "bench_tools.py").write_text(text)
    print(f"load: {os.getloadavg()[0]:.2f} (1 min)")
    columns = [
        "N",
        "mode",
        "clock",
        "def µs/trip",
        "async def µs/trip",
        "create_agent µs/trip",
        "def/async",
        "create_agent/def",
    ]
    print("| " + " | ".join(columns) + " |")
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for is_async in (False, True):
        for n in (int(x) for x in args.n.split(",")):
            plan, limit = Plan(n, 1), 10 * n + 100
            theirs = langchain_graph(plan)
            samples = max(1, args.samples if n < 1000 else (args.samples + 1) // 2)
            cells: dict[str, list[tuple[float, float]]] = {"def": [], "async": [], "lc": []}
            for i in range(samples):
                # the order turns each sample: a side run right after create_agent's pays
                # for collecting its garbage
                for kind in ORDERS[i % len(ORDERS)]:
                    if kind == "lc":
                        cells["lc"].append(once(runner(theirs, limit, is_async, False)))
                        continue
                    g = agentc_graph(plan, folders[kind])
                    cells[kind].append(once(runner(g, limit, is_async, True)))
            for clock, i in (("wall", 0), ("cpu", 1)):
                d, a, lc = (statistics.median(c[i] for c in cells[k]) / n * 1e6 for k in cells)
                spread = (max(c[i] for c in cells["def"]) - min(c[i] for c in cells["def"])) / n
                mode = "async" if is_async else "sync"
                print(
                    f"| {n} | {mode} | {clock} | {d:.0f} (±{spread * 1e6 / 2:.0f}) | {a:.0f} "
                    f"| {lc:.0f} | {d / a:.2f} | {lc / d:.1f} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
