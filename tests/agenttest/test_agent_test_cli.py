"""`agentc test` end to end: every example's tests pass, a wrong expectation fails with its
place and both sides, JUnit XML, `-k`, and the refusal to reach a real model."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support import EXAMPLES

from agentc.cli import main

CALC_TEST = """agentc 1

test "adds" {
  input "what is 2+3?"
  expect answer "The answer is 6."
}

test "routes" {
  input "what is 2+3?"
  expect route [model, tools, model]
}
"""


@pytest.fixture
def calc(tmp_path: Path) -> Path:
    shutil.copy(EXAMPLES / "calculator.agent", tmp_path / "calculator.agent")
    shutil.copy(EXAMPLES / "tools.py", tmp_path / "tools.py")
    return tmp_path


def test_every_example_passes_its_tests(capsys) -> None:
    code = main(["test", str(EXAMPLES)])
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]
    assert code == 0, out
    assert "failed" not in last and "error" not in last, out
    files = list(EXAMPLES.rglob("*.test.agent"))
    agents = [p for p in EXAMPLES.rglob("*.agent") if not p.name.endswith(".test.agent")]
    assert {p.name.removesuffix(".test.agent") for p in files} == {
        p.name.removesuffix(".agent") for p in agents
    }  # every example has its tests
    assert int(last.split()[0]) >= len(files)


def test_a_wrong_expectation_fails_with_its_place_and_both_sides(calc: Path, capsys) -> None:
    (calc / "calculator.test.agent").write_text(CALC_TEST)
    code = main(["test", str(calc)])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILED test `adds`: expected answer" in out
    assert f"--> {calc / 'calculator.test.agent'}:5:17" in out
    assert '5 |   expect answer "The answer is 6."' in out
    assert "  |                 ^^^^^^^^^^^^^^^^^^ expected here" in out
    assert '= expected: "The answer is 6."' in out and '=      got: "The answer is 5."' in out
    assert out.strip().splitlines()[-1].startswith("1 passed, 1 failed in ")


def test_junit_xml_names_each_test_and_its_failure(calc: Path, tmp_path: Path, capsys) -> None:
    (calc / "calculator.test.agent").write_text(CALC_TEST)
    report = tmp_path / "out" / "junit.xml"
    report.parent.mkdir()
    assert main(["test", str(calc), "--junit", str(report)]) == 1
    root = ET.parse(report).getroot()
    assert root.get("tests") == "2" and root.get("failures") == "1"
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"adds", "routes"}
    failure = cases["adds"].find("failure")
    assert failure is not None and "The answer is 5." in (failure.text or "")
    assert cases["routes"].find("failure") is None


def test_k_selects_tests_by_name(calc: Path, capsys) -> None:
    (calc / "calculator.test.agent").write_text(CALC_TEST)
    assert main(["test", str(calc / "calculator.agent"), "-k", "rout"]) == 0
    assert capsys.readouterr().out.strip().startswith("1 passed in ")


def test_a_real_model_is_never_called(tmp_path: Path, capsys) -> None:
    (tmp_path / "live.agent").write_text(
        'agentc 1\nagent live {\n  model "openai:gpt-4o-mini"\n}\n'
    )
    (tmp_path / "live.test.agent").write_text(
        'agentc 1\ntest "hi" {\n  input "hi"\n  expect answer "hello"\n}\n'
    )
    assert main(["test", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "openai:gpt-4o-mini" in out and 'replay "FILE.jsonl"' in out
    assert "Traceback" not in out


def test_a_test_file_with_errors_is_reported_as_check_reports_it(calc: Path, capsys) -> None:
    (calc / "calculator.test.agent").write_text(
        'agentc 1\ntest "x" {\n  input "hi"\n  expect tool multiply(a: 1)\n}\n'
    )
    assert main(["test", str(calc)]) == 1
    out = capsys.readouterr().out
    assert "error[unknown-tool]: `multiply` is not a tool of `calculator`" in out
    assert "calculator.test.agent:4:15" in out and "1 file with errors" in out
    assert main(["check", str(calc / "calculator.test.agent")]) == 1


def test_a_folder_without_tests_fails_and_says_so(tmp_path: Path, capsys) -> None:
    assert main(["test", str(tmp_path)]) == 1
    assert "no tests found" in capsys.readouterr().err


def test_a_missing_path_is_a_usage_error(tmp_path: Path, capsys) -> None:
    assert main(["test", str(tmp_path / "nope")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_a_cassette_recorded_with_update_replays_offline(calc: Path, capsys) -> None:
    (calc / "calculator.test.agent").write_text(
        'agentc 1\ntest "replayed" {\n  replay "sum.jsonl"\n  input "what is 2+3?"\n'
        '  expect answer "The answer is 5."\n}\n'
    )
    assert main(["test", str(calc), "--update"]) == 0  # the scripted model, recorded
    assert (calc / "sum.jsonl").read_text().count("\n") == 3  # a header and two calls
    agent = calc / "calculator.agent"
    text = agent.read_text()
    start = text.index('  model "scripted"')
    end = text.index("  prompt")
    agent.write_text(text[:start] + '  model "openai:gpt-4o-mini"\n' + text[end:])
    capsys.readouterr()
    assert main(["test", str(calc)]) == 0, capsys.readouterr().out  # replayed: no network
