"""Each kind of expectation fails when what it says did not happen (and holds when it did),
on the calculator example and on the human-review example's pause."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support import EXAMPLES

from agentc.agenttest.report import file_failures
from agentc.agenttest.run import run_file

HOLDS = [
    'expect answer "The answer is 5."',
    'expect answer contains("answer", "5")',
    'expect answer matches("^The answer is \\\\d\\\\.$")',
    "expect tools [add]",
    "expect tools contains(add)",
    "expect tool add",
    "expect tool add(a: 2, b: 3)",
    "expect route [model, tools, model]",
    "expect route contains(tools, model)",
    'expect state { messages: contains("5") }',
    "expect usage { model_calls: 2, tool_calls: at_least(1), steps: at_most(3) }",
    "expect interrupt none",
]
FAILS = [
    ('expect answer "The answer is 6."', 'got: "The answer is 5."'),
    ('expect answer contains("6")', 'does not contain "6"'),
    ('expect answer matches("^6")', 'no match for "^6"'),
    ("expect tools [add, add]", "1 items, not 2"),
    ("expect tools []", "1 items, not 0"),
    ("expect tool add(a: 3)", "got: add(a: 2, b: 3)"),
    ("expect route [model]", "3 items, not 1"),
    ("expect route contains(tools, tools)", "no item is tools after the ones before it"),
    ('expect state { messages: ["what is 2+3?"] }', "`messages`: 4 items, not 1"),
    ("expect usage { model_calls: at_most(1) }", "`model_calls`: 2 is more than 1"),
    ("expect output { value: 5 }", "the run gave none"),
    ("expect interrupt add", "expected a pause"),
]


@pytest.fixture
def calc(tmp_path: Path) -> Path:
    for name in ("calculator.agent", "human_review.agent", "tools.py"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    return tmp_path


def _run(folder: Path, stem: str, body: str) -> str:
    path = folder / f"{stem}.test.agent"
    path.write_text(f'agentc 1\n\ntest "t" {{\n  input "what is 2+3?"\n  {body}\n}}\n')
    return "\n".join(file_failures(run_file(path)))


@pytest.mark.parametrize("line", HOLDS)
def test_an_expectation_that_holds_passes(calc: Path, line: str) -> None:
    assert _run(calc, "calculator", line) == ""


@pytest.mark.parametrize(("line", "why"), FAILS)
def test_an_expectation_that_does_not_hold_fails(calc: Path, line: str, why: str) -> None:
    text = _run(calc, "calculator", line)
    assert text.startswith("FAILED test `t`: expected"), text
    assert why in text and "calculator.test.agent:5:" in text


def test_a_pause_is_expected_and_answered(calc: Path) -> None:
    body = "expect interrupt add(b: 3)\n  decide edit(a: 10, b: 3)\n  expect interrupt none\n"
    body += '  expect state { messages: contains(matches("13$")) }'
    assert _run(calc, "human_review", body) == ""


def test_deciding_when_nothing_is_paused_fails_there(calc: Path) -> None:
    text = _run(calc, "calculator", 'decide approve\n  expect answer contains("5")')
    assert "nothing to decide: the run is not paused" in text
    assert "calculator.test.agent:5:3" in text


def test_a_second_input_is_the_same_conversation(calc: Path) -> None:
    path = calc / "calculator.test.agent"
    path.write_text(
        'agentc 1\ntest "two turns" {\n  model "scripted" { replies: ["one", "two"] }\n'
        '  input "first"\n  input "second"\n  expect answer "two"\n'
        '  expect state { messages: ["first", "one", "second", "two"] }\n'
        "  expect usage { model_calls: 1 }\n}\n"
    )
    assert file_failures(run_file(path)) == []


ASKS = """from agentc.runtime import interrupt


def ask(state):
    return {"answer": interrupt({"question": "ship it?"})}
"""
ASKING = """agentc 1
use "./asks.py" as asks

graph shipping {
  state { answer: str = "" }
  node ask = python(asks.ask)
  edge START -> ask
  edge ask -> END
  checkpoint memory
}
"""


def test_a_python_interrupt_is_expected_by_its_value_and_resumed(tmp_path: Path) -> None:
    (tmp_path / "asks.py").write_text(ASKS)
    (tmp_path / "shipping.agent").write_text(ASKING)
    body = 'expect interrupt { question: contains("ship") }\n  decide resume("yes")\n'
    body += '  expect interrupt none\n  expect state { answer: "yes" }\n  expect route [ask]'
    path = tmp_path / "shipping.test.agent"
    path.write_text(f'agentc 1\n\ntest "t" {{\n  input {{}}\n  {body}\n}}\n')
    assert file_failures(run_file(path)) == []
    path.write_text(path.read_text().replace('resume("yes")', 'resume("no")'))
    [failure] = file_failures(run_file(path))
    assert '=      got: {"answer": "no"}' in failure and "shipping.test.agent:8:16" in failure
