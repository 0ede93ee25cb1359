"""The parse tables a check drives (`dsl/tables.py`), kept between processes as JSON: read
back, they are exactly the tables read from Lark's parser; a fresh process checking a file
that parses reads them and never imports Lark; a damaged file is a miss that is rebuilt,
never an error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from agentc.dsl import reduce
from agentc.dsl.tables import load_tables
from agentc.grammar import load_parser

PARSE = (
    "import sys\n"
    "from agentc.dsl.parse import parse\n"
    "print(parse('agentc 1\\ngraph g {\\n  edge START -> END\\n}\\n', 'x').ok,"
    " 'lark' in sys.modules)\n"
)


def _fresh(cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PARSE],
        env={**os.environ, "XDG_CACHE_HOME": str(cache)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_json_tables_are_the_tables_read_from_lark() -> None:
    direct = reduce.tables_of(load_parser())
    assert json.loads(json.dumps(direct)) == direct  # plain data: JSON keeps every value
    cached = load_tables()
    again = reduce.Tables(direct)
    assert cached.shapes == again.shapes and (cached.start, cached.end) == (again.start, again.end)
    for state in map(int, direct["states"]):
        assert cached.actions[state] == again.actions[state], state
        c, a = cached.scans[state], again.scans[state]
        assert c.ignore == a.ignore and (c.keywords is None) == (a.keywords is None)
        assert c.match.__self__.pattern == a.match.__self__.pattern  # type: ignore[attr-defined]


def test_a_fresh_process_writes_the_tables_then_parses_without_lark(tmp_path: Path) -> None:
    first = _fresh(tmp_path)  # no tables yet: read from Lark's parser, and written
    assert first.stdout.split() == ["True", "True"], first.stderr
    [tables] = (tmp_path / "agentc").glob("tables-*.json")
    digest, _, payload = tables.read_bytes().partition(b"\n")
    assert json.loads(payload)["format"] == 1 and len(digest) == 64
    second = _fresh(tmp_path)
    assert second.stdout.split() == ["True", "False"], second.stderr  # Lark never imported


def test_a_damaged_tables_file_is_rebuilt_by_the_next_process(tmp_path: Path) -> None:
    assert _fresh(tmp_path).returncode == 0
    [tables] = (tmp_path / "agentc").glob("tables-*.json")
    good = tables.read_bytes()
    for damaged in (b"", b"not json", good[:-10], good.replace(b'"start"', b'"stort"')):
        tables.write_bytes(damaged)
        done = _fresh(tmp_path)
        assert done.stdout.split() == ["True", "True"] and done.stderr == "", done.stderr
        assert tables.read_bytes() == good
