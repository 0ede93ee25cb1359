"""Budgets: tokens / cost / time per run and thread, with end / error / ask."""

from __future__ import annotations

import pytest
from support.mwkit import Command, RunConfig, ask, write

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
    a = budget_agent(
        tmp_path, 'cost: 0.001, prices: { input: 1.0, output: 2.0 }, exit_behavior: "error"'
    )
    with pytest.raises(BudgetExceededError, match=r"run cost 0.0008/0.0005 USD"):
        budget_agent(
            tmp_path, 'cost: 0.0005, prices: { input: 1.0, output: 2.0 }, exit_behavior: "error"'
        ).invoke(ask())
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


# ---------------------------------------------------------------- budgets written in `limits`

SLOW_PY = '''
import time


def slow(x: int) -> int:
    """Sleep a little, then answer."""
    time.sleep(0.05)
    return x
'''


def limits_agent(
    tmp_path,
    limits: str,
    extra: str = "",
    tool: str = "kit.add",
    call: str = 'name: "add", args: { a: 1, b: 2 }',
):
    body = f"""
    agent a {{
      model "scripted" {{ replies: [
        {{ content: "", tool_calls: [{{ {call}, id: "c1" }}],
           usage: {{ input_tokens: 600, output_tokens: 100 }} }},
        {{ content: "second", usage: {{ input_tokens: 700, output_tokens: 50 }} }},
        {{ content: "third", usage: {{ input_tokens: 10, output_tokens: 10 }} }} ] }}
      tools [{tool}]
      limits {{ {limits} }}
      {extra}
    }}
    """
    return load_agent(write(tmp_path, body, extra_py=SLOW_PY))


def test_F8_limits_tokens_lower_to_the_budgets_middleware(tmp_path):
    a = limits_agent(tmp_path, "steps: 50, tokens: 500")
    first = a.graph.agent.middleware[0]
    assert (first.name, first.declared, first.origin.value) == ("budgets", "budgets", "limits")
    assert first.config["tokens"] == 500 and first.config["exit_behavior"] == "end"
    assert first.config_spans["tokens"].col > first.span.col  # the key, not the block
    result = a.invoke(ask())
    assert result["messages"][-1].content == "Budget exceeded: run tokens 700/500 tokens"
    assert a.graph.limits.steps.value == 50


def test_F8_limits_cost_error_with_prices_from_the_file(tmp_path):
    a = limits_agent(
        tmp_path, 'cost: 0.0005, on_budget: "error", prices: { input: 1.0, output: 2.0 }'
    )
    with pytest.raises(BudgetExceededError, match=r"run cost 0.0008/0.0005 USD"):
        a.invoke(ask())


def test_F8_limits_time_budget_ends_the_run(tmp_path):
    a = limits_agent(tmp_path, "time: 20ms", tool="kit.slow", call='name: "slow", args: { x: 1 }')
    result = a.invoke(ask())
    assert result["messages"][-1].content.startswith("Budget exceeded: run time ")


def test_F8_limits_thread_tokens_span_runs_of_one_thread(tmp_path):
    a = limits_agent(tmp_path, "thread_tokens: 1000", "checkpoint memory")
    cfg = RunConfig(thread_id="t1")
    assert a.invoke(ask(), cfg)["messages"][-1].content == "second"  # 700 < 1000 before call 2
    again = a.invoke(ask("more"), cfg)
    assert again["messages"][-1].content == "Budget exceeded: thread tokens 1450/1000 tokens"


def test_F8_limits_on_budget_ask_pauses_and_goes_on_when_told_yes(tmp_path):
    a = limits_agent(tmp_path, 'tokens: 500, on_budget: "ask"', "checkpoint memory")
    cfg = RunConfig(thread_id="t")
    paused = a.invoke(ask(), cfg)
    question = paused["__interrupt__"][0].value
    assert question["type"] == "budget" and question["exceeded"] == ["run tokens 700/500 tokens"]
    assert a.invoke(Command(resume="yes"), cfg)["messages"][-1].content == "second"


def test_F8_limits_on_budget_ask_ends_when_told_no(tmp_path):
    a = limits_agent(tmp_path, 'tokens: 500, on_budget: "ask"', "checkpoint memory")
    cfg = RunConfig(thread_id="t")
    a.invoke(ask(), cfg)
    done = a.invoke(Command(resume="no"), cfg)
    assert done["messages"][-1].content == "Budget exceeded: run tokens 700/500 tokens"
