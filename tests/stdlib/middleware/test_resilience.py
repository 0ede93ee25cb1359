"""H4, E8, E3: model fallback, model/tool retry and tool errors as replies."""

from __future__ import annotations

import pytest
from support.mwkit import agent, ask, call, reply


def test_H4_fallback_model_answers_when_the_model_fails(tmp_path):
    (tmp_path / "fb.json").write_text('["from fallback"]')
    a = agent(tmp_path, replies_=[], middleware='model_fallback { models: ["scripted:fb.json"] }')
    assert a.invoke(ask())["messages"][-1].content == "from fallback"


def test_H4_every_fallback_failing_raises_the_last_error(tmp_path):
    (tmp_path / "fb.json").write_text("[]")
    from agentc.stdlib.providers.scripted import ScriptedRepliesExhausted

    a = agent(tmp_path, replies_=[], middleware='model_fallback { models: ["scripted:fb.json"] }')
    with pytest.raises(ScriptedRepliesExhausted):
        a.invoke(ask())


def test_E8_model_retry_continue_message(tmp_path):
    a = agent(
        tmp_path,
        replies_=[],
        middleware="model_retry { max_retries: 1, initial_delay: 0, jitter: false }",
    )
    text = a.invoke(ask())["messages"][-1].content
    assert text.startswith("Model call failed after 2 attempts with ScriptedRepliesExhausted: ")


def test_E8_model_retry_error_reraises(tmp_path):
    from agentc.stdlib.providers.scripted import ScriptedRepliesExhausted

    a = agent(
        tmp_path, replies_=[], middleware='model_retry { max_retries: 0, on_failure: "error" }'
    )
    with pytest.raises(ScriptedRepliesExhausted):
        a.invoke(ask())


def test_E3_tool_retry_recovers_a_flaky_tool(tmp_path):
    a = agent(
        tmp_path,
        replies_=[reply("", call("flaky", {"x": 7}, "c1")), "ok"],
        tools="kit.flaky",
        middleware="tool_retry { max_retries: 2, initial_delay: 0 }",
    )
    result = a.invoke(ask())
    assert result["messages"][2].content == "7"


def test_E3_tool_retry_failure_message(tmp_path):
    a = agent(
        tmp_path,
        replies_=[reply("", call("broken", {"x": 1}, "c1")), "ok"],
        tools="kit.broken",
        middleware='tool_retry { max_retries: 1, initial_delay: 0, retry_on: ["ValueError"] }',
    )
    result = a.invoke(ask())
    assert result["messages"][2].content == (
        "Tool 'broken' failed after 2 attempts with ValueError: bad input. Please try again."
    )
    assert result["messages"][2].status == "error"


def test_E3_without_middleware_a_tool_error_stops_the_run(tmp_path):
    from support.mwkit import write

    from agentc.api import load_agent

    path = write(
        tmp_path,
        """
    agent a {
      model "scripted" { replies: [{ tool_calls: [{ name: "broken", args: { x: 1 }, id: "c1" }] }] }
      tools [kit.broken]
    }
    """,
    )
    with pytest.raises(ValueError, match="bad input"):
        load_agent(path).invoke(ask())


def test_E3_tool_error_turns_the_exception_into_a_reply(tmp_path):
    a = agent(
        tmp_path,
        replies_=[reply("", call("broken", {"x": 1}, "c1")), "sorry"],
        tools="kit.broken",
        middleware="tool_error",
    )
    result = a.invoke(ask())
    assert (result["messages"][2].content, result["messages"][2].status) == (
        "Error: bad input",
        "error",
    )
    assert result["messages"][-1].content == "sorry"


def test_E3_tool_error_custom_handler(tmp_path):
    py = (
        "\ndef explain(error, request):\n    return f'{request.tool_call[\"name\"]} said {error}'\n"
    )
    a = agent(
        tmp_path,
        replies_=[reply("", call("broken", {"x": 1}, "c1")), "sorry"],
        tools="kit.broken",
        middleware="tool_error { on_error: kit.explain }",
        extra_py=py,
    )
    assert a.invoke(ask())["messages"][2].content == "broken said bad input"
