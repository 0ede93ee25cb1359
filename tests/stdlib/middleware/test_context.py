"""F4–F7: summarization and context editing."""

from __future__ import annotations

from support.mwkit import agent, ask, call, contents, model_calls, reply

from agentc.stdlib.messages import AIMessage, HumanMessage, ToolCall, ToolMessage
from agentc.stdlib.middleware.summarization import Summarization, safe_cutoff


def history(n_pairs: int) -> list:
    out = []
    for i in range(n_pairs):
        out += [HumanMessage(content=f"q{i}", id=f"h{i}"), AIMessage(content=f"a{i}", id=f"a{i}")]
    return out


def test_F6_cut_keeps_tool_pairs():
    msgs = [
        HumanMessage(content="q"),
        AIMessage(
            content="",
            tool_calls=[
                ToolCall(name="add", args={}, id="c1"),
                ToolCall(name="add", args={}, id="c2"),
            ],
        ),
        ToolMessage(content="1", tool_call_id="c1"),
        ToolMessage(content="2", tool_call_id="c2"),
        AIMessage(content="done"),
    ]
    assert safe_cutoff(msgs, 2) == 1  # a cut on a tool result moves back to its AI call
    assert safe_cutoff(msgs, 3) == 1
    assert safe_cutoff(msgs, 4) == 4
    assert safe_cutoff(msgs, 1) == 1


def test_F6_default_keep_is_20_messages():
    s = Summarization(model=None, trigger=["messages", 5])
    assert s.cutoff(history(10)) == 0  # 20 messages: nothing to summarise
    assert s.cutoff(history(11)) == 2


def test_F4_no_trigger_never_summarizes():
    s = Summarization(model=None)
    assert not s.should_summarize(history(100), 10**9)


def test_F4_F5_summary_replaces_older_messages(tmp_path):
    (tmp_path / "summary.json").write_text('["SUMMARY TEXT"]')
    a = agent(
        tmp_path,
        replies_=["final"],
        middleware='summarization { model: "scripted:summary.json", trigger: '
        "messages(4), keep: messages(2) }",
    )
    msgs = [
        {"role": "user", "content": "q1"},
        {"role": "assistant", "content": "a1"},
        {"role": "user", "content": "q2"},
        {"role": "assistant", "content": "a2"},
        {"role": "user", "content": "q3"},
    ]
    result = a.invoke({"messages": msgs})
    got = contents(result)
    assert got[0] == ("human", "Here is a summary of the conversation to date:\n\nSUMMARY TEXT")
    assert got[1:] == [("ai", "a2"), ("human", "q3"), ("ai", "final")]
    from agentc.stdlib.providers.scripted import CREATED

    summariser = next(m for m in CREATED if m.replies and m.replies[0].content == "SUMMARY TEXT")
    prompt = summariser.calls[0].messages[0].content
    assert '<message type="human">q1</message>' in prompt and "q3" not in prompt


def test_F5_no_human_message_in_window_uses_placeholder():
    import asyncio

    s = Summarization(model=None, trigger=["messages", 1])
    out = asyncio.run(s.summarize([AIMessage(content="only ai")]))
    assert out == "Previous conversation was too long to summarize."


def test_F7_clears_old_tool_results_in_request_not_state(tmp_path):
    first = reply("", call("fetch_report", {"topic": "sales"}, "c1"))
    a = agent(
        tmp_path,
        replies_=[first, "Summarised."],
        tools="kit.fetch_report",
        middleware='context_editing { edits: [{ type: "clear_tool_uses", trigger: 1, keep: 0 }] }',
    )
    result = a.invoke(ask("report?"))
    seen = model_calls()[1].messages[-1]
    assert seen.content == "[cleared]"
    assert result["messages"][2].content.startswith("LONG REPORT LONG REPORT")


def test_F7_below_trigger_and_keep_leave_results(tmp_path):
    first = reply("", call("fetch_report", {"topic": "sales"}, "c1"))
    a = agent(
        tmp_path, replies_=[first, "ok"], tools="kit.fetch_report", middleware="context_editing"
    )
    a.invoke(ask("report?"))
    assert model_calls()[1].messages[-1].content.startswith("LONG REPORT")  # default 100k


def test_F7_exclude_tools_and_clear_inputs():
    from agentc.stdlib.middleware.context_editing import ClearToolUsesEdit
    from agentc.stdlib.middleware.tokens import count_tokens_approximately as count

    msgs = [
        HumanMessage(content="q"),
        AIMessage(
            content="",
            tool_calls=[
                ToolCall(name="a", args={"x": 1}, id="1"),
                ToolCall(name="b", args={"y": 2}, id="2"),
            ],
        ),
        ToolMessage(content="A" * 50, tool_call_id="1", name="a"),
        ToolMessage(content="B" * 50, tool_call_id="2", name="b"),
    ]
    edit = ClearToolUsesEdit(trigger=1, keep=0, exclude_tools=("b",), clear_tool_inputs=True)
    edit.apply(msgs, count_tokens=count)
    assert msgs[2].content == "[cleared]" and msgs[3].content == "B" * 50
    assert msgs[1].tool_calls[0].args == {} and msgs[1].tool_calls[1].args == {"y": 2}
