"""D12: a reject/respond answer is marked as the harness's (LangChain 1.5.2's notification
metadata, `lc_source` / `lc_data` in `additional_kwargs`), and no provider sends the marks."""

from __future__ import annotations

import pytest
from support.mwkit import Command, RunConfig, agent, ask, call, reply

from agentc.stdlib.messages import ToolMessage
from agentc.stdlib.providers.anthropic import format_messages as anthropic_messages
from agentc.stdlib.providers.base import ModelProfile
from agentc.stdlib.providers.openai import format_messages as openai_messages

TWO = reply("", call("add", {"a": 2, "b": 3}, "c1"), call("multiply", {"a": 2, "b": 3}, "c2"))
DECISIONS = [
    [{"type": "approve"}, {"type": "reject"}],
    [{"type": "respond", "message": "six"}, {"type": "reject", "message": "no"}],
]


def _run(tmp_path, decisions, mode="batched"):
    a = agent(
        tmp_path,
        replies_=[TWO, "done"],
        tools="kit.add, kit.multiply",
        middleware=(
            "human_review { interrupt_on: { add: true, multiply: true }, "
            f'interrupt_mode: "{mode}" }}'
        ),
        extra="checkpoint memory",
    )
    rc = RunConfig(thread_id="1")
    paused = a.invoke(ask(), rc)
    if mode == "batched":
        out = a.invoke(Command(resume={"decisions": decisions}), rc)
    else:  # one pause per call, answered by interrupt id
        ids = [i.id for i in paused["__interrupt__"]]
        out = a.invoke(Command(resume=dict(zip(ids, decisions, strict=True))), rc)
    tools = {m.tool_call_id: m for m in out["messages"] if isinstance(m, ToolMessage)}
    return [tools["c1"], tools["c2"]]


@pytest.mark.parametrize("decisions", DECISIONS)
def test_D12_reject_and_respond_answers_carry_the_decision(tmp_path, decisions):
    tools = _run(tmp_path, decisions)
    for message, decision in zip(tools, decisions, strict=True):
        if decision["type"] == "approve":
            assert message.additional_kwargs == {}
        else:
            assert message.additional_kwargs == {
                "lc_source": "hitl_interrupt_decision",
                "lc_data": {"decision": decision["type"]},
            }


def test_D12_per_call_answers_carry_the_decision_too(tmp_path):
    tools = _run(tmp_path, [{"type": "reject"}, {"type": "respond", "message": "6"}], "per_call")
    assert [m.additional_kwargs["lc_data"] for m in tools] == [
        {"decision": "reject"},
        {"decision": "respond"},
    ]


def test_D12_providers_never_send_the_marks():
    marked = ToolMessage(
        content="User rejected",
        tool_call_id="c1",
        name="add",
        status="error",
        additional_kwargs={"lc_source": "hitl_interrupt_decision", "lc_data": {"decision": "x"}},
    )
    assert "lc_" not in repr(openai_messages([marked]))
    assert "lc_" not in repr(anthropic_messages([marked], ModelProfile()))


lc = pytest.importorskip("langchain.agents", reason="langchain (the oracle) is not installed")


@pytest.mark.parametrize("decisions", DECISIONS)
def test_D12_decision_metadata_matches_langchain(tmp_path, decisions):
    from langchain.agents import create_agent
    from langchain.agents.middleware import HumanInTheLoopMiddleware
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command as LcCommand

    class FakeToolModel(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):
            return self

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @tool
    def multiply(a: int, b: int) -> int:
        """Multiply two integers."""
        return a * b

    script = iter([AIMessage(content="", tool_calls=TWO["tool_calls"]), AIMessage("done")])
    lc_agent = create_agent(
        model=FakeToolModel(messages=script),
        tools=[add, multiply],
        middleware=[HumanInTheLoopMiddleware(interrupt_on={"add": True, "multiply": True})],
        checkpointer=InMemorySaver(),
    )
    cfg = {"configurable": {"thread_id": "1"}}
    lc_agent.invoke(ask(), cfg)
    out = lc_agent.invoke(LcCommand(resume={"decisions": decisions}), cfg)
    theirs = {m.tool_call_id: m.additional_kwargs for m in out["messages"] if m.type == "tool"}
    ours = {m.tool_call_id: m.additional_kwargs for m in _run(tmp_path, decisions)}
    assert ours == theirs
