"""Anthropic messages over a real socket against the fake server; B9 system placement."""

from __future__ import annotations

import dataclasses
import json

import pytest
from support.provider_kit import ANTHROPIC_KEY, anthropic_model, ask, collect, run

from agentc.stdlib.messages import AIMessage, HumanMessage, SystemMessage, ToolCall, ToolMessage
from agentc.stdlib.providers.anthropic import SystemMessagePlacementError, format_messages
from agentc.stdlib.providers.assemble import assemble
from agentc.stdlib.providers.base import ModelProfile, ModelRequest, ResponseFormat, ToolDefinition
from agentc.testing.fake_provider import FakeReply, FakeToolCall

ADD = ToolDefinition("add", "Add.", {"type": "object", "properties": {"a": {"type": "number"}}})


def test_generate_wire_format(fake_server, keys):
    fake_server.push(FakeReply(text="Hi!", input_tokens=20, output_tokens=2))
    message = run(anthropic_model(fake_server, temperature=0.5, stop=["END"]).generate(ask()))
    assert message.text == "Hi!"
    assert (message.usage_metadata.input_tokens, message.usage_metadata.total_tokens) == (20, 22)
    assert message.response_metadata["stop_reason"] == "end_turn"
    sent = fake_server.requests[0]
    assert sent.path == "/v1/messages"
    assert sent.headers["x-api-key"] == ANTHROPIC_KEY
    assert sent.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in sent.headers
    assert sent.body["system"] == "be brief"
    assert sent.body["messages"] == [{"role": "user", "content": "hi"}]
    assert sent.body["max_tokens"] == 64000  # from the profile when the file sets none
    assert sent.body["stop_sequences"] == ["END"] and sent.body["temperature"] == 0.5


def test_default_max_tokens_for_unknown_model(fake_server, keys):
    fake_server.push(FakeReply(text="x"))
    run(anthropic_model(fake_server, name="claude-future-9").generate(ask()))
    assert fake_server.requests[0].body["max_tokens"] == 4096


def test_tools_tool_choice_and_tool_use(fake_server, keys):
    fake_server.push(FakeReply(text="adding", tool_calls=[FakeToolCall("add", '{"a": 2}', "t1")]))
    message = run(anthropic_model(fake_server).generate(ask(tools=(ADD,), tool_choice="any")))
    assert message.tool_calls == [ToolCall(name="add", args={"a": 2}, id="t1")]
    assert message.response_metadata["stop_reason"] == "tool_use"
    body = fake_server.requests[0].body
    assert body["tool_choice"] == {"type": "any"}
    assert body["tools"] == [{"name": "add", "description": "Add.", "input_schema": ADD.parameters}]


def test_stream_assembles_tool_input_json(fake_server, keys):
    args = json.dumps({"a": 98765, "why": "because partial json arrives in pieces"})
    fake_server.push(
        FakeReply(
            text="Sure. ",
            tool_calls=[
                FakeToolCall("add", args, "t1"),
                FakeToolCall("now", "", "t2"),
                FakeToolCall("add", '{"a": ', "t3"),
            ],
            input_tokens=30,
            output_tokens=9,
        )
    )
    message = assemble(run(collect(anthropic_model(fake_server), ask(tools=(ADD,)))))
    assert message.text == "Sure. "
    assert message.tool_calls == [
        ToolCall(name="add", args=json.loads(args), id="t1"),
        ToolCall(name="now", args={}, id="t2"),
    ]  # C4: empty → {}
    assert [c.id for c in message.invalid_tool_calls] == ["t3"]
    assert (message.usage_metadata.input_tokens, message.usage_metadata.output_tokens) == (30, 9)
    assert message.response_metadata["finish_reason"] == "tool_use"
    assert message.id.startswith("msg_")


def test_history_tool_results_merge_into_one_user_turn(fake_server, keys):
    fake_server.push(FakeReply(text="ok"))
    history = (
        SystemMessage(content="sys"),
        HumanMessage(content="go"),
        AIMessage(
            content="",
            tool_calls=[
                ToolCall(name="add", args={"a": 1}, id="t1"),
                ToolCall(name="add", args={"a": 2}, id="t2"),
            ],
        ),
        ToolMessage(content="1", tool_call_id="t1"),
        ToolMessage(content="boom", tool_call_id="t2", status="error"),
    )
    run(anthropic_model(fake_server).generate(ModelRequest(messages=history)))
    sent = fake_server.requests[0].body["messages"]
    assert sent[1] == {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "t1", "name": "add", "input": {"a": 1}},
            {"type": "tool_use", "id": "t2", "name": "add", "input": {"a": 2}},
        ],
    }
    assert sent[2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "1"},
            {"type": "tool_result", "tool_use_id": "t2", "content": "boom", "is_error": True},
        ],
    }


def test_native_structured_output(fake_server, keys):
    fake_server.push(FakeReply(text='{"x": 1}'))
    fmt = ResponseFormat("Out", {"type": "object", "properties": {"x": {"type": "integer"}}})
    run(anthropic_model(fake_server).generate(ask(response_format=fmt)))
    out = fake_server.requests[0].body["output_config"]["format"]
    assert out["type"] == "json_schema" and out["schema"]["additionalProperties"] is False


def test_image_blocks_become_sources():
    _, turns = format_messages(
        [
            HumanMessage(
                content=[
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
                    {"type": "image_url", "image_url": {"url": "https://x/y.png"}},
                ]
            )
        ],
        ModelProfile(),
    )
    assert turns[0]["content"] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}},
        {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}},
    ]


# ---------------------------------------------------------------- B9


def test_B9_consecutive_leading_systems_merge():
    system, turns = format_messages(
        [SystemMessage(content="a"), SystemMessage(content="b"), HumanMessage(content="hi")],
        ModelProfile(),
    )
    assert system == [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    assert turns == [{"role": "user", "content": "hi"}]


def test_B9_later_system_raises_when_leading_exists():
    with pytest.raises(SystemMessagePlacementError, match="B9"):
        format_messages(
            [
                SystemMessage(content="a"),
                HumanMessage(content="hi"),
                SystemMessage(content="later"),
            ],
            ModelProfile(),
        )


def test_B9_later_system_without_leading_moves_to_top_with_warning():
    with pytest.warns(UserWarning, match="moved to the top"):
        system, turns = format_messages(
            [HumanMessage(content="hi"), SystemMessage(content="later")], ModelProfile()
        )
    assert system == "later" and turns == [{"role": "user", "content": "hi"}]


def test_B9_in_place_when_profile_allows_and_after_user_turn():
    profile = dataclasses.replace(ModelProfile(), mid_conversation_system_messages=True)
    system, turns = format_messages(
        [
            SystemMessage(content="a"),
            HumanMessage(content="hi"),
            SystemMessage(content="now terse"),
        ],
        profile,
    )
    assert system == "a"
    assert turns[-1] == {"role": "system", "content": [{"type": "text", "text": "now terse"}]}
    # …but not after a plain assistant turn:
    with pytest.raises(SystemMessagePlacementError):
        format_messages(
            [
                SystemMessage(content="a"),
                HumanMessage(content="hi"),
                AIMessage(content="yo"),
                SystemMessage(content="x"),
            ],
            profile,
        )
