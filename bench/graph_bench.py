"""Graph benchmark: the same hand-built graphs in agentc and in LangGraph 1.2.24, as ratios.

Workloads (each invoked repeatedly, without a checkpointer and with the in-memory one —
agentc's `MemoryCheckpointer`, LangGraph's `InMemorySaver`, a fresh thread per run):
- chain: 10 Python nodes in a row, each adding 1 to a counter (10 supersteps);
- fan: a node whose router sends 100 `Send`s to a worker, each worker's result gathered
  by an append reducer (LangGraph: `operator.add`), then a final node summing them
  (3 supersteps, 102 tasks);
- nested: a graph -> subgraph -> subgraph, a Python node before and after the subgraph at
  each level and two in the innermost one (8 supersteps over 3 graph runs).

The agentc side is `.agent` text compiled by the real compiler (`agentc.api.load`) from a
temporary directory holding the file and its `steps.py` (every form used exists in the
language: `subgraph(...)`, a Python router returning Sends); the LangGraph side is the same
graph through `StateGraph`, with the same node bodies, checked to return the same result
before anything is timed. The nodes are plain `def`s; rows run `invoke` and `ainvoke` (a
batch's runs inside one event loop: loop start-up is charged to neither runtime).

Timing: a warm-up, then `--reps` batches per side, interleaved (LangGraph, agentc, agentc,
LangGraph, …) so a change in machine load hits both; a batch is as many runs as fill about
`batch_s` on that side, after `gc.collect()` and with an empty saver. Reported: the median
time per run, its spread (±half of (max - min) / median over the batches), the time per
superstep in µs (every level counted), and the ratio LangGraph / agentc (the median of the
paired batches' ratios; above 1: agentc is faster; the target is 10x). Quick by default;
`--full`: more, longer batches; `--clock cpu`: the process's CPU time (steadier on a busy
machine, blind to thread wake-ups); `--profile`: agentc's hottest functions per row.

Run: `python bench/graph_bench.py [--full] [--mode sync|async|both] [--only chain,fan,nested]
[--reps N] [--clock wall|cpu] [--profile]`. Needs `pip install -e '.[oracle,bench]'`
(LangGraph is imported only here, never by agentc).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import itertools
import operator
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypedDict

CHAIN_LEN = 10
FAN_K = 100

# ---------------------------------------------------------------- agentc: .agent text

STEPS_PY = """from agentc.runtime.types import Send
def inc(state): return {"count": state["count"] + 1}
def noop(state): return None
def fan(state): return [Send("worker", i) for i in range(state["k"])]
def work(i): return {"results": [i]}
def final(state): return {"total": sum(state["results"])}
"""


def chain_agent(n: int) -> str:
    nodes = "\n".join(f"  node n{i} = python(steps.inc)" for i in range(n))
    edges = "\n".join(f"  edge n{i} -> n{i + 1}" for i in range(n - 1))
    return f"""graph chain {{
  state {{ count: int = 0 }}
{nodes}
  edge START -> n0
{edges}
  edge n{n - 1} -> END
}}
"""


FAN_AGENT = """graph fan {
  state {
    k: int = 0
    results: list[int] = [] reduce append
    total: int = 0
  }
  node plan = python(steps.noop)
  node worker = python(steps.work)
  node final = python(steps.final)
  edge START -> plan
  route plan by steps.fan { worker -> worker }
  edge worker -> final
  edge final -> END
}
"""


def _level(name: str, inner: str | None, a: str, b: str) -> str:
    body = (
        f"  node {a} = python(steps.inc)\n  node sub = subgraph({inner})\n"
        f"  node {b} = python(steps.inc)\n"
        f"  edge START -> {a}\n  edge {a} -> sub\n  edge sub -> {b}\n  edge {b} -> END\n"
        if inner
        else f"  node {a} = python(steps.inc)\n  node {b} = python(steps.inc)\n"
        f"  edge START -> {a}\n  edge {a} -> {b}\n  edge {b} -> END\n"
    )
    return f"graph {name} {{\n  state {{ count: int = 0 }}\n{body}}}\n"


NESTED_AGENT = _level("inner", None, "e", "f") + _level("mid", "inner", "c", "d")
NESTED_AGENT += _level("nested", "mid", "a", "b")

PROGRAM = "\n".join(
    ['agentc 1\nuse "./steps.py" as steps\n', chain_agent(CHAIN_LEN), FAN_AGENT, NESTED_AGENT]
)


def agentc_graphs(workdir: Path, checkpointer: Any) -> dict[str, Any]:
    """Every graph of the program through the real pipeline (`agentc.api.load`)."""
    from agentc.api import load

    (workdir / "steps.py").write_text(STEPS_PY)
    (workdir / "graph_bench.agent").write_text(PROGRAM)
    return load(workdir / "graph_bench.agent", checkpointer=checkpointer)


# ---------------------------------------------------------------- LangGraph: StateGraph


class Count(TypedDict):
    count: int


class Fan(TypedDict):
    k: int
    results: Annotated[list, operator.add]
    total: int


_STEPS: dict[str, Any] = {}
exec(STEPS_PY, _STEPS)  # our own constant: the very node bodies agentc runs
_inc, _noop, _work, _final = (_STEPS[k] for k in ("inc", "noop", "work", "final"))


def lg_chain(n: int, checkpointer: Any) -> Any:
    from langgraph.graph import END, START, StateGraph

    g = StateGraph(Count)
    for i in range(n):
        g.add_node(f"n{i}", _inc)
    g.add_edge(START, "n0")
    for i in range(n - 1):
        g.add_edge(f"n{i}", f"n{i + 1}")
    g.add_edge(f"n{n - 1}", END)
    return g.compile(checkpointer=checkpointer)


def lg_fan(checkpointer: Any) -> Any:
    from langgraph.graph import END, START, StateGraph
    from langgraph.types import Send

    g = StateGraph(Fan)
    g.add_node("plan", _noop)
    g.add_node("worker", _work)
    g.add_node("final", _final)
    g.add_edge(START, "plan")
    g.add_conditional_edges("plan", lambda s: [Send("worker", i) for i in range(s["k"])])
    g.add_edge("worker", "final")
    g.add_edge("final", END)
    return g.compile(checkpointer=checkpointer)


def lg_nested(checkpointer: Any) -> Any:
    from langgraph.graph import END, START, StateGraph

    def level(a: str, b: str, sub: Any, saver: Any) -> Any:
        g = StateGraph(Count)
        g.add_node(a, _inc)
        g.add_node(b, _inc)
        g.add_edge(START, a)
        if sub is None:
            g.add_edge(a, b)
        else:
            g.add_node("sub", sub)
            g.add_edge(a, "sub")
            g.add_edge("sub", b)
        g.add_edge(b, END)
        return g.compile(checkpointer=saver)  # inner levels: None, the parent's saver (H3)

    inner = level("e", "f", None, None)
    mid = level("c", "d", inner, None)
    return level("a", "b", mid, checkpointer)


# ---------------------------------------------------------------- workloads


@dataclass(frozen=True)
class Workload:
    name: str
    graph: str  # the agentc graph's name
    steps: int  # supersteps per run, every level counted
    tasks: int  # node calls per run
    input: dict[str, Any]
    langgraph: Callable[[Any], Any]  # checkpointer → compiled LangGraph graph


WORKLOADS = (
    Workload(
        "chain", "chain", CHAIN_LEN, CHAIN_LEN, {"count": 0}, lambda c: lg_chain(CHAIN_LEN, c)
    ),
    Workload("fan", "fan", 3, FAN_K + 2, {"k": FAN_K, "results": [], "total": 0}, lg_fan),
    Workload("nested", "nested", 8, 8, {"count": 0}, lg_nested),
)


def check_same(w: Workload, lg: Any, ac: Any) -> None:
    """Both runtimes compute the same result before anything is timed."""
    theirs = lg.invoke(dict(w.input), _lg_config(lg, "check"))
    ours = ac.invoke(dict(w.input), _ac_config(ac, "check"))
    if theirs != ours:
        raise SystemExit(f"{w.name}: LangGraph returned {theirs!r}, agentc {ours!r}")


_threads = itertools.count()


def _lg_config(g: Any, tag: str = "") -> dict[str, Any] | None:
    if g.checkpointer is None:
        return None
    return {"configurable": {"thread_id": f"lg{tag}{next(_threads)}"}}


def _ac_config(g: Any, tag: str = "") -> Any:
    from agentc.runtime import RunConfig

    return None if g.checkpointer is None else RunConfig(thread_id=f"ac{tag}{next(_threads)}")


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter  # `--clock cpu`: the process's CPU time (every thread's)


def runner(
    w: Workload, g: Any, saver: Callable[[], Any], *, lg: bool, is_async: bool
) -> Callable[[int], float]:
    """`run(n)`: seconds for n invocations of `g` (one event loop for the async runs). Each
    batch starts with an empty saver (untimed): a fresh thread per run would otherwise grow
    the store from batch to batch, and with it the collector's work."""
    config = _lg_config if lg else _ac_config
    value = w.input

    def fresh() -> None:
        if g.checkpointer is not None:
            g.checkpointer = saver()  # subgraphs use the parent's (H3; LangGraph alike)

    def sync(n: int) -> float:
        fresh()
        t0 = clock()
        for _ in range(n):
            g.invoke(dict(value), config(g))
        return clock() - t0

    async def many(n: int) -> float:
        fresh()
        t0 = clock()
        for _ in range(n):
            await g.ainvoke(dict(value), config(g))
        return clock() - t0

    if not is_async:
        return sync
    loop = asyncio.new_event_loop()
    return lambda n: loop.run_until_complete(many(n))


