"""Property: any text gives a ParseResult whose diagnostics lie inside the file.

Random text and random mutations (deletions, insertions of tokens, brackets and quotes,
truncations) of valid snippets never raise; every diagnostic's spans have offsets in
[0, len(text)], start ≤ end, and line/column agreeing with the offset. Derandomized and
database-less so CI runs are reproducible: 1,000 cases in every run, and 10,000 in the
`slow` test (`pytest -m slow`, or `AGENTC_FULL_PROPERTY=1` with the rest; see conftest.py).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentc.dsl.diagnostics import Severity
from agentc.dsl.parse import ParseResult, parse
from agentc.dsl.report import render_human, render_json, render_short
from agentc.dsl.source import Span

SNIPPETS = (
    'agentc 1\nuse "./tools.py" as tools\n',
    'schema Answer "doc" {\n  value: int\n  tags: list[str] = []\n  mode: "a" | "b" = "a"\n}\n',
    'agent calc {\n  model "openai:gpt-4o-mini" { temperature: 0 }\n  prompt """\n    Hi.\n  """\n'
    '  tools [tools.add, { type: "web_search" }]\n}\n',
    "agent a {\n  output Answer via tool { handle_errors: true }\n"
    "  middleware { model_call_limit { run: 10 } hooks.log }\n}\n",
    "agent a { limits { steps: 25, step_timeout: 30s } interrupt before tools "
    'checkpoint sqlite("x.db") }\n',
    "graph g {\n  state { messages: messages, log: list[str] = [] reduce append }\n"
    '  node w = model("m", prompt: "p") { timeout: 500ms }\n  edge START -> w\n}\n',
    'graph g {\n  edge a -> b when x != "" and not y or z in [1, -2.5]\n  edge a -> c otherwise\n'
    "  edge b -> [c, d]\n}\n",
    "graph g {\n  route act by tools_condition { tools -> act, end -> END }\n"
    "  hook before w = python(t.log)\n}\n",
    'middleware m(run: int? = none "doc", ...) = "pkg:M" { hooks: [before_model] }\n'
    'router r() = "pkg:r"\n',
)

FRAGMENTS = (
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    '"',
    '"""',
    "#",
    "\n",
    "->",
    "=",
    ":",
    ",",
    ".",
    "...",
    "agent",
    "graph",
    "edge",
    "node",
    "when",
    "otherwise",
    "none",
    "1",
    "30x",
    "2m",
    "-",
    "not",
    "\\",
    "\x00",
    "é",
    "世",
    "\t",
    " ",
)


@st.composite
def mutated(draw) -> str:
    text = draw(st.sampled_from(SNIPPETS))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(("insert", "delete", "truncate")))
        if kind == "insert":
            text = text[:at] + draw(st.sampled_from(FRAGMENTS)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        else:
            text = text[:at]
    return text


ANY_TEXT = st.one_of(
    mutated(),
    st.text(max_size=40),
    st.text(alphabet='{}[]()"#:=,.-> \nagentdgraph0123', max_size=40),
)


def _check_span(span: Span, result: ParseResult) -> None:
    size = len(result.source.text)
    assert span.file == result.source.name
    assert 0 <= span.start.offset <= span.end.offset <= size
    assert result.source.pos(span.start.offset) == span.start
    assert result.source.pos(span.end.offset) == span.end


def _located(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


@_located(1_000)
@given(ANY_TEXT)
def test_any_text_gives_located_diagnostics(text: str) -> None:
    _check_located(text)


@pytest.mark.slow
@_located(10_000)
@given(ANY_TEXT)
def test_any_text_gives_located_diagnostics_full(text: str) -> None:
    _check_located(text)


def _check_located(text: str) -> None:
    result = parse(text, "p.agent")
    assert isinstance(result, ParseResult)
    has_error = any(d.severity is Severity.ERROR for d in result.diagnostics)
    assert (result.module is None) == has_error
    for d in result.diagnostics:
        _check_span(d.span, result)
        for label in d.secondary:
            _check_span(label.span, result)
    if result.module is not None:
        _check_span(result.module.span, result)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(mutated())
def test_renderers_accept_every_parse_result(text: str) -> None:
    result = parse(text, "p.agent")
    sources = {"p.agent": result.source}
    render_human(result.diagnostics, sources)
    render_human(result.diagnostics, sources, color=True, width=20)
    render_short(result.diagnostics)
    render_json(result.diagnostics, sources)
