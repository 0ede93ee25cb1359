"""Diagnostic renderers: human (snapshot), short, JSON (schema and byte offsets)."""

from __future__ import annotations

import json

from agentc.dsl.diagnostics import Label, error, warning
from agentc.dsl.parse import parse
from agentc.dsl.report import render_human, render_json, render_short
from agentc.dsl.source import SourceFile

TEXT = (
    "graph support {\n  node answer = python(t.a)\n  node escalate = python(t.p)\n"
    "  edge START -> answr\n}\n"
)
SRC = SourceFile("examples/support.agent", TEXT)


def _span(word: str, length: int | None = None):
    at = TEXT.index(word)
    return SRC.span(at, at + (length or len(word)))


UNKNOWN = error(
    "unknown-node",
    "edge target `answr` is not a node in graph `support`",
    _span("answr"),
    "unknown node",
    secondary=[Label(_span("answer"), "a similar name is declared here")],
    help="did you mean `answer`?",
)
UNREACHABLE = warning(
    "unreachable-node",
    "node `escalate` can never run",
    _span("escalate"),
    "no edge or branch reaches this node from START",
    notes=["a fact"],
    help="add an edge, or remove the node",
)

HUMAN = """\
error[unknown-node]: edge target `answr` is not a node in graph `support`
 --> examples/support.agent:4:17
  |
2 |   node answer = python(t.a)
  |        ------ a similar name is declared here
...
4 |   edge START -> answr
  |                 ^^^^^ unknown node
  |
  = help: did you mean `answer`?

warning[unreachable-node]: node `escalate` can never run
 --> examples/support.agent:3:8
  |
3 |   node escalate = python(t.p)
  |        ^^^^^^^^ no edge or branch reaches this node from START
  |
  = note: a fact
  = help: add an edge, or remove the node

error: `examples/support.agent` has 1 error and 1 warning
"""


def test_human_snapshot():
    assert render_human([UNKNOWN, UNREACHABLE], {SRC.name: SRC}) == HUMAN


def test_human_without_colour_has_no_escapes_and_with_colour_has_them():
    assert "\x1b[" not in render_human([UNKNOWN], {SRC.name: SRC})
    assert "\x1b[1;31m" in render_human([UNKNOWN], {SRC.name: SRC}, color=True)


def test_human_two_digit_gutter_and_multiline_span():
    text = "\n" * 11 + 'agent a {\n  prompt "x"\n}\n'
    src = SourceFile("f.agent", text)
    start = text.index("agent")
    d = error("x-code", "whole agent", src.span(start, len(text) - 1), "here")
    assert render_human([d], {"f.agent": src}) == (
        "error[x-code]: whole agent\n"
        "  --> f.agent:12:1\n"
        "   |\n"
        "12 | agent a {\n"
        "   | ^^^^^^^^^ here\n"
        "\n"
        "error: `f.agent` has 1 error\n"
    )


def test_zero_width_span_gets_one_caret_and_missing_source_no_snippet():
    result = parse('agent a {\n  prompt "x"\n', "u.agent")
    out = render_human(result.diagnostics, {"u.agent": result.source})
    assert '2 |   prompt "x"\n  |             ^ expected `}` here' in out
    assert render_human(result.diagnostics, {}).splitlines()[1] == " --> u.agent:2:13"


def test_wide_characters_and_tabs_keep_carets_aligned():
    text = 'agent a {\tprompt "世界" x }'
    src = SourceFile("w.agent", text)
    at = text.index("x }")
    out = render_human([error("c", "m", src.span(at, at + 1), "x")], {"w.agent": src})
    line, carets = out.splitlines()[3:5]
    assert line.index(" x }") + 1 + 2 == carets.index("^")  # "世界" is four columns wide


def test_short_form():
    assert render_short([UNKNOWN, UNREACHABLE]) == (
        "examples/support.agent:4:17: error[unknown-node]: edge target `answr` is not a node "
        "in graph `support`\n"
        "examples/support.agent:3:8: warning[unreachable-node]: node `escalate` can never run\n"
    )


def test_json_schema_and_byte_offsets():
    text = 'agent a {\n  prompt "é"\n'
    result = parse(text, "j.agent")
    data = render_json(result.diagnostics, {"j.agent": result.source})
    json.dumps(data)  # ready for json.dumps as it is
    assert data["version"] == 1 and data["summary"] == {"errors": 1, "warnings": 0}
    (d,) = data["diagnostics"]
    assert set(d) == {
        "code",
        "severity",
        "message",
        "file",
        "span",
        "label",
        "secondary",
        "notes",
        "help",
    }
    start = d["span"]["start"]
    assert start["offset"] == text.index('"é"') + 3 and start["byte"] == start["offset"] + 1
    assert d["secondary"][0]["span"]["start"] == {"line": 1, "col": 9, "offset": 8, "byte": 8}


def test_summary_counts_per_file_and_plurals():
    other = SourceFile("b.agent", "x")
    d = error("c", "m", other.span(0, 1))
    out = render_human([UNKNOWN, UNKNOWN, d, UNREACHABLE], {SRC.name: SRC})
    assert out.endswith(
        "error: `examples/support.agent` has 2 errors and 1 warning\nerror: `b.agent` has 1 error\n"
    )
    assert render_human([], {}) == ""
