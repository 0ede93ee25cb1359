"""Syntax errors: words a person knows, located, several per file, never an exception."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from lark.exceptions import UnexpectedInput

from agentc.dsl.build import dedent
from agentc.dsl.codes import Code
from agentc.dsl.parse import parse
from agentc.dsl.recovery import MAX_SYNTAX_ERRORS
from agentc.dsl.syntax_errors import SOFT_KEYWORDS
from agentc.grammar import GRAMMAR_PATH

CHECKS = Path(__file__).resolve().parents[1] / "checks"
MARKER = re.compile(r'###\s*\[([a-z0-9-]+)\](?:\s*"([^"]*)")?')


def diags(text: str):
    result = parse(text, "t.agent")
    assert result.module is None
    return result.diagnostics


def one(text: str):
    (d,) = diags(text)
    return d


def where(d) -> tuple[int, int]:
    return d.span.start.line, d.span.start.col


def test_unclosed_block_names_the_opener_with_a_secondary_label():
    d = one('agent calc {\n  prompt "x"\n')
    assert d.code == "unclosed-block"
    assert d.message == "expected `}` to close the `agent` block opened at 1:12"
    assert where(d) == (2, 13)
    (opener,) = d.secondary
    assert where(opener) == (1, 12) and opener.text == "`agent` block opened here"


def test_unclosed_list_and_paren():
    assert one("agent a { tools [a, b\n}\n").code in ("unclosed-block", "syntax")
    d = one("graph g { node n = python(t.f\n")
    assert d.code == "unclosed-block" and "`(`" in d.message


def test_missing_arrow():
    d = one("graph g {\n  edge a b\n}\n")
    assert d.message == "expected `->`, found `b`" and where(d) == (2, 10)


def test_missing_node_name_after_edge():
    d = one("graph g {\n  edge -> b\n}\n")
    assert d.message == "expected a node name after `edge`"
    assert d.primary.text == "found `->`"


def test_bad_duration_names_the_whole_word():
    d = one("agent a { limits { step_timeout: 30x } }")
    assert d.code == "bad-literal" and "`30x`" in d.message
    assert d.span.end.col - d.span.start.col == 3


def test_unterminated_string_spans_to_the_end_of_the_line():
    d = one('agent a {\n  prompt "hello\n}\n')
    assert d.code == "unterminated-string" and d.message == "unterminated string"
    assert where(d) == (2, 10) and d.span.end.col == 16


def test_unterminated_triple_quoted_string():
    d = one('agent a {\n  prompt """hello\n  world\n}\n')
    assert d.code == "unterminated-string" and "triple-quoted" in d.message
    assert where(d) == (2, 10)


def test_stray_equals_in_a_map():
    d = one("agent a { limits { steps = 25 } }")
    assert d.message.startswith("unexpected `=`") and d.help == "write `key: value`"


def test_missing_piece_at_end_of_line_points_after_the_last_token():
    d = one("graph g {\n  edge a -> b when\n}\n")
    assert d.message == "expected a condition after `when`" and where(d) == (2, 19)


def test_bad_type():
    d = one("schema S {\n  tags: list[\n}\n")
    assert d.message == "expected a type, found `}`"


def test_unmatched_closer():
    d = one("agent a { }\n}\n")
    assert d.message == "unmatched `}`" and where(d) == (2, 1)


def test_keyword_prefix_of_a_word_is_not_split():
    d = one("agents x { }")
    assert "`agents`" in d.message


def test_unknown_escape():
    d = one('agent a { prompt "a\\qb" }')
    assert d.code == "bad-literal" and d.message == "unknown escape `\\q` in a string"
    assert d.span.start.col == 20


def test_several_errors_one_per_declaration():
    text = (
        'agent one {\n  prompt "x"\n\n'
        "agent two {\n  prompt = 1\n}\n\n"
        "graph three {\n  edge a b\n}\n\n"
        "graph fine {\n  edge START -> END\n}\n"
    )
    found = diags(text)
    assert [(d.code, d.span.start.line) for d in found] == [
        ("unclosed-block", 2),
        ("syntax", 5),
        ("syntax", 9),
    ]


def test_messages_never_name_lark_tokens():
    for text in [
        "agent a { prompt }",
        "graph g { edge a -> }",
        "schema S { x: }",
        "use",
        "agent a { model { } ( }",
        "graph g { route a by { } }",
    ]:
        for d in diags(text):
            assert not re.search(
                r"\b(LBRACE|RBRACE|NAME|STRING|__ANON|\$END|LSQB)\b", d.message + " ".join(d.notes)
            ), d.message


