"""Benchmark `agentc fmt`: the time to format a generated graph file, by size.

Generates graph files of 100, 1,000 and 5,000 nodes (check_bench's generator: a chain of
python nodes with a conditional loop every tenth node, written with messy spacing and a
comment every fifth line), times `format_source` in process (median of several runs) and
`agentc fmt --check` of the 5,000-node file in a fresh process (cold start included).
Target (informational): the 5,000-node file under 1 s.

Run: python bench/fmt_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_bench import generate  # noqa: E402

from agentc.fmt import format_source  # noqa: E402


def messy(n: int) -> str:
    lines = generate(n).splitlines()
    out = []
    for i, line in enumerate(lines):
        line = line.replace(" = ", "=").replace(" -> ", "->").strip()
        out.append(line + ("  # note" if i % 5 == 0 else ""))
    return "\n".join(out) + "\n"


def time_format(text: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        result = format_source(text, "bench.agent")
        times.append(time.perf_counter() - t0)
        assert result.text is not None
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{'nodes':>6}  {'lines':>6}  {'format (ms)':>11}  {'per node (µs)':>13}")
    for n in (100, 1000, 5000):
        text = messy(n)
        t = time_format(text, args.runs)
        print(f"{n:>6}  {text.count(chr(10)):>6}  {t * 1000:>11.1f}  {t / n * 1e6:>13.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.agent"
        path.write_text(messy(5000))
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "agentc", "fmt", "--check", str(path)], capture_output=True
        )
        print(
            "agentc fmt --check, 5,000 nodes, fresh process: "
            f"{(time.perf_counter() - t0) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
