"""`unreadable-file`: the one code a check file cannot hold (the file itself is the problem)."""

from __future__ import annotations

from agentc.compiler.pipeline import compile_file
from agentc.dsl.codes import Code
from agentc.dsl.parse import parse_file


def test_missing_file_is_a_diagnostic(tmp_path):
    result = parse_file(tmp_path / "missing.agent")
    (d,) = result.diagnostics
    assert d.code is Code.UNREADABLE and "cannot read" in d.message


def test_not_utf8_points_at_the_byte(tmp_path):
    path = tmp_path / "latin1.agent"
    path.write_bytes(b'agent a { prompt "caf\xe9" }\n')
    (d,) = parse_file(path).diagnostics
    assert d.code is Code.UNREADABLE and d.span.start.col == 22


def test_compile_file_reports_it_too(tmp_path):
    (d,) = compile_file(tmp_path / "missing.agent").diagnostics
    assert d.code is Code.UNREADABLE