def test_all_codes_are_registered():
    for code in ("syntax", "unclosed-block", "unterminated-string", "bad-literal"):
        assert Code(code).summary


def test_soft_keywords_match_the_grammar():
    grammar = GRAMMAR_PATH.read_text()
    rule = grammar[grammar.index("!name:") :]
    rule = rule[: rule.index("\n\n")]
    assert set(re.findall(r'"([a-z]+)"', rule)) == SOFT_KEYWORDS


@pytest.mark.parametrize(
    "text",
    [
        "x\n   y\n  z",
        "  a\n  b",
        "\n\n  first\n    second\n\n",
        "one",
        "",
        "\tt\n\tu",
    ],
)
def test_dedent_matches_inspect_cleandoc(text):
    assert dedent(text) == inspect.cleandoc(text)


@pytest.mark.parametrize(
    "text",
    [
        "\x00\x01\x02",
        "{" * 5000,
        "[" * 3000 + "]" * 3000,
        "agent a { x " + "(" * 2000 + "1" + ")" * 2000 + " }",
        "agent a { x " + "-" * 3000 + "1 }",
        "agent a { x " + "not " * 3000 + "a }",
        "\ud7ff\ufeff",
    ],
)
def test_hostile_input_gives_a_result(text):
    result = parse(text, "t.agent")
    for d in result.diagnostics:
        assert 0 <= d.span.start.offset <= d.span.end.offset <= len(text)


# ---------------------------------------------------------------- the chunked check files


def _chunks():
    for path in sorted(CHECKS.glob("syntax_*.agent")):
        lines = path.read_text(encoding="utf-8").split("\n")
        start = 0
        for i, line in enumerate(lines + ["---"]):
            if line.strip() == "---":
                yield pytest.param(start, lines[start:i], id=f"{path.name}:{start + 1}")
                start = i + 1


@pytest.mark.parametrize("offset,lines", list(_chunks()))
def test_syntax_check_chunks(offset, lines):
    """The same contract as tests/compiler/test_checks.py, against the parser alone."""
    text = "\n" * offset + "\n".join(lines)
    want = [
        (offset + n, m.group(1), m.group(2))
        for n, line in enumerate(lines, 1)
        for m in MARKER.finditer(line)
    ]
    got = [(d.span.start.line, d.code, d.message) for d in parse(text, "c.agent").diagnostics]
    missing = [
        w for w in want if not any(g[:2] == w[:2] and (w[2] is None or w[2] in g[2]) for g in got)
    ]
    unexpected = [g for g in got if not any(g[:2] == w[:2] for w in want)]
    assert not missing and not unexpected, f"missing {missing}, unexpected {unexpected}"


def test_there_are_enough_syntax_chunks():
    assert len(list(_chunks())) >= 12


# ---------------------------------------------------------------- recovery inside blocks


def lines_codes(text: str) -> list[tuple[int, str]]:
    return [(d.span.start.line, d.code) for d in diags(text)]


def test_each_broken_statement_of_one_agent_gets_its_own_error():
    text = (
        'agent a {\n  prompt = "x"\n  tools [t.a t.b]\n  model "m" { temperature = 1 }\n'
        "  checkpoint memory\n}\n"
    )
    assert lines_codes(text) == [(2, "syntax"), (3, "syntax"), (4, "syntax")]


def test_recovery_in_nested_state_block_and_graph():
    text = (
        "graph g {\n  state {\n    x: int =\n    y: str\n  }\n  edge START END\n  edge a -> b\n}\n"
    )
    found = diags(text)
    # `y: str` is the rest of the unfinished `x: int =`, not a mistake of its own.
    assert [(d.span.start.line, d.message) for d in found] == [
        (3, "expected a value after `=`"),
        (6, "expected `->`, found `END`"),
    ]


def test_a_token_that_starts_a_bad_statement_is_not_blamed_on_the_line_before():
    found = diags('agent a {\n  prompt "x"\n  = 5\n  tools [y z]\n}\n')
    assert [where(d) for d in found] == [(3, 3), (4, 12)]


def test_literal_errors_are_reported_beside_syntax_errors():
    found = diags('agent a {\n  prompt = "x"\n  limits { step_timeout: 30x }\n}\n')
    assert [d.code for d in found] == ["syntax", "bad-literal"]


