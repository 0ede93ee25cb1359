"""The `.agent` twins of seed 002's examples give the outcomes the seed prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentc.api import load_agent
from agentc.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ASK = {"messages": [{"role": "user", "content": "what is 2+3?"}]}


def test_create_agent_example_calculator():
    result = load_agent(EXAMPLES / "calculator.agent").invoke(ASK)
    got = [(type(m).__name__, m.content) for m in result["messages"]]
    assert got == [
        ("HumanMessage", "what is 2+3?"),
        ("AIMessage", ""),
        ("ToolMessage", "5"),
        ("AIMessage", "The answer is 5."),
    ]


def test_agent_state_example():
    result = load_agent(EXAMPLES / "agent_state.agent").invoke(
        {"messages": [{"role": "user", "content": "hi"}]}
    )
    assert list(result) == ["messages"]
    assert result["messages"][-1].content == "hi back"


def test_tool_strategy_example():
    result = load_agent(EXAMPLES / "tool_strategy.agent").invoke(ASK)
    answer = result["structured_response"]
    assert (type(answer).__name__, answer.value, answer.explanation) == ("Answer", 5, "2+3=5")
    assert [type(m).__name__ for m in result["messages"]] == [
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
    ]


def test_init_chat_model_example_resolves_provider_and_needs_a_key(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    code = main(["run", str(EXAMPLES / "init_chat_model.agent"), "--input", "what is 2+3?"])
    err = capsys.readouterr().err
    assert code == 1
    assert "ANTHROPIC_API_KEY" in err and "Traceback" not in err
    error, saved = err.strip().splitlines()  # the error, then where the run was saved
    assert "ANTHROPIC_API_KEY" in error and saved.startswith("progress so far is saved in thread")


def test_agentc_run_prints_the_four_messages(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    code = main(["run", str(EXAMPLES / "calculator.agent"), "--input", "what is 2+3?"])
    out = capsys.readouterr().out
    assert code == 0
    lines = [line for line in out.splitlines() if not line.startswith("  [")]
    assert lines[:4] == [
        "you: what is 2+3?",
        "ai → add(a=2, b=3)  id=c1",
        "tool add: 5",
        "ai: The answer is 5.",
    ]
    assert (tmp_path / ".agentc" / "state.db").exists()  # the CLI's embedded store


def test_agentc_run_model_override_and_thread(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    args = [
        "run",
        str(EXAMPLES / "init_chat_model.agent"),
        "--model",
        "scripted:replies.json",
        "--thread",
        "t1",
    ]
    assert main(args + ["--input", "what is 2+3?"]) == 0
    capsys.readouterr()
    assert main(args + ["--input", "again", "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)  # F10: the thread's history continues
    assert [m["type"] for m in data["messages"]] == ["human", "ai", "tool", "ai"] * 2


def test_agentc_run_replies_exhausted_is_one_paragraph(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "one.json").write_text(
        '[{"tool_calls": [{"name": "add", "args": {"a": 1, "b": 1}, "id": "c1"}]}]'
    )
    code = main(
        [
            "run",
            str(EXAMPLES / "calculator.agent"),
            "--model",
            f"scripted:{tmp_path / 'one.json'}",
            "--input",
            "q",
        ]
    )
    err = capsys.readouterr().err
    assert code == 1 and "1 replies but was called a 2nd time" in err
    assert "Traceback" not in err


def test_agentc_run_json_output(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(EXAMPLES / "tool_strategy.agent"), "--input", "q", "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["structured_response"] == {"value": 5, "explanation": "2+3=5"}


def test_agentc_run_bad_file_is_a_diagnostic(tmp_path, capsys):
    bad = tmp_path / "bad.agent"
    bad.write_text("agent x { model }\n")
    assert main(["run", str(bad), "--input", "hi"]) == 1
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["calculator", "agent_state", "tool_strategy"])
def test_examples_run_async(name):
    import asyncio

    graph = load_agent(EXAMPLES / f"{name}.agent")
    result = asyncio.run(graph.ainvoke(ASK))
    assert result["messages"][-1].type in ("ai", "tool")
