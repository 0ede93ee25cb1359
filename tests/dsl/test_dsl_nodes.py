"""`@node` AST classes behave as frozen, slotted dataclasses; the AST JSON cache
round-trips and refuses anything that is not an AST it wrote."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pytest

from agentc.dsl import ast
from agentc.dsl.astjson import cached_parse, decode, encode
from agentc.dsl.parse import parse
from agentc.dsl.source import SourceFile

ROOT = Path(__file__).resolve().parents[2]


def test_node_is_a_frozen_slotted_dataclass():
    lit = ast.StringLit(value="v", span=None)
    assert dataclasses.is_dataclass(lit) and not hasattr(lit, "__dict__")
    assert [f.name for f in dataclasses.fields(lit)] == ["value", "span", "triple"]
    same = ast.StringLit(value="v", span=None, triple=False)
    assert lit == same and hash(lit) == hash(ast.StringLit(value="v", span=None))
    assert lit != ast.StringLit(value="w", span=None) and lit != ast.Name(text="v", span=None)
    assert repr(lit) == "StringLit(value='v', span=None, triple=False)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        lit.value = "w"
    with pytest.raises(dataclasses.FrozenInstanceError):
        del lit.value
    assert dataclasses.replace(lit, value="w").value == "w"
    assert copy.deepcopy(lit) == lit
    assert ast.StringLit.__match_args__ == ("value", "span", "triple")
    with pytest.raises(TypeError):
        ast.Name(text="x")  # a missing field
    with pytest.raises(TypeError):
        ast.StringLit("v", None)  # keyword-only, as type checkers are told


def _agent_files():
    """Every file that parses (a file with syntax errors has no AST to round-trip)."""
    files = sorted(
        [
            ROOT / "stdlib" / "prelude.agent",
            *ROOT.glob("examples/*.agent"),
            *ROOT.glob("tests/golden/*/input.agent"),
        ]
    )
    return [f for f in files if parse(f.read_text(encoding="utf-8"), "x.agent").module]


@pytest.mark.parametrize("path", _agent_files(), ids=lambda p: p.parent.name + "/" + p.name)
def test_ast_json_round_trips(path):
    text = path.read_text(encoding="utf-8")
    module = parse(text, "x.agent").module
    assert decode(encode(module), SourceFile("x.agent", text)) == module


@pytest.mark.parametrize(
    "junk",
    [
        "",
        "{",
        "[]",
        '{"@": "Nope", "a": []}',
        '{"@": "Module", "a": [null, [], {"s": 0, "e": 99}]}',
        '{"@": "Name", "a": ["x"]}',
        '{"s": 0, "e": 0}',
    ],
)
def test_decode_refuses_what_is_not_an_ast(junk):
    assert decode(junk, SourceFile("x.agent", "agent a {}")) is None


def test_cached_parse_writes_then_reads_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = 'agent a {\n  prompt "x"\n}\n'
    calls = []

    def counting(t, name):
        calls.append(name)
        return parse(t, name)

    first = cached_parse(text, "p.agent", "test", counting)
    second = cached_parse(text, "p.agent", "test", counting)
    assert calls == ["p.agent"] and first[0] == second[0] is not None
    (cache,) = (tmp_path / "agentc").glob("ast-*.json")
    cache.write_text("not json")  # a corrupt cache is ignored, never trusted
    assert cached_parse(text, "p.agent", "test", counting)[0] == first[0]
    assert len(calls) == 2
    cached_parse(text, "p.agent", "other-version", counting)
    assert len(calls) == 3  # the version is part of the key


def test_files_with_errors_are_never_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    module, _, diagnostics = cached_parse("agent {", "p.agent", "test", parse)
    assert module is None and diagnostics
    assert not list(tmp_path.rglob("ast-*.json"))
