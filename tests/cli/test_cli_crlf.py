"""`agentc check --format json` on a CRLF file: `byte` offsets are offsets into the file."""

from __future__ import annotations

import json

from agentc.cli import main


def test_json_byte_offsets_of_a_crlf_file_are_the_real_offsets(tmp_path, capsys):
    text = 'agentc 1\r\n\r\nagent a {\r\n  model "scripted"\r\n  bogus 1\r\n}\r\n'
    path = tmp_path / "crlf.agent"
    path.write_bytes(text.encode())
    main(["check", "--format", "json", str(path)])
    report = json.loads(capsys.readouterr().out)
    found = json.dumps(report)
    spans = [d for d in _walk(report) if isinstance(d, dict) and "byte" in d]
    assert spans, found
    raw = path.read_bytes()
    for span in spans:
        line = span.get("line")
        col = span.get("col", span.get("column"))
        assert line is not None and col is not None, span
        start = len(b"".join(raw.split(b"\n")[: line - 1])) + (line - 1)  # every "\n" kept
        assert span["byte"] == start + col - 1, (span, raw)


def _walk(value):
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v)
