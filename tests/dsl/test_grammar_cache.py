"""The analysed parser's cache between processes: JSON, never pickle. A fresh process with
pickle's loaders made to fail still parses, from a cache file that is plain JSON; the
loaded parser parses every example, golden input and check file exactly as a freshly built
one does (trees, and the position and expectations of each syntax error); a damaged or
foreign cache file is a miss that is rebuilt, never an error or code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark

from agentc.grammar import _OPTIONS, GRAMMAR_PATH, _WholeWords
from agentc.grammar.jsoncache import CacheMiss, load, save

ROOT = Path(__file__).resolve().parents[2]
NO_PICKLE = (
    "import pickle\n"
    "def refuse(*a, **k): raise AssertionError('pickle used')\n"
    "pickle.load = pickle.loads = pickle.dump = pickle.dumps = refuse\n"
    "from agentc.dsl.parse import parse\n"
    # a syntax error: Lark's own parser reports it (a file that parses needs only the tables)
    "print(parse('agent a { }', 'x').ok, parse('agent a {', 'y').ok)\n"
)


def _fresh(cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", NO_PICKLE],
        env={**os.environ, "XDG_CACHE_HOME": str(cache)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_fresh_process_writes_and_reads_the_cache_without_pickle(tmp_path: Path) -> None:
    for _ in range(2):  # the first writes the cache, the second reads it
        done = _fresh(tmp_path)
        assert done.stdout.strip() == "True False", done.stderr
    [cached] = (tmp_path / "agentc").glob("grammar-*.json")
    whole = json.loads(cached.read_text(encoding="utf-8"))
    assert whole["format"] == 1 and whole["data"]["options"]["parser"] == "lalr"
    assert not list((tmp_path / "agentc").glob("*.lark-cache"))  # Lark's pickle cache


def _outcome(parser: Lark, text: str) -> object:
    try:
        return parser.parse(text)
    except Exception as exc:  # a syntax error: where, and what was expected there
        expected = sorted(getattr(exc, "expected", None) or ())
        return (
            type(exc).__name__,
            getattr(exc, "line", None),
            getattr(exc, "column", None),
            expected,
        )


def test_the_loaded_parser_parses_as_a_freshly_built_one(tmp_path: Path) -> None:
    built = Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), **_OPTIONS)
    save(built, tmp_path / "g.json")
    loaded = load(tmp_path / "g.json", postlex=_WholeWords())
    files = [
        *ROOT.glob("examples/**/*.agent"),
        *ROOT.glob("tests/golden/*/input.agent"),
        *ROOT.glob("tests/checks/*.agent"),
    ]
    assert len(files) > 50
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert _outcome(loaded, text) == _outcome(built, text), path


@pytest.mark.parametrize(
    "text",
    ["", "not json", "[1, 2]", '{"format": 99}', '{"format": 1, "data": {}, "memo": {}}'],
)
def test_a_damaged_or_foreign_cache_file_is_a_miss(tmp_path: Path, text: str) -> None:
    path = tmp_path / "g.json"
    path.write_text(text)
    with pytest.raises(CacheMiss):
        load(path, postlex=_WholeWords())


def test_a_damaged_cache_file_is_rebuilt_by_the_next_process(tmp_path: Path) -> None:
    assert _fresh(tmp_path).returncode == 0
    [cached] = (tmp_path / "agentc").glob("grammar-*.json")
    cached.write_text('{"format": 1, "data": {"options": 3}, "memo": {}}')
    done = _fresh(tmp_path)
    assert done.stdout.strip() == "True False" and done.stderr == ""
    assert json.loads(cached.read_text())["data"]["options"]["parser"] == "lalr"
