"""D9–D12: human review of tool calls (batched and per-call), answers and divergences."""

from __future__ import annotations

import pytest
from support.mwkit import Command, RunConfig, agent, ask, call, contents, reply

from agentc.stdlib.middleware.human_in_the_loop import EDIT_NOTICE, ReviewError

TWO = reply("", call("add", {"a": 2, "b": 3}, "c1"), call("multiply", {"a": 2, "b": 3}, "c2"))


def review(tmp_path, rules: str, replies=None, extra_mw: str = "", py: str = ""):
    a = agent(
        tmp_path,
        replies_=replies or [TWO, "done"],
        tools="kit.add, kit.multiply",
        middleware=f"human_review {{ {rules} }}\n{extra_mw}",
        extra="checkpoint memory",
        extra_py=py,
    )
    return a, RunConfig(thread_id="t")


def test_D9_ungated_tool_is_waved_through(tmp_path):
    a, cfg = review(tmp_path, "interrupt_on: { add: true, multiply: false }")
    paused = a.invoke(ask(), cfg)
    requests = paused["__interrupt__"][0].value["action_requests"]
    assert [r["name"] for r in requests] == ["add"]
    assert requests[0]["description"] == (
        "Tool execution requires approval\n\nTool: add\nArgs: {'a': 2, 'b': 3}"
    )
    assert paused["__interrupt__"][0].value["review_configs"] == [
        {"action_name": "add", "allowed_decisions": ["approve", "edit", "reject", "respond"]}
    ]


def test_D9_when_predicate_gates_some_calls(tmp_path):
    py = "\ndef big(request):\n    return request.tool_call['args']['a'] > 5\n"
    a, cfg = review(
        tmp_path, 'interrupt_on: { add: { allowed_decisions: ["approve"], when: kit.big } }', py=py
    )
    result = a.invoke(ask(), cfg)
    assert "__interrupt__" not in result
    assert result["messages"][-1].content == "done"


def test_D10_approve_runs_the_call(tmp_path):
    a, cfg = review(tmp_path, "interrupt_on: { add: true, multiply: true }")
    a.invoke(ask(), cfg)
    result = a.invoke(
        Command(resume={"decisions": [{"type": "approve"}, {"type": "approve"}]}), cfg
    )
    assert [c for t, c in contents(result) if t == "tool"] == ["5", "6"]


def test_D10_decisions_matched_by_tool_call_id(tmp_path):
    a, cfg = review(tmp_path, "interrupt_on: { add: true, multiply: true }")
    a.invoke(ask(), cfg)
    # listed in the reverse order of the requests: ids decide (our divergence, D10)
    result = a.invoke(
        Command(resume={"decisions": {"c2": {"type": "reject"}, "c1": {"type": "approve"}}}), cfg
    )
    tools = {m.tool_call_id: (m.content, m.status) for m in result["messages"] if m.type == "tool"}
    assert tools["c1"] == ("5", "success")
    assert tools["c2"][1] == "error" and "multiply" in tools["c2"][0]


def test_D10_wrong_number_of_decisions_is_an_error(tmp_path):
    a, cfg = review(tmp_path, "interrupt_on: { add: true, multiply: true }")
    a.invoke(ask(), cfg)
    with pytest.raises(ReviewError, match=r"Number of human decisions \(1\) does not match"):
        a.invoke(Command(resume={"decisions": [{"type": "approve"}]}), cfg)


def test_D11_decision_not_allowed_for_the_tool(tmp_path):
    a, cfg = review(tmp_path, 'interrupt_on: { add: { allowed_decisions: ["approve"] } }')
    a.invoke(ask(), cfg)
    with pytest.raises(ReviewError, match="Decision type 'reject' is not allowed"):
        a.invoke(Command(resume={"decisions": [{"type": "reject"}]}), cfg)


def test_D12_reject_and_respond_messages(tmp_path):
    a, cfg = review(tmp_path, "interrupt_on: { add: true, multiply: true }")
    a.invoke(ask(), cfg)
    result = a.invoke(
        Command(
            resume={"decisions": [{"type": "reject"}, {"type": "respond", "message": "it is 6"}]}
        ),
        cfg,
    )
    tools = [(m.content, m.status) for m in result["messages"] if m.type == "tool"]
    assert tools == [
        (
            "User rejected the tool call for `add` with id c1. The tool was not executed. Do not "
            "retry this tool call unless the user explicitly requests it.",
            "error",
        ),
        ("it is 6", "success"),
    ]


def test_D12_reject_with_a_reason(tmp_path):
    a, cfg = review(
        tmp_path,
        "interrupt_on: { add: true }",
        replies=[reply("", call("add", {"a": 1, "b": 1}, "k1")), "ok"],
    )
    a.invoke(ask(), cfg)
    out = a.invoke(Command(resume={"decisions": [{"type": "reject", "message": "no"}]}), cfg)
    assert out["messages"][2].content == "User rejected the tool call for `add` with reason: no"


def test_D12_edit_runs_the_reviewers_call_with_notice(tmp_path):
    a, cfg = review(tmp_path, "interrupt_on: { add: true }")
    a.invoke(ask(), cfg)
    result = a.invoke(
        Command(
            resume={
                "decisions": [
                    {"type": "edit", "edited_action": {"name": "add", "args": {"a": 10, "b": 1}}}
                ]
            }
        ),
        cfg,
    )
    ai = result["messages"][1]
    assert ai.tool_calls[0].args == {"a": 2, "b": 3}  # the model's own call stays
    answer = next(m for m in result["messages"] if m.type == "tool" and m.tool_call_id == "c1")
    assert answer.content == (
        f"{EDIT_NOTICE} Executed instead: add with arguments "
        '{"a": 10, "b": 1}.\n\nTool response:\n11'
    )


def test_D9_per_call_mode_one_interrupt_per_call(tmp_path):
    a, cfg = review(
        tmp_path, 'interrupt_on: { add: true, multiply: true }, interrupt_mode: "per_call"'
    )
    paused = a.invoke(ask(), cfg)
    values = sorted((i.value["name"], i.value["type"]) for i in paused["__interrupt__"])
    assert values == [("add", "tool_approval"), ("multiply", "tool_approval")]
    answers = {
        i.id: (
            {"type": "approve"}
            if i.value["name"] == "add"
            else {"type": "respond", "message": "42"}
        )
        for i in paused["__interrupt__"]
    }
    result = a.invoke(Command(resume=answers), cfg)
    tools = {m.tool_call_id: m.content for m in result["messages"] if m.type == "tool"}
    assert tools == {"c1": "5", "c2": "42"}
    assert result["messages"][-1].content == "done"


def test_D10_review_needs_a_checkpointer_checked(tmp_path):
    from agentc.api import LoadError

    with pytest.raises(LoadError, match="needs a checkpointer"):
        agent(
            tmp_path,
            replies_=["x"],
            tools="kit.add",
            middleware="human_review { interrupt_on: { add: true } }",
        )
