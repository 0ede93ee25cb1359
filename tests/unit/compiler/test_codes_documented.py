"""Every code the compiler registers has a docs section and at least one test case."""

from __future__ import annotations

import re
from pathlib import Path

import agentc.compiler.pipeline  # noqa: F401  (imports every checking module)

ROOT = Path(__file__).resolve().parents[3]


def _compiler_codes() -> set[str]:
    codes = set()
    for f in (ROOT / "compiler").glob("*.py"):
        codes |= set(re.findall(r'register_code\(\s*"([a-z0-9-]+)"', f.read_text()))
    return codes


def test_at_least_28_codes() -> None:
    assert len(_compiler_codes()) >= 28


def test_every_code_has_a_docs_section() -> None:
    docs = (ROOT / "docs" / "diagnostics.md").read_text()
    missing = [c for c in _compiler_codes() if f"### `{c}`" not in docs]
    assert not missing


def test_every_code_has_a_case() -> None:
    text = "".join(p.read_text() for p in (ROOT / "tests" / "checks").glob("*.agent"))
    text += "".join(p.read_text() for p in (ROOT / "tests" / "golden").glob("*/diagnostics.txt"))
    missing = [c for c in _compiler_codes() if f"[{c}]" not in text]
    assert not missing
