"""F8, F9: model and tool call limits on `.agent` files with the scripted model."""

from __future__ import annotations

import pytest
from support.mwkit import RunConfig, agent, ask, call, contents, reply

from agentc.stdlib.middleware.call_limits import (
    ModelCallLimitExceededError,
    ToolCallLimitExceededError,
)

LOOP = [reply("", call("add", {"a": 1, "b": 2}, f"c{i}")) for i in range(5)] + ["done"]


def test_F8_run_limit_ends_with_message(tmp_path):
    a = agent(tmp_path, replies_=LOOP, tools="kit.add", middleware="model_call_limit { run: 2 }")
    result = a.invoke(ask())
    assert result["messages"][-1].content == "Model call limits exceeded: run limit (2/2)"
    assert [t for t, _ in contents(result)] == ["human", "ai", "tool", "ai", "tool", "ai"]


def test_F8_error_behavior_raises(tmp_path):
    a = agent(
        tmp_path,
        replies_=LOOP,
        tools="kit.add",
        middleware='model_call_limit { run: 1, exit_behavior: "error" }',
    )
    with pytest.raises(ModelCallLimitExceededError, match=r"run limit \(1/1\)"):
        a.invoke(ask())


def test_F8_thread_limit_counts_across_runs_run_limit_resets(tmp_path):
    a = agent(
        tmp_path,
        replies_=["one", "two", "three", "four"],
        middleware="model_call_limit { thread: 3, run: 1 }",
        extra="checkpoint memory",
    )
    cfg = RunConfig(thread_id="t")
    assert a.invoke(ask(), cfg)["messages"][-1].content == "one"
    assert a.invoke(ask(), cfg)["messages"][-1].content == "two"  # run count reset
    assert a.invoke(ask(), cfg)["messages"][-1].content == "three"
    last = a.invoke(ask(), cfg)["messages"][-1].content
    assert last == "Model call limits exceeded: thread limit (3/3)"


def test_F9_continue_answers_calls_over_the_limit(tmp_path):
    first = reply("", call("add", {"a": 1, "b": 2}, "c1"), call("add", {"a": 3, "b": 4}, "c2"))
    a = agent(
        tmp_path, replies_=[first, "done"], tools="kit.add", middleware="tool_call_limit { run: 1 }"
    )
    result = a.invoke(ask())
    tool_msgs = [m for m in result["messages"] if m.type == "tool"]
    assert [(m.tool_call_id, m.content, m.status) for m in tool_msgs] == [
        ("c2", "Tool call limit exceeded. Do not make additional tool calls.", "error"),
        ("c1", "3", "success"),
    ]
    assert result["messages"][-1].content == "done"


def test_F9_per_tool_filter_and_end(tmp_path):
    first = reply("", call("add", {"a": 1, "b": 2}, "c1"), call("multiply", {"a": 3, "b": 4}, "c2"))
    second = reply(
        "", call("add", {"a": 1, "b": 1}, "c3"), call("multiply", {"a": 1, "b": 1}, "c4")
    )
    a = agent(
        tmp_path,
        replies_=[first, second, "done"],
        tools="kit.add, kit.multiply",
        middleware='tool_call_limit { tool_name: "add", run: 1, exit_behavior: "end" }',
    )
    result = a.invoke(ask())
    last = result["messages"][-4:]
    assert [(m.type, m.content) for m in last] == [
        ("ai", ""),
        ("tool", "Tool call limit exceeded. Do not call 'add' again."),
        (
            "tool",
            "Execution stopped before this tool call could run because another tool "
            "call in the same batch exceeded the limit.",
        ),
        ("ai", "'add' tool call limit reached: run limit exceeded (2/1 calls)."),
    ]


def test_F9_error_behavior(tmp_path):
    first = reply("", call("add", {"a": 1, "b": 2}, "c1"), call("add", {"a": 3, "b": 4}, "c2"))
    a = agent(
        tmp_path,
        replies_=[first, "done"],
        tools="kit.add",
        middleware='tool_call_limit { run: 1, exit_behavior: "error" }',
    )
    with pytest.raises(ToolCallLimitExceededError):
        a.invoke(ask())
