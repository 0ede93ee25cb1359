"""The inputs the formatter's properties are checked over, and the IR comparison.

Every `.agent` file of examples/ and tests/golden, every chunk of tests/checks (split by
`---` lines as tests/compiler/test_checks.py does), the fuzz corpus, the prelude, and
inputs from the grammar-aware fuzzer (derivations and mutations of real files).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
_CHUNK_SPLIT = re.compile(r"(?m)^---[ \t]*\n?")


def files() -> Iterator[tuple[str, str, Path]]:
    """(id, text, folder its `use`s are read from)."""
    for pattern in ("examples/**/*.agent", "tests/golden/**/*.agent", "tests/fuzz/corpus/*.agent"):
        for path in sorted(REPO.glob(pattern)):
            yield str(path.relative_to(REPO)), path.read_text(encoding="utf-8"), path.parent
    prelude = REPO / "stdlib" / "prelude.agent"
    yield "stdlib/prelude.agent", prelude.read_text(encoding="utf-8"), prelude.parent
    for path in sorted((REPO / "tests" / "checks").glob("*.agent")):
        lines = path.read_text(encoding="utf-8").split("\n")
        start, index = 0, 0
        for i, line in enumerate([*lines, "---"]):
            if line.strip() == "---":
                name = f"{path.relative_to(REPO)}::{index}"
                yield name, "\n".join(lines[start:i]), path.parent
                start, index = i + 1, index + 1


def fuzzed(seed: int, count: int) -> Iterator[tuple[str, str, Path]]:
    from tests.fuzz.grammar_fuzz import inputs

    for name, text, where in inputs(seed, count):
        yield name, text, REPO / where


def strip_spans(value: Any) -> Any:
    """The IR as plain data without anything that says where in the text it came from."""
    if isinstance(value, dict):
        return {
            k: strip_spans(v)
            for k, v in value.items()
            if "span" not in k and k not in ("content_hash", "sha256", "hash")
        }
    if isinstance(value, list):
        return [strip_spans(v) for v in value]
    return value
