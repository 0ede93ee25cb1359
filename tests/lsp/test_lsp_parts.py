"""The language server's parts on their own: positions in UTF-16, names kept while a line
is broken, semantic token classes, the quick fixes' edits. The session tests
(test_lsp_session.py) drive the same code through a real client."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("lsprotocol", reason="lsprotocol is not installed")

from lsprotocol import types as lsp  # noqa: E402

from agentc.lsp import complete, hover, symbols  # noqa: E402
from agentc.lsp.analysis import analyse  # noqa: E402
from agentc.lsp.positions import offset_of, span_range  # noqa: E402

GRAPH = "graph g {\n  node a = python(m.f)\n  edge START -> a\n  edge a -> END\n}\n"


def test_positions_count_utf16_units(tmp_path: Path) -> None:
    text = 'agent a {\n  prompt "🙂 hi" model "openai:gpt-4o-mini"\n}\n'
    a = analyse((tmp_path / "a.agent").as_uri(), text)
    at = text.index("model")
    where = span_range(a.source, a.source.span(at, at + 5))
    assert where.start == lsp.Position(line=1, character=text.split("\n")[1].index("model") + 1)
    assert offset_of(a.source, where.start) == at


def test_names_stay_known_while_a_line_is_broken(tmp_path: Path) -> None:
    uri = (tmp_path / "g.agent").as_uri()
    broken = GRAPH.replace("  edge a -> END\n", "  edge a -> END\n  edge a ->\n")
    a = analyse(uri, broken)
    assert a.result.program is None  # the file does not parse ...
    at = broken.index("edge a ->\n") + len("edge a ->")
    labels = [i.label for i in complete.complete(a, at)]
    assert "a" in labels and "END" in labels  # ... but its nodes are still offered


def test_semantic_tokens_mark_declarations(tmp_path: Path) -> None:
    a = analyse((tmp_path / "g.agent").as_uri(), GRAPH)
    data = symbols.semantic_tokens(a)
    decoded, line, char = [], 0, 0
    for i in range(0, len(data), 5):
        d_line, d_char, length, kind, mods = data[i : i + 5]
        line, char = line + d_line, (char + d_char if d_line == 0 else d_char)
        decoded.append((line, char, length, symbols.TOKEN_TYPES[kind], mods))
    assert (1, 7, 1, "function", 1) in decoded  # `node a`: a node, declared here
    assert (2, 16, 1, "function", 0) in decoded  # `-> a`: a use of it
    assert (0, 0, 5, "keyword", 0) in decoded  # `graph`


def test_quick_fixes_carry_the_exact_edit(tmp_path: Path) -> None:
    text = GRAPH.replace("edge a -> END", "edge aa -> END")
    a = analyse((tmp_path / "g.agent").as_uri(), text)
    [fix] = a.fixes()
    assert text[fix.edit.start : fix.edit.end] == "aa" and fix.edit.new_text == "a"


TESTS = 'test "adds" {\n  input "what is 2+3?"\n  expect \n  decide \n  expect answer \n  \n}\n'


def test_test_blocks_complete_their_own_words(tmp_path: Path) -> None:
    a = analyse((tmp_path / "a.test.agent").as_uri(), TESTS)

    def labels(marker: str) -> set[str]:
        at = TESTS.index(marker) + len(marker)
        return {i.label for i in complete.complete(a, at)}

    assert {"answer", "tools", "route", "interrupt", "usage"} <= labels("expect ")
    assert {"approve", "edit", "reject", "respond"} <= labels("decide ")
    assert {"contains", "matches", "at_most"} <= labels("expect answer ")
    statements = labels("expect answer \n  ")
    assert {"input", "expect", "decide", "replay"} <= statements
    assert "tools" not in statements and "node" not in statements  # an agent's words are not


def test_test_blocks_show_in_the_outline(tmp_path: Path) -> None:
    text = (
        'test "adds" {\n  input "hi"\n  expect answer "5"\n}\n\ntest "second" {\n  input "x"\n}\n'
    )
    a = analyse((tmp_path / "a.test.agent").as_uri(), text)
    outline = symbols.document_symbols(a)
    assert [(s.name, s.detail) for s in outline] == [("adds", "test"), ("second", "test")]
    assert [c.name for c in outline[0].children or []] == ["answer"]
    assert outline[0].selection_range.start == lsp.Position(line=0, character=5)
    said = hover.hover(a, text.index("expect") + 2) or ""
    assert said.startswith("`expect answer|tools|tool|route|state|output|interrupt|usage VALUE`")
