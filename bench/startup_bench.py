"""Start-up of whole `agentc` processes against the floors they are measured by.

Five commands, each a fresh process, run in interleaved rounds (every round runs each
command once, so a change in the machine's load hits all of them alike); each column is the
median over the rounds and each ratio compares two medians of the same run:

- `import line`: `python -c "import pydantic, lark, networkx, httpx"`, the bare imports of
  agentc's own dependencies;
- `create_agent`: `python -c "from langchain.agents import create_agent"` (the oracle);
- `check cold`: `agentc check` of a ~20-line file never seen before (a new comment each
  round), with the IR cache off;
- `run warm`: `agentc run examples/calculator.agent` once its IR is cached;
- `run cold`: `agentc run` of a calculator copy never seen before, with the IR cache off.

Bytecode and the grammar/prelude caches exist (one untimed warm-up of each command first),
as after any first use of an installed copy. Targets: check cold ≤ 0.6× and run warm
≤ 0.7× the import line; run cold ≤ 0.25× create_agent.

Each process is timed by the wall clock and by its CPU time (user + system, from the
kernel's accounting of the waited child). The targets are read on the wall clock; on a
busy machine the wall mostly measures the wait for a core, and the CPU ratios (`--clock
cpu`) are the steadier read of a change.

Run: python bench/startup_bench.py [--rounds N] [--only NAMES] [--clock wall|cpu]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALCULATOR = ROOT / "examples" / "calculator.agent"
SMALL = """agentc 1
use "./tools.py" as tools

agent helper "Adds numbers." {
  model "openai:gpt-4o-mini" { temperature: 0 }
  prompt "You are a careful calculator."
  tools [tools.add]
  middleware { model_call_limit { run: 10 } }
}

graph loop {
  state { messages: messages, done: bool = false }
  node write = model("openai:gpt-4o-mini", prompt: "Draft.")
  node act = tools([tools.add])
  edge START -> write
  edge write -> act
  edge act -> END
}
"""


def _agentc() -> str:
    beside = Path(sys.executable).with_name("agentc")
    found = str(beside) if beside.is_file() else shutil.which("agentc")
    if found is None:
        sys.exit("agentc is not installed in this Python (pip install -e .)")
    return found


class Commands:
    """Each command as an argv and an environment; cold ones write a new file per call."""

    def __init__(self, tmp: Path) -> None:
        self.tmp, self.exe, self.count = tmp, _agentc(), 0
        shutil.copy(ROOT / "examples" / "tools.py", tmp / "tools.py")
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        self.env = base
        self.cold_env = {**base, "AGENTC_NO_IR_CACHE": "1"}

    def _fresh(self, text: str) -> str:
        self.count += 1
        path = self.tmp / f"f{self.count}.agent"
        lines = text.split("\n", 1)
        header, rest = (lines[0], lines[1]) if text.startswith("agentc") else ("", text)
        path.write_text(f"{header}\n# round {self.count}\n{rest}")
        return str(path)

    def argv(self, name: str) -> tuple[list[str], dict[str, str]]:
        py = sys.executable
        if name == "import line":
            return [py, "-c", "import pydantic, lark, networkx, httpx"], self.env
        if name == "create_agent":
            return [py, "-c", "from langchain.agents import create_agent"], self.env
        if name == "check cold":
            return [self.exe, "check", self._fresh(SMALL)], self.cold_env
        if name == "run warm":
            return [self.exe, "run", str(CALCULATOR), "--input", "add"], self.env
        if name == "run cold":
            return [self.exe, "run", self._fresh(CALCULATOR.read_text()), "--input", "add"], (
                self.cold_env
            )
        raise ValueError(name)


NAMES = ("import line", "create_agent", "check cold", "run warm", "run cold")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_once(commands: Commands, name: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one fresh process running `name`."""
    argv, env = commands.argv(name)
    cpu0, t0 = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, check=False, cwd=commands.tmp)
    elapsed, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    if done.returncode != 0:
        sys.exit(f"{name} failed ({done.returncode}): {done.stderr.decode()[-800:]}")
    return elapsed, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--only", help="comma-separated subset of: " + ", ".join(NAMES))
    ap.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="what the ratios compare"
    )
    args = ap.parse_args()
    names = [n.strip() for n in args.only.split(",")] if args.only else list(NAMES)
    with tempfile.TemporaryDirectory() as tmp:
        commands = Commands(Path(tmp))
        for name in names:  # warm-up: bytecode, grammar and prelude caches, the IR cache
            time_once(commands, name)
        times: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
        for _ in range(args.rounds):
            for name in names:
                times[name].append(time_once(commands, name))
    load = os.getloadavg()
    wall = {n: statistics.median(w for w, _ in t) for n, t in times.items()}
    cpu = {n: statistics.median(c for _, c in t) for n, t in times.items()}
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {args.rounds} rounds")
    print(f"{'command':>14} {'median ms':>10} {'best ms':>9} {'CPU ms':>8}")
    for name in names:
        best = min(w for w, _ in times[name])
        print(f"{name:>14} {wall[name] * 1e3:>10.0f} {best * 1e3:>9.0f} {cpu[name] * 1e3:>8.0f}")
    med, other = (cpu, wall) if args.clock == "cpu" else (wall, cpu)
    ratios = (
        ("check cold", "import line", 0.6),
        ("run warm", "import line", 0.7),
        ("run cold", "create_agent", 0.25),
    )
    for ours, floor, target in ratios:
        if ours in med and floor in med:
            r, r_other = med[ours] / med[floor], other[ours] / other[floor]
            mark = "ok" if r <= target else "over"
            print(
                f"{ours} / {floor}: {r:.2f} (target ≤ {target}) {mark}"
                f"  [by the {'wall' if args.clock == 'cpu' else 'CPU'} clock: {r_other:.2f}]"
            )


if __name__ == "__main__":
    main()