def test_no_recovery_on_one_line_or_at_the_end_of_the_file():
    assert len(diags('agent a { prompt = "x" tools [a b] }\n')) == 1
    assert len(diags('agent a {\n  prompt "x"\n')) == 1


def test_recovery_works_in_every_declaration():
    text = "agent a {\n  prompt = 1\n  tools [a b]\n}\n\ngraph g {\n  edge a b\n  edge -> c\n}\n"
    assert lines_codes(text) == [(2, "syntax"), (3, "syntax"), (7, "syntax"), (8, "syntax")]


def test_recovery_is_bounded():
    text = "agent a {\n" + "  prompt = 1\n" * 100 + "}\n"
    assert len(diags(text)) == MAX_SYNTAX_ERRORS


def test_recovery_stops_when_blanking_goes_round_in_a_circle():
    # Blanking `t` makes the stray `"` the error, blanking that blames `t` again: this
    # used to loop for ever. Recovery now stops at the first state it has seen before.
    text = 'graph g {\n  state {\n    t\n  }\n  "\n}\n'
    assert lines_codes(text) == [(3, "syntax")]


def test_a_route_label_that_is_not_a_name_is_told_to_be_quoted():
    for label, col in (("Rejected + Feedback", 31), ("Rejected Feedback", 31)):
        d = one(f"graph g {{\n  route grade by r {{ {label} -> gen, Accepted -> END }}\n}}\n")
        assert d.help is not None and '"Rejected + Feedback" -> node' in d.help
        assert where(d) == (2, col)
    elsewhere = one("graph g {\n  edge a -> b + c\n}\n")
    assert elsewhere.help is None or "label" not in elsewhere.help


# A keyword that no agent statement starts with, twice: blanking `prompt "p"` did not move
# the first error, yet the second was blamed on `prompt "p"` again (the blanked `edge`
# line between them), which took the first error back — recovery went round, and the
# fuzzer's versions of this file never returned (issue 12, item 5).
_TWO_EDGES_IN_AN_AGENT = 'agent a {\n  model "m"\n  prompt "p"\n  edge a -> b\n  edge c -> END\n}\n'


def test_recovery_blames_each_statement_that_cannot_start_an_agent_statement():
    found = diags(_TWO_EDGES_IN_AN_AGENT)
    assert [(where(d), d.message) for d in found] == [
        ((4, 3), "unexpected `edge` in the `agent` block"),
        ((5, 3), "unexpected `edge` in the `agent` block"),
    ]


def test_agentc_check_returns_on_the_file_that_made_recovery_loop(tmp_path):
    from tests.support.cli_kit import agentc

    (tmp_path / "h.agent").write_text(_TWO_EDGES_IN_AN_AGENT)
    # The hang is the failure: `agentc` gets 60 s to answer (it needs well under one).
    result = agentc("check", "h.agent", "--format", "short", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines()[:2] == [
        "h.agent:4:3: error[syntax]: unexpected `edge` in the `agent` block",
        "h.agent:5:3: error[syntax]: unexpected `edge` in the `agent` block",
    ]
    assert "Traceback" not in result.stderr


def test_recovery_parses_a_declaration_a_bounded_number_of_times():
    """Each step of recovery reports, confirms or takes back an error, so the number of
    errors can stay the same from one step to the next: the steps themselves are bounded."""
    from agentc.dsl import parse as parse_module
    from agentc.dsl.recovery import MAX_RECOVERY_STEPS, recover_all
    from agentc.dsl.source import SourceFile
    from agentc.grammar import load_parser

    parser = load_parser()
    texts = [
        _TWO_EDGES_IN_AN_AGENT,
        'graph g {\n  state {\n    t\n  }\n  "\n}\n',
        "agent a {\n" + '  prompt "p"\n  edge a -> b\n' * 30 + "}\n",
        "graph g {\n  state {\n" + "    t\n    = 1\n" * 30 + "  }\n}\n",
    ]
    calls: list[int] = []

    def parse_stretch(stretch: str) -> object:
        calls.append(1)
        return parser.parse(stretch)

    for text in texts:
        calls.clear()

        with pytest.raises(UnexpectedInput) as first:  # recovery starts from this failure
            parser.parse(text)
        pattern_of = parse_module._pattern_of(parser)
        recovered = recover_all(SourceFile("t.agent", text), parse_stretch, first.value, pattern_of)
        assert recovered.diagnostics
        assert len(calls) <= MAX_RECOVERY_STEPS
