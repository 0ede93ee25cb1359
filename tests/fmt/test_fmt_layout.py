"""The canonical layout, pinned on small inputs: what `agentc fmt` makes of each form."""

from __future__ import annotations

import pytest

from agentc.fmt import format_source


def fmt(text: str) -> str:
    result = format_source(text, "t.agent")
    assert result.text is not None, result.diagnostics
    return result.text


CASES = {
    "one statement per line, two-space indent": (
        'agent a { model "openai:gpt-4o-mini" prompt "Hi." }',
        'agent a {\n  model "openai:gpt-4o-mini"\n  prompt "Hi."\n}\n',
    ),
    "spacing around : = -> and inside brackets": (
        "graph g {\nstate{n:int=0}\nnode  a=python( m.f )\nedge START->a\nedge a ->END\n}",
        "graph g {\n  state {\n    n: int = 0\n  }\n  node a = python(m.f)\n"
        "  edge START -> a\n  edge a -> END\n}\n",
    ),
    "a map fits on one line": (
        "agent a {\n  limits {steps:3,step_timeout:30s}\n}",
        "agent a {\n  limits { steps: 3, step_timeout: 30s }\n}\n",
    ),
    "a trailing comma keeps a list broken": (
        "agent a {\n  tools [t.a, t.b,]\n}",
        "agent a {\n  tools [\n    t.a,\n    t.b,\n  ]\n}\n",
    ),
    "empty lines: at most one, none after { or before }": (
        'agent a {\n\n\n  model "m"\n\n\n\n  prompt "p"\n\n}',
        'agent a {\n  model "m"\n\n  prompt "p"\n}\n',
    ),
    "an empty line around each declaration with a body": (
        'use "./a.py" as a\nuse "./b.py" as b\nagent x { model "m" }\nagent y { model "m" }',
        'use "./a.py" as a\nuse "./b.py" as b\n\nagent x {\n  model "m"\n}\n\n'
        'agent y {\n  model "m"\n}\n',
    ),
    "parentheses the tree needs are kept, written ones too": (
        "graph g {\n  edge a -> b when (x or y) and not (z)\n}",
        "graph g {\n  edge a -> b when (x or y) and not (z)\n}\n",
    ),
    "types: unions, optionals, generics": (
        'schema S { a:(int|str)? b: list[ str ] c: "x"|"y" = "x" }',
        'schema S {\n  a: (int | str)?\n  b: list[str]\n  c: "x" | "y" = "x"\n}\n',
    ),
    "empty bodies stay on one line": ("agent a {}\nschema S {  }", "agent a {}\n\nschema S {}\n"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_canonical_layout(name: str) -> None:
    source, expected = CASES[name]
    assert fmt(source) == expected
    assert fmt(expected) == expected


def test_long_lists_wrap_at_100_columns() -> None:
    names = ", ".join(f"tools.tool_number_{i}" for i in range(8))
    out = fmt(f"agent a {{\n  tools [{names}]\n}}")
    assert max(len(line) for line in out.splitlines()) <= 100
    assert out.splitlines()[1] == "  tools ["
    assert out.splitlines()[2] == "    tools.tool_number_0,"


def test_comments_stay_where_they_were() -> None:
    source = (
        "# file header\n\nagent a {  # after the opener\n  # before model\n"
        '  model "m" { temperature: 0 }  # after model\n\n  # a closing note\n}\n'
    )
    assert fmt(source) == source


def test_a_comment_inside_a_map_breaks_it() -> None:
    out = fmt('agent a {\n  model "m" { temperature: 0,  # cold\n max_tokens: 5 }\n}')
    assert out == (
        'agent a {\n  model "m" {\n    temperature: 0,  # cold\n    max_tokens: 5,\n  }\n}\n'
    )


def test_a_hash_inside_a_string_is_not_a_comment() -> None:
    assert fmt('agent a {\n  prompt "use # freely"\n}') == 'agent a {\n  prompt "use # freely"\n}\n'


def test_triple_quoted_strings_are_kept_verbatim() -> None:
    source = 'agent a {\nprompt """\n    Line one.\n      Indented.\n  """\n}'
    assert '"""\n    Line one.\n      Indented.\n  """' in fmt(source)


def test_a_syntax_error_is_refused_with_its_place() -> None:
    result = format_source("agent a {\n  model \n", "broken.agent")
    assert result.text is None
    assert result.diagnostics and all(d.is_error for d in result.diagnostics)
    assert result.diagnostics[0].span.file == "broken.agent"
    assert result.diagnostics[0].span.start.line >= 2
