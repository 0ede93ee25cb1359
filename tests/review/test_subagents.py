"""Review tools follow every agent that runs: sub-agents used as tools (H1) and agent nodes,
their models, reviews, limits and middleware, in `agentc explain` and `agentc graph`; a
`wrap_model_call` hook that may switch the model is named wherever the model is (A4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentc.cli import main

ROOT = Path(__file__).resolve().parents[2]
TEAM = "tests/review/cases/team.agent"
DESK = "tests/review/cases/desk.agent"


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(capsys, *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def seat(data: dict, seat_id: str) -> dict:
    return next(s for s in data["seats"] if s["id"] == seat_id)


def test_D9_names_the_sub_agents_whose_tools_pause_for_review(capsys):
    data = json.loads(run(capsys, "explain", TEAM, "--agent", "supervisor", "--format", "json"))
    d9 = seat(data, "D9")
    held = [p for p in d9["parts"] if p["holder"] == "human"]
    assert [p["answer"] for p in held] == [
        "in sub-agent `calendar`: held for a person's review: `create_event`",
        "in sub-agent `email`: held for a person's review: `send_email`",
    ]
    assert [p["at"] for p in held] == ["17:36", "27:36"] and d9["changed"]
    assert "no review at all" in d9["parts"][0]["answer"]  # the supervisor's own calls
    assert [s["name"] for s in data["subagents"]] == ["calendar", "email"]
    assert seat(data["subagents"][0]["map"], "D9")["holder"] == "human"


def test_text_shows_each_sub_agent_model_review_and_limits(capsys):
    out = run(capsys, "explain", TEAM, "--agent", "supervisor")
    assert "No review at all" not in out.split("Seats this file changes")[0]
    assert "Sub-agent `calendar`, run by `supervisor` (36:10): what agent `calendar` decides" in out
    calendar = out.split("Sub-agent `calendar`")[1].split("Sub-agent `email`")[0]
    assert "`openai:gpt-4o-mini`, for every call   (14:3)" in calendar
    assert "held for a person's review: `create_event`   (17:36)" in calendar
    assert "at most 12 steps per run (set here)" in calendar
    email = out.split("Sub-agent `email`")[1].split("Seats this file changes")[0]
    assert "after 5 calls per run, the run ends" in email
    # where a sub-agent's model calls count: not in the supervisor's budget
    assert "a sub-agent's model calls (`calendar`, `email`) are not counted here" in out


def test_graph_draws_agent_tools_as_sub_agents(capsys):
    mmd = run(capsys, "graph", TEAM, "--agent", "supervisor")
    assert "\ttools[/tools<hr/><small><em>lookup</em></small>/]:::tools\n" in mmd
    assert (
        "\ttools\\3acalendar[[calendar<hr/><small><em>sub-agent: agent calendar<br/>"
        "model: openai:gpt-4o-mini<br/>pauses for review: create_event<br/>steps ≤ 12"
        "</em></small>]]:::agent\n"
    ) in mmd
    assert "\ttools -. &nbsp;runs as a tool&nbsp; .-> tools\\3aemail;\n" in mmd
    dot = run(capsys, "graph", TEAM, "--agent", "supervisor", "--format", "dot")
    assert '"tools" -> "tools:calendar" [style=dashed, color="#b0306b"' in dot


def test_xray_expands_sub_agents_inline_as_clusters(capsys):
    mmd = run(capsys, "graph", TEAM, "--agent", "supervisor", "--xray")
    assert 'subgraph sg_tools\\3acalendar["sub-agent calendar: agent calendar' in mmd
    assert "\t\ttools\\3acalendar\\3a__start__([<p>request</p>]):::first\n" in mmd
    assert "tools\\3acalendar\\3atools[/tools<hr/><small><em>create_event<br/>pauses for" in mmd
    assert "\ttools -. &nbsp;runs as a tool&nbsp; .-> tools\\3acalendar\\3a__start__;\n" in mmd
    assert "\ttools\\3acalendar\\3a__end__ -.-> tools;\n" in mmd
    collapsed = run(capsys, "graph", TEAM, "--agent", "supervisor")
    assert "tools\\3acalendar\\3amodel" not in collapsed


def test_wrap_model_call_hook_is_named_wherever_the_model_is(capsys):
    data = json.loads(run(capsys, "explain", TEAM, "--agent", "supervisor", "--format", "json"))
    a4 = [p["answer"] for p in seat(data, "A4")["parts"] if "sub-agent" not in p["answer"]]
    assert not any("always" in answer for answer in a4)
    assert "`openai:gpt-4.1-mini` unless the Python hook `pick_model` switches it (40:5)" in a4
    mmd = run(capsys, "graph", TEAM, "--agent", "supervisor")
    legend = mmd.split("__legend__")[1]
    assert "model: openai:gpt-4.1-mini unless the Python hook pick_model switches it" in legend
    assert "unless the Python hook pick_model switches it #40;line 40#41;" in mmd.split("\n")[7]


def test_middleware_models_and_the_output_schema_are_shown(capsys):
    out = run(capsys, "explain", TEAM, "--agent", "supervisor")
    assert "`openai:gpt-4o-mini`, called by `summarization`   (39:5)" in out
    assert "`Plan` { steps: list[str], done: bool }, asked for as a forced tool call" in out
    mmd = run(capsys, "graph", TEAM, "--agent", "supervisor")
    assert 'subgraph mw_summarization["middleware summarization: model openai:gpt-4o-mini"]' in mmd


def test_agent_node_of_a_hand_built_graph_is_followed(capsys):
    out = run(capsys, "explain", DESK, "--agent", "desk")
    assert "Agent node `help` (agent `helper`), run by `desk` (23:3)" in out
    assert "`anthropic:claude-sonnet-4-5`, for every call" in out
    mmd = run(capsys, "graph", DESK, "--agent", "desk")
    assert "agent helper<br/>model: anthropic:claude-sonnet-4-5</em>" in mmd
