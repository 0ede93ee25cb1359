"""Every diagnostic code has a docs section and at least one test case."""

from __future__ import annotations

from pathlib import Path

from agentc.dsl.codes import Code, Severity

ROOT = Path(__file__).resolve().parents[2]


def test_every_code_has_a_summary_and_severity() -> None:
    for code in Code:
        assert code.summary and not code.summary.endswith("."), code
        assert isinstance(code.severity, Severity)


def test_every_code_has_a_docs_section() -> None:
    docs = (ROOT / "docs" / "diagnostics.md").read_text()
    missing = [c.value for c in Code if f"### `{c.value}`" not in docs]
    assert not missing


def test_every_code_has_a_case() -> None:
    text = "".join(p.read_text() for p in (ROOT / "tests" / "checks").glob("*.agent"))
    text += "".join(p.read_text() for p in (ROOT / "tests" / "golden").glob("*/diagnostics.txt"))
    # A file that cannot be read cannot be a check case: its test is in tests/dsl.
    text += (
        (ROOT / "tests" / "dsl" / "test_unreadable.py")
        .read_text()
        .replace("`unreadable-file`", "[unreadable-file]")
    )
    missing = [c.value for c in Code if f"[{c.value}]" not in text]
    assert not missing