# ---------------------------------------------------------------- timing


@dataclass(frozen=True)
class Stats:
    median: float  # seconds per run (or a ratio)
    spread: float  # (max - min) / median over the batches

    def ms(self) -> str:
        return f"{self.median * 1e3:,.3f} ms ±{self.spread * 50:.0f}%"


def calibrate(run: Callable[[int], float], batch_s: float) -> int:
    """Warm up, then the number of runs that fill about `batch_s` (timeit's autorange)."""
    once = max(run(1), 1e-7)
    n = max(1, int(0.2 * batch_s / once))
    run(n)  # warm-up proper: caches, the thread pool, agentc's inline proof (inline.py)
    per = max(run(n) / n, 1e-7)
    return max(1, int(batch_s / per))


def measure(
    lg: Callable[[int], float], ac: Callable[[int], float], reps: int, batch_s: float
) -> tuple[Stats, Stats, Stats]:
    """Per-run times of both sides, and the ratio of each adjacent pair of batches (paired,
    so a load change between batch pairs cancels out of the ratio)."""
    n_lg, n_ac = calibrate(lg, batch_s), calibrate(ac, batch_s)
    t_lg: list[float] = []
    t_ac: list[float] = []
    for r in range(reps):  # interleaved, alternating who goes first
        order = ((lg, n_lg, t_lg), (ac, n_ac, t_ac))
        for run, n, out in order if r % 2 == 0 else reversed(order):
            gc.collect()
            out.append(run(n) / n)
    paired = [a / b for a, b in zip(t_lg, t_ac, strict=True)]
    return _stats(t_lg), _stats(t_ac), _stats(paired)


