"""Golden cases: `tests/golden/<case>/input.agent` (+ any .py or .agent beside it).

Compared stages: `diagnostics.txt` (human rendering, colour off), `ir.json`
(`Program.model_dump_json(indent=2)`; absent when compiling failed), and `ast.txt` when the
case has one. `pytest --update-golden` (or AGENTC_UPDATE_GOLDEN=1) rewrites them; review the
diff. Every case that compiles also round-trips its IR through JSON.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentc import ir
from agentc.compiler.pipeline import compile_source
from agentc.dsl.dump import dump
from agentc.dsl.parse import parse
from agentc.dsl.report import render_human

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
CASES = sorted(p.parent for p in GOLDEN.glob("*/input.agent"))


def _outputs(case: Path) -> dict[str, str | None]:
    text = (case / "input.agent").read_text(encoding="utf-8")
    result = compile_source(text, "input.agent", base_dir=case)
    out = {
        "diagnostics.txt": render_human(result.diagnostics, result.sources, color=False),
        "ir.json": result.program.model_dump_json(indent=2) + "\n" if result.program else None,
    }
    if (case / "ast.txt").exists():
        parsed = parse(text, "input.agent")
        out["ast.txt"] = dump(parsed.module) + "\n" if parsed.module else ""
    return out


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path, update_golden: bool) -> None:
    outputs = _outputs(case)
    if update_golden:
        for name, text in outputs.items():
            path = case / name
            if text is None:
                path.unlink(missing_ok=True)
            else:
                path.write_text(text, encoding="utf-8")
        return
    for name, text in outputs.items():
        path = case / name
        if text is None:
            assert not path.exists(), f"{name} expected but compiling failed"
            continue
        assert path.exists(), f"{case.name}/{name} missing: run pytest --update-golden"
        assert text == path.read_text(encoding="utf-8"), f"{case.name}/{name} differs"


# The cases whose golden IR exists are the ones that compile (test_golden keeps that true).
VALID = [c for c in CASES if (c / "ir.json").exists()]


@pytest.mark.parametrize("case", VALID, ids=[c.name for c in VALID])
def test_ir_round_trip(case: Path) -> None:
    text = (case / "input.agent").read_text(encoding="utf-8")
    program = compile_source(text, "input.agent", base_dir=case).program
    assert program is not None, f"{case.name} has a golden IR but does not compile"
    assert ir.Program.model_validate_json(program.model_dump_json()) == program


def test_enough_cases() -> None:
    failing = (
        [c for c in CASES if "error" in (c / "diagnostics.txt").read_text()]
        if CASES and (CASES[0] / "diagnostics.txt").exists()
        else []
    )
    assert len(CASES) >= 40
    assert len(failing) >= 25
