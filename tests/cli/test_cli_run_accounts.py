"""`agentc run`'s accounts of a run: which threads outlive it (`checkpoint memory` does not
keep one), budgets that hold across resumes and flag an overspend, and model calls and
tokens counted per agent (sub-agents included)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from support.cli_kit import agentc

BIG = {"input_tokens": 1200, "output_tokens": 30}  # 1230 tokens a call
ADD_BIG = {"tool_calls": [{"name": "add", "args": {"a": 2, "b": 3}, "id": "c1"}], "usage": BIG}
KIT = '''
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b
'''
OVER = "budget run tokens: 1230 of 20 tokens\nover budget: run tokens 1230 of 20 tokens, 1210 past"
APPROVE = {"decisions": {"c1": {"type": "approve"}}}


def reviewed_agent(where, middleware: str = "", checkpoint: str = 'sqlite("state.db")'):
    """An agent whose `add` waits for a person, with `middleware` besides the review."""
    (where / "kit.py").write_text(KIT)
    replies = json.dumps([ADD_BIG, {"content": "It is 5.", "usage": BIG}])
    path = where / "calc.agent"
    path.write_text(
        'agentc 1\nuse "./kit.py" as kit\n\nagent calc {\n'
        f'  model "scripted" {{ replies: {replies} }}\n  tools [kit.add]\n'
        "  middleware {\n    human_review { interrupt_on: { add: true } }\n"
        f"    {middleware}\n  }}\n  checkpoint {checkpoint}\n}}\n"
    )
    return path


def decisions(where, *answers) -> str:
    path = where / "answers.json"
    path.write_text(json.dumps(list(answers)))
    return str(path)


# ---------------------------------------------------------------- threads


def test_a_memory_thread_is_not_offered_to_continue(workdir):
    path = workdir / "mem.agent"
    path.write_text(
        'agentc 1\nagent calc {\n  model "scripted" { replies: ["five"] }\n  checkpoint memory\n}\n'
    )
    done = agentc("run", str(path), "--input", "2+3?", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "continue with --thread" not in done.stdout + done.stderr
    assert "is not kept" in done.stdout and 'checkpoint sqlite(".agentc/state.db")' in done.stdout


def test_a_memory_pause_is_not_offered_for_later(workdir):
    path = reviewed_agent(workdir, checkpoint="memory")
    done = agentc("run", str(path), "--input", "2+3?", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "--thread" not in done.stdout.split("paused", 1)[1]  # no resume line that fails
    assert "the pause ends with this run" in done.stdout


def test_a_kept_thread_is_still_offered(workdir):
    path = reviewed_agent(workdir)
    done = agentc("run", str(path), "--input", "2+3?", "--thread", "t1", cwd=workdir)
    assert "paused; answer it with: agentc run" in done.stdout
    assert "thread: t1 (continue with --thread t1)" in done.stdout


# ---------------------------------------------------------------- budgets


def test_a_budget_holds_across_a_resume_in_another_process(workdir):
    path = reviewed_agent(workdir, 'budgets { tokens: 20, exit_behavior: "end" }')
    first = agentc("run", str(path), "--input", "2+3?", "--thread", "t1", cwd=workdir)
    assert first.returncode == 0, first.stderr
    assert OVER in first.stdout
    again = agentc(
        "run",
        str(path),
        "--thread",
        "t1",
        "--decisions",
        decisions(workdir, APPROVE),
        cwd=workdir,
    )
    assert again.returncode == 0, again.stderr
    assert "tool add: 5" in again.stdout  # the review was answered, the tool ran
    assert "ai: Budget exceeded: run tokens 1230/20 tokens" in again.stdout  # then it ended
    assert "It is 5." not in again.stdout  # no model call past the budget
    assert re.search(r"^-- done in \d+ ms · 0 model calls$", again.stdout, re.M), again.stdout
    assert OVER in again.stdout


def test_a_budget_asks_again_after_a_resume(workdir):
    path = reviewed_agent(workdir, 'budgets { tokens: 20, exit_behavior: "ask" }')
    answers = decisions(workdir, APPROVE, "no")
    done = agentc("run", str(path), "--input", "2+3?", "--decisions", answers, cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert '"type": "budget"' in done.stdout  # the budget's question, after the review
    assert "answered from file: no" in done.stdout
    assert "ai: Budget exceeded: run tokens 1230/20 tokens" in done.stdout
    assert re.search(r"^-- done in \d+ ms · 1 model call · ", done.stdout, re.M), done.stdout


def test_a_last_call_past_the_budget_is_flagged(workdir):
    path = workdir / "one.agent"
    reply = json.dumps([{"content": "five", "usage": BIG}])
    path.write_text(
        f'agentc 1\nagent calc {{\n  model "scripted" {{ replies: {reply} }}\n'
        "  limits { tokens: 20 }\n}\n"
    )
    done = agentc("run", str(path), "--input", "2+3?", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert OVER in done.stdout
    assert "budget_spent" not in done.stdout  # the amounts are private bookkeeping


# ---------------------------------------------------------------- calls per agent


def test_sub_agents_calls_and_tokens_are_shown_per_agent(workdir):
    helper = (
        'agent helper "Answers sums." {\n  model "scripted" { replies: [{ content: "five", '
        "usage: { input_tokens: 5, output_tokens: 1 } }] }\n}\n"
    )
    boss = (
        'agent boss {\n  model "scripted" { replies: [{ tool_calls: [{ name: "helper", '
        'args: { request: "2+3" }, id: "h1" }], usage: { input_tokens: 10, output_tokens: 2 } },'
        ' { content: "The helper says five.", usage: { input_tokens: 20, output_tokens: 4 } }] }'
        "\n  tools [helper]\n}\n"
    )
    path = workdir / "team.agent"
    path.write_text("agentc 1\n" + helper + boss)
    done = agentc("run", str(path), "--agent", "boss", "--input", "2+3?", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert re.search(
        r"^-- done in \d+ ms · 3 model calls · tokens 35 in, 7 out$", done.stdout, re.M
    ), done.stdout
    assert "\n   boss: 2 model calls · tokens 30 in, 6 out\n" in done.stdout
    assert "\n   helper: 1 model call · tokens 5 in, 1 out\n" in done.stdout


def test_python_nodes_own_models_are_shown_per_node(workdir):
    example = (
        Path(__file__).resolve().parents[2] / "examples" / "graphs" / "evaluator_optimizer.agent"
    )
    done = agentc("run", str(example), "--input", '{"topic": "cats"}', cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "\n   node llm_call_generator: 2 model calls\n" in done.stdout
    assert "\n   node llm_call_evaluator: 2 model calls\n" in done.stdout
