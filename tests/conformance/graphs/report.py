"""Print each scenario's verdict and its first differences, short (for people, not CI):
`python tests/conformance/graphs/report.py [NAME…] [--long]`."""

from __future__ import annotations

import sys

from graph_harness import compare, discover, run_agentc, run_langgraph
from graph_scenario import oracle_problems


def main(argv: list[str]) -> None:
    long = "--long" in argv
    names = {a for a in argv if not a.startswith("--")}
    width = 4000 if long else 360
    for sc in discover():
        if names and sc.name not in names:
            continue
        expected, got = run_langgraph(sc), run_agentc(sc)
        if sc.data.get("divergence"):
            ok = not oracle_problems(sc, expected) and all(
                got.ops[int(i)].get(k) == v
                for i, fields in sc.data["expect_agentc"].items()
                for k, v in fields.items()
            )
            detail = "" if ok else str([(o.get("error"), o.get("message")) for o in got.ops])
            print(f"{'PASS' if ok else 'FAIL'} {sc.name} (divergence) {detail[:width]}")
            continue
        diffs = compare(sc, expected, got)
        print(f"{'FAIL' if diffs else 'PASS'} {sc.name}")
        for d in diffs[: None if long else 2]:
            print("   ", d[:width].replace("\n", "\n    "))


if __name__ == "__main__":
    main(sys.argv[1:])
