"""The grammar loader: one cached parser per process, cache outside the package."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

from lark import Lark, logger

from agentc.grammar import _OPTIONS, GRAMMAR_PATH, cache_dir, load_parser


def test_load_parser_is_cached_per_process():
    assert load_parser() is load_parser()


def test_grammar_has_no_conflicts(caplog):
    logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            Lark(GRAMMAR_PATH.read_text(), debug=True, **_OPTIONS)
    finally:
        logger.setLevel(logging.CRITICAL)
    assert not [r for r in caplog.records if "conflict" in r.getMessage().lower()]


def _fresh_process(env: dict[str, str]) -> subprocess.CompletedProcess:
    code = "from agentc.dsl.parse import parse; r = parse('agent a { }', 'x'); print(r.ok)"
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cache_goes_to_xdg_cache_home(tmp_path):
    done = _fresh_process({"XDG_CACHE_HOME": str(tmp_path)})
    assert done.stdout.strip() == "True", done.stderr
    assert list((tmp_path / "agentc").glob("grammar-*.json"))
    assert not list(GRAMMAR_PATH.parent.glob("grammar-*"))  # never inside the package


def test_unwritable_cache_dir_falls_back_quietly(tmp_path):
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("")
    done = _fresh_process({"XDG_CACHE_HOME": str(blocker)})
    assert done.stdout.strip() == "True" and done.stderr == ""


def test_cache_dir_honours_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "agentc"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir().parts[-2:] == (".cache", "agentc")


def test_language_doc_carries_the_current_grammar():
    doc = (GRAMMAR_PATH.parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
    reference = doc[doc.index("```lark\n") + len("```lark\n") : doc.rindex("```")]
    assert reference == GRAMMAR_PATH.read_text(encoding="utf-8"), (
        "docs/language.md's grammar reference is stale: paste grammar/agent.lark into it"
    )
