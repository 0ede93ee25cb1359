"""Write docs/conformance.md: one row per seat of seed 000, its status and the test.

Statuses: same (a scenario or an oracle test matches create_agent, or — said in the note —
a test named after the seat asserts the seat map's answer), divergent by design (a test
asserts agentc's difference, listed in docs/divergences.md), not observable offline, not
yet. Run from the repository root: `python tests/conformance/make_table.py`.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from scenarios import SCENARIOS  # noqa: E402

SEED = next((ROOT.parent / "shared" / "seeds").glob("000_*.txt"), None)
OFFLINE = "not observable offline"
DIVERGENT = "divergent by design"
SCENARIO = "tests/conformance/test_conformance.py::test_scenario[{}]"

# Tests that run the same case in LangChain 1.5.2 and in agentc and compare (besides the
# scenarios): a seat they name is "same".
ORACLE_TESTS = (
    "tests/conformance/test_conformance_agents.py",
    "tests/conformance/test_conformance_mcp.py",
    "tests/stdlib/middleware/test_conformance_lc.py",
    "tests/stdlib/middleware/test_auto_mode.py",
    "tests/stdlib/middleware/test_model_router.py",
    "tests/stdlib/middleware/test_hitl_decision_metadata.py",
    "tests/stdlib/test_developer_role.py",
    "tests/stdlib/test_tool_selector_oracle.py",
    "tests/runtime/test_resume_schemas.py",
    "tests/runtime/test_nested_runs.py",
    "tests/runtime/test_interrupt_ids.py",
    "tests/conformance/test_conformance_seats.py",
    "tests/conformance/test_conformance_parallel_failure.py",
)
# Tests named after seats (`test_D10_D12_…`) that assert the seat map's answer directly.
SEAT_TESTS = (
    "tests/stdlib",
    "tests/middleware",
    "tests/cli",
    "tests/providers",
    "tests/runtime",
    "tests/conformance",
)

# Seats no test shows: (status, where, note).
# The MCP seats (A9, A10, B10, D22, D23, E12, H5) are shown by tests/stdlib/mcp/test_mcp.py
# against a fake MCP server on 127.0.0.1; tests/conformance/test_conformance_mcp.py runs
# LangChain's MCPAdapter (needs fastmcp>=4, skipped without it) against the same server.
_NO_CARD = (
    "no behaviour to compare",
    "",
    "one of the three seats the published map leaves without a card: it states no "
    "behaviour, so no run of LangChain can be compared",
)
OTHER: dict[str, tuple[str, str, str]] = {seat: _NO_CARD for seat in ("D13", "D15", "D19")}


def seat_tests(dirs: tuple[str, ...]) -> dict[str, list[str]]:
    """seat → test ids (`path::test_name`) of tests whose names start with seat ids."""
    found: dict[str, list[str]] = {}
    files = [
        f
        for d in dirs
        for f in ([ROOT / d] if (ROOT / d).is_file() else sorted((ROOT / d).rglob("test_*.py")))
    ]
    for f in files:
        rel = f.relative_to(ROOT).as_posix()
        for name in re.findall(r"^(?:async )?def (test_\w+)", f.read_text(encoding="utf-8"), re.M):
            prefix = re.match(r"test_((?:[A-I]\d+_)+)", name)
            for seat in prefix.group(1).strip("_").split("_") if prefix else ():
                found.setdefault(seat, []).append(f"{rel}::{name}")
    return found


def divergences() -> dict[str, str]:
    """seat → the first docs/divergences.md row that names it (its `what agentc does`)."""
    out: dict[str, str] = {}
    text = (ROOT / "docs" / "divergences.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not line.startswith("|"):
            continue
        for seat in re.findall(r"\b([A-I]\d+)\b", cells[0]):
            out.setdefault(seat, short(cells[1]))
    return out


def short(text: str, limit: int = 160) -> str:
    first = text.split(". ")[0].rstrip(".")
    return first if len(first) <= limit else first[: limit - 1] + "…"


def seats() -> list[tuple[str, str]]:
    if SEED is None:
        raise SystemExit("seed 000 not found beside the repository (../shared/seeds)")
    out = []
    for line in SEED.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-I]\d+) (.+?) (RULE|RULING) · ", line)
        if m:
            out.append((m.group(1), m.group(2)))
    # seats of later LangChain middlewares, not in the published map: after their stage's
    import json

    table = json.loads((ROOT / "stdlib" / "data" / "seats.json").read_text(encoding="utf-8"))
    for seat in table["seats"]:
        if seat.get("published") is False and seat["id"] not in dict(out):
            question = f"{seat['question']} (not in the published map)"
            last = max(i for i, (sid, _) in enumerate(out) if sid[0] == seat["id"][0])
            out.insert(last + 1, (seat["id"], question))
    return out


@dataclass(frozen=True)
class Evidence:
    oracle: dict[str, list[str]]
    seat: dict[str, list[str]]
    divergent: dict[str, str]


def row(seat: str, question: str, ev: Evidence) -> str:
    shown = [s for s in SCENARIOS if seat in s.seats]
    same = [SCENARIO.format(s.name) for s in shown if not s.divergence]
    div = [s for s in shown if s.divergence]
    same += ev.oracle.get(seat, [])
    why = div[0].divergence if div else ev.divergent.get(seat)
    if same:
        status, where = "same", same
        note = f"divergent by design too: {why}" if why else ""
    elif div:
        status, where, note = DIVERGENT, [SCENARIO.format(div[0].name)], div[0].divergence
    elif seat in ev.seat and why:
        status, where, note = DIVERGENT, ev.seat[seat], why
    elif seat in ev.seat:
        status, where = "same", ev.seat[seat]
        note = "asserted from the seat map's answer (no oracle run)"
    else:
        status, place, note = OTHER.get(seat, ("not yet", "", ""))
        where = [place] if place else []
    return f"| {seat} | {question} | {status} | {', '.join(where[:3])} | {note} |"


def main() -> int:
    ev = Evidence(
        oracle=seat_tests(ORACLE_TESTS), seat=seat_tests(SEAT_TESTS), divergent=divergences()
    )
    rows = [row(seat, q, ev) for seat, q in seats()]
    text = [
        "# Conformance with LangChain 1.5.2's create_agent",
        "",
        "Generated by `python tests/conformance/make_table.py` from the scenarios in "
        "`tests/conformance/scenarios.py`; each scenario runs in create_agent (the oracle) "
        "and in agentc and compares final messages, what each model call received, the "
        "structured answer, interrupts and the exception type. Besides the scenarios, "
        "`tests/conformance/test_conformance_agents.py` (H1–H3), "
        "`tests/conformance/test_conformance_mcp.py` (MCP tools, needs fastmcp>=4) and "
        "`tests/stdlib/middleware/test_conformance_lc.py` (middleware seats) run the same case in "
        "both; a seat shown only by tests named after it (`test_D9_…`) is marked so in "
        "the note. Divergences are listed in `docs/divergences.md`.",
        "",
        "| seat | question | status | test | note |",
        "| --- | --- | --- | --- | --- |",
        *rows,
        "",
    ]
    (ROOT / "docs" / "conformance.md").write_text("\n".join(text), encoding="utf-8")
    print(f"wrote docs/conformance.md ({len(rows)} seats)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
