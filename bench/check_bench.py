"""Benchmark `agentc check`: parse + compile + validate time by graph size.

First compares `compile_source` with the Lark floor (the same file parsed to a tree by the
parser as configured, interleaved rounds, medians) at 1,000, 5,000 and 20,000 nodes
(target: ≤ 0.8× the floor). Then generates graph files of 10, 100, 1,000 and 5,000 nodes (a
chain of python nodes with a conditional loop every tenth node), times `compile_source`
(median of several runs), prints a table with the per-node cost, and measures the cold
start of checking a ~50-line file in a fresh process (`agentc check` if the CLI is
installed, else `python -c` compile), with bytecode writing allowed and after a warm-up
run, as on any installed copy.
Targets: ≈50-line file < 20 ms warm, 5,000 nodes < 2 s, linear growth.

Run: python bench/check_bench.py [--runs N] [--floor-only] [--sizes 1000,5000,20000]
     [--clock wall|cpu]
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from agentc.compiler.pipeline import compile_source
from agentc.grammar import load_parser

TOOLS = '''
def step(state):
    """One step."""
    return {}
'''

SMALL = """use "./tools.py" as tools

schema Answer "A checked answer." {
  value: int
  explanation: str "how it was obtained"
}

agent calculator "Adds numbers." {
  model "anthropic:claude-sonnet-4-5" { temperature: 0 }
  prompt "You are a careful calculator."
  tools [tools.step]
  output Answer via tool
  middleware {
    summarization { model: "openai:gpt-4o-mini", trigger: tokens(4000), keep: messages(20) }
    model_call_limit { run: 10 }
  }
  limits { steps: 100, step_timeout: 30s }
  checkpoint memory
}

graph loop {
  state {
    messages: messages
    done: bool = false
    log: list[str] = [] reduce append
  }
  node write = model("openai:gpt-4o-mini", prompt: "Draft.")
  node act = tools([tools.step])
  node check = python(tools.step) { timeout: 10s }
  node helper = agent(calculator)
  edge START -> write
  edge write -> act
  edge act -> check
  edge check -> helper when done
  edge check -> write otherwise
  edge helper -> END
  interrupt before helper
  checkpoint memory
}
"""


def generate(n: int) -> str:
    lines = ['use "./tools.py" as tools', "graph big {", "  state { flag: bool = false }"]
    lines += [f"  node n{i} = python(tools.step)" for i in range(n)]
    lines.append("  edge START -> n0")
    for i in range(n - 1):
        if i % 10 == 9:
            lines.append(f"  edge n{i} -> n{i + 1} when flag")
            lines.append(f"  edge n{i} -> n{i - 5} otherwise")
        else:
            lines.append(f"  edge n{i} -> n{i + 1}")
    lines += [f"  edge n{n - 1} -> END", "}"]
    return "\n".join(lines) + "\n"


def time_compile(text: str, base: Path, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        result = compile_source(text, "bench.agent", base_dir=base)
        times.append(time.perf_counter() - t0)
        assert result.program is not None, [d.message for d in result.diagnostics[:3]]
    return statistics.median(times)


def lark_floor_ratios(base: Path, sizes: tuple[int, ...], runs: int) -> None:
    """`compile_source` against the Lark floor: the same file parsed to a `lark.Tree` by
    the parser as `agentc` configures it (`load_parser().parse`, with Python's collector on
    as for any caller; `gc off` repeats it with the collector paused, as agentc's own parse
    does). Interleaved rounds, medians; target: check ≤ 0.8× the floor."""
    parser = load_parser()
    print(f"{'nodes':>7} {'floor ms':>9} {'floor gc off':>13} {'check ms':>9} {'ratio':>6}")
    for n in sizes:
        text = generate(n)
        floor, floor_off, check = [], [], []
        tree = functools.partial(parser.parse, text)
        compiled = functools.partial(compile_source, text, "bench.agent", base_dir=base)
        for _ in range(runs):
            floor.append(_timed(tree))
            floor_off.append(_timed(tree, gc_off=True))
            check.append(_timed(compiled))
        f, f_off, c = (statistics.median(x) for x in (floor, floor_off, check))
        print(f"{n:>7} {f * 1e3:>9.0f} {f_off * 1e3:>13.0f} {c * 1e3:>9.0f} {c / f:>6.2f}")


CLOCK = [time.perf_counter]  # `--clock cpu` swaps in time.process_time


def _timed(work: Callable[[], object], gc_off: bool = False) -> float:
    gc.collect()  # untimed: each run starts from the same heap, not the last one's garbage
    enabled = gc.isenabled()
    if gc_off:
        gc.disable()
    try:
        t0 = CLOCK[0]()
        work()
        return CLOCK[0]() - t0
    finally:
        if enabled:
            gc.enable()


def _agentc_script() -> str | None:
    """The console script of this Python (not a shell shim in front of it, such as
    pyenv's, whose own start-up would be counted)."""
    beside = Path(sys.executable).with_name("agentc")
    return str(beside) if beside.is_file() else shutil.which("agentc")


def cold_start(path: Path, runs: int = 9) -> tuple[str, float, float]:
    """Median and best wall time of `agentc check` in a fresh process, after a warm-up run
    (so .pyc files and the grammar/prelude caches exist, as after any first use)."""
    exe = _agentc_script()
    cmd = (
        [exe, "check", str(path)]
        if exe
        else [
            sys.executable,
            "-c",
            f"from agentc.compiler.pipeline import compile_file; compile_file({str(path)!r})",
        ]
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(cmd, capture_output=True, check=False, env=env)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False, env=env)
        times.append(time.perf_counter() - t0)
    how = "agentc check" if exe else "python -c compile_file"
    return how, statistics.median(times), min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--floor-only", action="store_true", help="only the Lark floor table")
    ap.add_argument("--sizes", default="1000,5000,20000", help="node counts for the floor table")
    ap.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="the floor table's clock"
    )
    args = ap.parse_args()
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        (base / "tools.py").write_text(TOOLS)
        compile_source(SMALL, "warmup.agent", base_dir=base)  # prelude, grammar caches
        sizes = tuple(int(n) for n in args.sizes.split(","))
        lark_floor_ratios(base, sizes, args.runs)
        if args.floor_only:
            return
        small = time_compile(SMALL, base, args.runs * 4)
        print(f"{'file':>18} {'lines':>7} {'median ms':>10} {'µs/node':>9}")
        print(f"{'small (agent+graph)':>18} {SMALL.count(chr(10)):>7} {small * 1e3:>10.2f} {'':>9}")
        for n in (10, 100, 1000, 5000):
            text = generate(n)
            t = time_compile(text, base, args.runs if n < 5000 else max(3, args.runs // 2))
            print(f"{n:>12} nodes {text.count(chr(10)):>7} {t * 1e3:>10.2f} {t / n * 1e6:>9.1f}")
        (base / "small.agent").write_text(SMALL)
        how, median, best = cold_start(base / "small.agent")
        print(
            f"cold start ({how}, ~50-line file): median {median * 1e3:.0f} ms, "
            f"best {best * 1e3:.0f} ms (target < 300 ms)"
        )


if __name__ == "__main__":
    main()
