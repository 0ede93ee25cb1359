"""Chunked check files: `tests/checks/*.agent`.

Each file is split into chunks by a line `---`. A line ending in `### [code]` or
`### [code] "text"` expects a diagnostic with that code starting on that line (and, with
text, a message containing it). Unexpected diagnostics fail the chunk; chunks without
markers must compile clean (warnings included). Python files beside a chunk live in
`tests/checks/py/` and are used as `use "./py/<name>.py"`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agentc.compiler.pipeline import compile_source

CHECKS = Path(__file__).resolve().parents[1] / "checks"
MARKER = re.compile(r'###\s*\[([a-z0-9-]+)\](?:\s*"([^"]*)")?')


def _chunks():
    for path in sorted(CHECKS.glob("*.agent")):
        lines = path.read_text(encoding="utf-8").split("\n")
        start, index = 0, 0
        for i, line in enumerate(lines + ["---"]):
            if line.strip() == "---":
                yield pytest.param(path, start, lines[start:i], id=f"{path.name}::{index}")
                start, index = i + 1, index + 1


def _expected(lines: list[str]) -> list[tuple[int, str, str | None]]:
    out = []
    for n, line in enumerate(lines, 1):
        for m in MARKER.finditer(line):
            out.append((n, m.group(1), m.group(2)))
    return out


@pytest.mark.parametrize("path,offset,lines", list(_chunks()))
def test_check_chunk(path: Path, offset: int, lines: list[str]) -> None:
    # Blank lines keep line numbers equal to the file's, so failures point at the file.
    text = "\n" * offset + "\n".join(lines)
    result = compile_source(text, path.name, base_dir=path.parent)
    want = [(n + offset, code, txt) for n, code, txt in _expected(lines)]
    got = [
        (d.span.start.line, d.code, d.message)
        for d in result.diagnostics
        if d.span.file == path.name
    ]
    elsewhere = [d for d in result.diagnostics if d.span.file != path.name]
    missing = [
        w
        for w in want
        if not any(g[0] == w[0] and g[1] == w[1] and (w[2] is None or w[2] in g[2]) for g in got)
    ]
    unexpected = [g for g in got if not any(g[0] == w[0] and g[1] == w[1] for w in want)]
    assert not missing and not unexpected and not elsewhere, (
        f"missing: {missing}\nunexpected: {unexpected}\nin other files: "
        f"{[(str(d.span), d.code, d.message) for d in elsewhere]}"
    )