def _stats(values: list[float]) -> Stats:
    med = statistics.median(values)
    return Stats(med, (max(values) - min(values)) / med)


# ---------------------------------------------------------------- the table

HEAD = (
    "workload",
    "steps/tasks",
    "LangGraph / run",
    "agentc / run",
    "LangGraph µs/step",
    "agentc µs/step",
    "ratio (LangGraph/agentc)",
)


def print_table(rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(r[i]) for r in [HEAD, *rows]) for i in range(len(HEAD))]

    def line(r: tuple[str, ...]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"

    print()
    print(line(HEAD))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    print(
        "\n±: half of (max - min) / median over the batches; ratio: median of the paired "
        "batches' ratios; µs/step: time per run / supersteps (every level)"
    )


def row(label: str, w: Workload, lg: Stats, ac: Stats, paired: Stats) -> tuple[str, ...]:
    per = 1e6 / w.steps
    ratio = paired.median
    return (
        label,
        f"{w.steps}/{w.tasks}",
        lg.ms(),
        ac.ms(),
        f"{lg.median * per:,.1f}",
        f"{ac.median * per:,.1f}",
        f"{ratio:,.1f}x ±{paired.spread * 50:.0f}%{'' if ratio >= 10 else '  (< 10x)'}",
    )


# ---------------------------------------------------------------- profile


def profile(label: str, w: Workload, g: Any, saver: Any, is_async: bool, seconds: float) -> None:
    """agentc's hottest functions for `w` (cProfile, by own time), after a warm-up."""
    run = runner(w, g, saver, lg=False, is_async=is_async)
    n = calibrate(run, seconds)
    prof = cProfile.Profile()
    prof.enable()
    run(n)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime")
    stats.print_stats(18)
    print(f"\n### {label}: {n} runs\n")
    print("\n".join(out.getvalue().splitlines()[4:]))


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    global clock
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--full", action="store_true", help="more and longer batches")
    parser.add_argument("--quick", action="store_true", help="the default (kept for symmetry)")
    parser.add_argument(
        "--mode", choices=("sync", "async", "both"), default="both", help="invoke, ainvoke"
    )
    parser.add_argument("--only", default="", help="comma-separated workloads: chain,fan,nested")
    parser.add_argument("--reps", type=int, default=0, help="batches per side (default 7; 15)")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="wall", help="cpu: steadier")
    parser.add_argument("--profile", action="store_true", help="cProfile agentc instead")
    args = parser.parse_args(argv)
    clock = CLOCKS[args.clock]
    try:
        import langgraph  # noqa: F401
    except ImportError:
        print("the oracle is not installed: pip install -e '.[oracle,bench]'", file=sys.stderr)
        return 2
    from langgraph.checkpoint.memory import InMemorySaver

    from agentc.runtime import MemoryCheckpointer

    chosen = {s for s in args.only.split(",") if s} or {w.name for w in WORKLOADS}
    workloads = [w for w in WORKLOADS if w.name in chosen]
    reps = args.reps or (15 if args.full else 7)
    batch_s = 0.25 if args.full else 0.08
    modes = {"sync": (False,), "async": (True,), "both": (False, True)}[args.mode]
    workdir = Path(tempfile.mkdtemp(prefix="graph_bench"))
    savers = (
        ("", lambda: None, lambda: None),
        (" + memory saver", MemoryCheckpointer, InMemorySaver),
    )
    rows: list[tuple[str, ...]] = []
    t_start = time.perf_counter()
    for suffix, ac_saver, lg_saver in savers:
        for w in workloads:
            for is_async in modes:
                label = f"{w.name}{suffix}{', ainvoke' if is_async else ''}"
                # fresh graphs per row: what one row's runs taught agentc's sync-node
                # placement (inline.py) must not carry into the next row
                ac = agentc_graphs(workdir, ac_saver())[w.graph]
                lg = w.langgraph(lg_saver())
                check_same(w, lg, ac)
                if args.profile:
                    profile(label, w, ac, ac_saver, is_async, 1.0)
                    continue
                t_lg, t_ac, paired = measure(
                    runner(w, lg, lg_saver, lg=True, is_async=is_async),
                    runner(w, ac, ac_saver, lg=False, is_async=is_async),
                    reps,
                    batch_s,
                )
                rows.append(row(label, w, t_lg, t_ac, paired))
                print(f"  {label}: langgraph {t_lg.ms()}, agentc {t_ac.ms()}", flush=True)
    if rows:
        print_table(rows)
        print(
            f"({time.perf_counter() - t_start:.0f} s; {reps} batches of ~{batch_s}s per side; "
            f"{args.clock} clock)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
