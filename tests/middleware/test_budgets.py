"""Budgets: tokens / cost / time per run and thread, with end / error / ask."""

from __future__ import annotations

import pytest
from mwkit import Command, RunConfig, ask, write

from agentc.api import load_agent
from agentc.stdlib.middleware.binding import middleware_of
from agentc.stdlib.middleware.budgets import BudgetExceededError

USAGE = {"input_tokens": 600, "output_tokens": 100}


def budget_agent(tmp_path, settings: str, extra: str = ""):
    body = f"""
    agent a {{
      model "scripted" {{ replies: [
        {{ content: "", tool_calls: [{{ name: "add", args: {{ a: 1, b: 2 }}, id: "c1" }}],
           usage: {{ input_tokens: 600, output_tokens: 100 }} }},
        {{ content: "second", usage: {{ input_tokens: 700, output_tokens: 50 }} }} ] }}
      tools [kit.add]
      middleware {{ budgets {{ {settings} }} }}
      {extra}
    }}
    """
    return load_agent(write(tmp_path, body))


def test_budget_tokens_end(tmp_path):
    a = budget_agent(tmp_path, "tokens: 500")
    result = a.invoke(ask())
    assert result["messages"][-1].content == "Budget exceeded: run tokens 700/500 tokens"
    assert middleware_of(a, "budgets").report(None) == ["run tokens: 700 of 500 tokens"]


def test_budget_cost_error(tmp_path):
    a = budget_agent(tmp_path, 'cost: 0.001, prices: { input: 1.0, output: 2.0 }, '
                               'exit_behavior: "error"')
    with pytest.raises(BudgetExceededError, match=r"run cost 0.0008/0.0005 USD"):
        budget_agent(tmp_path, 'cost: 0.0005, prices: { input: 1.0, output: 2.0 }, '
                               'exit_behavior: "error"').invoke(ask())
    assert a.invoke(ask())["messages"][-1].content == "second"  # under budget


def test_budget_ask_continues_on_yes(tmp_path):
    a = budget_agent(tmp_path, 'tokens: 500, exit_behavior: "ask"', "checkpoint memory")
    cfg = RunConfig(thread_id="t")
    paused = a.invoke(ask(), cfg)
    assert paused["__interrupt__"][0].value["type"] == "budget"
    assert a.invoke(Command(resume="yes"), cfg)["messages"][-1].content == "second"


def test_agentc_run_prints_usage_against_budgets(tmp_path, monkeypatch, capsys):
    from agentc.cli import main
    monkeypatch.chdir(tmp_path)
    budget_agent(tmp_path, "tokens: 5000, thread_tokens: 9000")
    assert main(["run", str(tmp_path / "t.agent"), "--input", "hi"]) == 0
    out = capsys.readouterr().out
    assert "budget run tokens: 1450 of 5000 tokens" in out
    assert "budget thread tokens: 1450 of 9000 tokens" in out
