"""`test` blocks in the language: parsed apart from the program (the IR of a file is the same
with or without them), formatted idempotently with comments kept, highlighted by the
language server, checked by `agentc check`."""

from __future__ import annotations

from pathlib import Path

from support import EXAMPLES

from agentc.compiler.pipeline import compile_source
from agentc.dsl import ast
from agentc.dsl.dump import dump
from agentc.dsl.parse import parse
from agentc.fmt import format_source

UGLY = """agentc 1
# tests
test "x" {   # opens
  agent   calculator
  model  calc_node "scripted" {replies: ["a",
  "b"]}
  # before the input
  input    "hi"   # trailing
  expect answer   contains( "a" )
  decide   edit(a:1)
}
test "y" { input { topic: "cats" } expect state {joke: matches("cat")} }
"""

PRETTY = """agentc 1

# tests
test "x" {  # opens
  agent calculator
  model calc_node "scripted" { replies: ["a", "b"] }
  # before the input
  input "hi"  # trailing
  expect answer contains("a")
  decide edit(a: 1)
}

test "y" {
  input { topic: "cats" }
  expect state { joke: matches("cat") }
}
"""


def test_test_blocks_are_kept_apart_from_the_items() -> None:
    module = parse(UGLY, "x.test.agent").module
    assert module is not None and module.items == ()
    [x, y] = module.tests
    assert x.name.value == "x" and [type(s).__name__ for s in x.body] == [
        "TestAgent",
        "TestModel",
        "TestInput",
        "TestExpect",
        "TestDecide",
    ]
    model = x.body[1]
    assert isinstance(model, ast.TestModel) and model.node is not None
    assert model.node.text == "calc_node" and model.span.start.line == 5
    assert isinstance(y.body[1], ast.TestExpect) and y.body[1].subject.text == "state"


def test_a_file_without_tests_dumps_as_before() -> None:
    module = parse('agent a { model "x:y" }\n', "a.agent").module
    assert module is not None and "tests" not in dump(module)


def test_the_words_of_tests_stay_names_elsewhere() -> None:
    text = (
        'graph g {\n  state { input: str, expect: int = 0, decide: str = "", replay: str = "" }\n'
        "  node input = python(m.f)\n  edge START -> input\n  edge input -> END\n"
        "  input [input]\n}\n"
    )
    result = parse(text, "g.agent")
    assert result.diagnostics == ()


def test_formatting_is_canonical_idempotent_and_keeps_comments() -> None:
    once = format_source(UGLY, "x.test.agent").text
    assert once == PRETTY
    assert format_source(PRETTY, "x.test.agent").text == PRETTY


def test_every_example_test_file_is_formatted() -> None:
    for path in EXAMPLES.rglob("*.test.agent"):
        text = path.read_text()
        assert format_source(text, str(path)).text == text, path


def test_tests_leave_the_ir_unchanged() -> None:
    text = (EXAMPLES / "calculator.agent").read_text()
    tests = '\ntest "adds" {\n  input "what is 2+3?"\n  expect answer contains("5")\n}\n'
    plain = compile_source(text, "calculator.agent", base_dir=EXAMPLES)
    with_tests = compile_source(text + tests, "calculator.agent", base_dir=EXAMPLES)
    assert plain.program is not None and with_tests.program is not None
    assert with_tests.diagnostics == ()
    assert [g.model_dump() for g in plain.program.graphs] == [
        g.model_dump() for g in with_tests.program.graphs
    ]


def test_check_locates_the_mistakes_of_a_test_file(tmp_path: Path) -> None:
    (tmp_path / "a.agent").write_text('agent a {\n  model "scripted" { replies: ["hi"] }\n}\n')
    text = 'test "t" {\n  agent b\n  input "hi"\n  expect anwser "hi"\n}\n'
    result = compile_source(text, "a.test.agent", base_dir=tmp_path)
    found = [(d.code.value, d.span.start.line, d.span.start.col) for d in result.diagnostics]
    assert found == [("unknown-name", 2, 9), ("bad-test", 4, 10)]
    assert result.diagnostics[0].help == "name one of: a"


def test_a_test_file_without_its_agent_file_says_so(tmp_path: Path) -> None:
    result = compile_source('test "t" {\n  input "hi"\n}\n', "gone.test.agent", base_dir=tmp_path)
    [d] = result.errors
    assert d.code.value == "bad-test" and "`gone.agent`" in d.message


def test_the_language_server_highlights_test_words(tmp_path: Path) -> None:
    from agentc.lsp import symbols
    from agentc.lsp.analysis import analyse

    text = 'test "t" {\n  input "hi"\n  expect answer "x"\n}\n'
    a = analyse((tmp_path / "t.agent").as_uri(), text)
    data = symbols.semantic_tokens(a)
    decoded, line, char = [], 0, 0
    for i in range(0, len(data), 5):
        d_line, d_char, length, kind, _ = data[i : i + 5]
        line, char = line + d_line, (char + d_char if d_line == 0 else d_char)
        decoded.append((line, char, length, symbols.TOKEN_TYPES[kind]))
    assert (0, 0, 4, "keyword") in decoded  # test
    assert (1, 2, 5, "keyword") in decoded  # input
    assert (2, 2, 6, "keyword") in decoded  # expect
    assert (0, 5, 3, "string") in decoded
