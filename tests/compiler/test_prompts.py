"""Prompt templates of model nodes: parts, and placeholders located in the file."""

from __future__ import annotations

import agentc.ir as ir
from agentc.compiler.prompts import parse_template
from agentc.dsl import ast
from agentc.dsl.codes import Code
from agentc.dsl.parse import parse


def _template(literal: str):
    """The template of `x LITERAL` in an agent (the literal as written in a file)."""
    text = f"agent a {{ x {literal} }}\n"
    result = parse(text, "t.agent")
    assert result.module is not None, [d.message for d in result.diagnostics]
    (agent,) = result.module.items
    (stmt,) = agent.body
    assert isinstance(stmt.value, ast.StringLit)
    return parse_template(stmt.value, result.source), text


def _cols(template) -> list[tuple[int, int, int]]:
    return [(p.span.start.line, p.span.start.col, p.span.end.col) for p in template.placeholders]


def test_fields_and_literal_braces_alternate_in_parts():
    t, _ = _template('"Write {topic} like {{this}} for {user.name}"')
    assert t.problems == []
    assert t.parts == [
        "Write ",
        ir.TemplateField(name="topic"),
        " like {this} for ",
        ir.TemplateField(name="user", path=["name"]),
    ]


def test_a_static_text_is_one_part():
    t, _ = _template('"You are helpful."')
    assert t.parts == ["You are helpful."] and t.placeholders == []


def test_placeholders_point_at_their_column():
    t, text = _template('"Write {topic} and {user.name}"')
    first, second = t.placeholders
    assert text[first.span.start.offset : first.span.end.offset] == "{topic}"
    assert text[second.part_spans[1].start.offset : second.part_spans[1].end.offset] == "name"


def test_escapes_before_a_placeholder_do_not_shift_it():
    t, text = _template(r'"Tab\t\u00e9 \"q\" {topic}"')
    (p,) = t.placeholders
    assert text[p.span.start.offset : p.span.end.offset] == "{topic}"
    assert text[p.part_spans[0].start.offset : p.part_spans[0].end.offset] == "topic"


def test_a_dedented_long_string_is_located_line_by_line():
    t, text = _template('"""\n      One {a}\n        two {b}\n      """')
    assert t.parts[1] == ir.TemplateField(name="a")
    assert t.parts[2] == "\n  two "
    assert [text[p.span.start.offset : p.span.end.offset] for p in t.placeholders] == [
        "{a}",
        "{b}",
    ]
    assert _cols(t) == [(2, 11, 14), (3, 13, 16)]


def test_a_brace_made_by_an_escape_points_at_the_whole_string():
    t, _ = _template(r'"\u007b {topic}"')
    assert [d.code for d in t.problems] == [Code.BAD_TEMPLATE]
    assert t.problems[0].span.start.col == 13  # the string's opening quote


def test_malformed_placeholders_are_each_reported():
    t, text = _template('"{0} {x!r} {} {open and } and }"')
    messages = [d.message for d in t.problems]
    assert messages == [
        "`{0}` is not a placeholder",
        "`{x!r}` is not a placeholder",
        "an empty placeholder `{}`",
        "`{open and }` is not a placeholder",
        "`}` closes no placeholder",
    ]
    last = t.problems[-1].span
    assert text[last.start.offset : last.end.offset] == "}"


def test_an_unclosed_brace_is_reported_at_it():
    t, text = _template('"About {topic"')
    (d,) = t.problems
    assert d.message == "`{` is never closed"
    assert text[d.span.start.offset : d.span.end.offset] == "{"
