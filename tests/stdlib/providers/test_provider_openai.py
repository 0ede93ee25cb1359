"""OpenAI chat completions over a real socket against the fake server."""

from __future__ import annotations

import json

import pytest
from support.provider_kit import OPENAI_KEY, ask, collect, openai_model, run

from agentc.stdlib.messages import AIMessage, HumanMessage, InvalidToolCall, ToolCall, ToolMessage
from agentc.stdlib.providers.assemble import assemble
from agentc.stdlib.providers.base import ModelRequest, ResponseFormat, ToolDefinition
from agentc.stdlib.providers.errors import MissingAPIKeyError
from agentc.stdlib.providers.registry import model_spec, resolve_model
from agentc.testing.fake_provider import FakeReply, FakeToolCall

ADD = ToolDefinition(
    "add",
    "Add two numbers.",
    {
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"],
    },
)


def test_generate_text_and_wire_format(fake_server, keys):
    fake_server.push(FakeReply(text="Hello there", input_tokens=12, output_tokens=3))
    model = openai_model(fake_server, temperature=0, max_tokens=50)
    message = run(model.generate(ask("hi")))
    assert message.text == "Hello there"
    assert message.usage_metadata.input_tokens == 12
    assert message.usage_metadata.total_tokens == 15
    assert message.response_metadata["finish_reason"] == "stop"
    sent = fake_server.requests[0]
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {OPENAI_KEY}"
    assert sent.body["model"] == "gpt-4o-mini"
    assert sent.body["temperature"] == 0
    assert sent.body["max_completion_tokens"] == 50 and "max_tokens" not in sent.body
    assert sent.body["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hi"},
    ]
    assert "tools" not in sent.body and "stream" not in sent.body


def test_B6_tool_choice_any_is_required_and_tools_sent(fake_server, keys):
    fake_server.push(FakeReply(tool_calls=[FakeToolCall("add", '{"a": 1, "b": 2}', "call_1")]))
    model = openai_model(fake_server)
    message = run(model.generate(ask("1+2", tools=(ADD,), tool_choice="any")))
    assert message.tool_calls == [ToolCall(name="add", args={"a": 1, "b": 2}, id="call_1")]
    body = fake_server.requests[0].body
    assert body["tool_choice"] == "required"
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "add",
                "description": "Add two numbers.",
                "parameters": ADD.parameters,
            },
        }
    ]


@pytest.mark.parametrize(
    "choice, wire",
    [
        (None, None),
        ("auto", "auto"),
        ("none", "none"),
        ("add", {"type": "function", "function": {"name": "add"}}),
    ],
)
def test_B6_tool_choice_mapping(fake_server, keys, choice, wire):
    fake_server.push(FakeReply(text="x"))
    run(openai_model(fake_server).generate(ask(tools=(ADD,), tool_choice=choice)))
    assert fake_server.requests[0].body.get("tool_choice") == wire


def test_C4_invalid_and_empty_arguments(fake_server, keys):
    fake_server.push(
        FakeReply(tool_calls=[FakeToolCall("add", '{"a": 1,', "c1"), FakeToolCall("now", "", "c2")])
    )
    message = run(openai_model(fake_server).generate(ask(tools=(ADD,))))
    assert message.tool_calls == [ToolCall(name="now", args={}, id="c2")]
    [bad] = message.invalid_tool_calls
    assert (bad.name, bad.args, bad.id) == ("add", '{"a": 1,', "c1")
    assert "not valid JSON" in bad.error


def test_C4_streaming_assembles_partial_tool_json(fake_server, keys):
    args = json.dumps({"a": 123456, "b": [1, 2, 3], "note": "split across chunks"})
    fake_server.push(
        FakeReply(
            text="Let me add. ",
            tool_calls=[FakeToolCall("add", args, "c1"), FakeToolCall("add", '{"a": 1', "c2")],
        )
    )
    deltas = run(collect(openai_model(fake_server), ask(tools=(ADD,))))
    assert len(deltas) > 6  # really streamed in pieces
    message = assemble(deltas)
    assert message.text == "Let me add. "
    assert message.tool_calls == [ToolCall(name="add", args=json.loads(args), id="c1")]
    assert [c.id for c in message.invalid_tool_calls] == ["c2"]
    assert message.usage_metadata.output_tokens == 7
    assert message.response_metadata["finish_reason"] == "tool_calls"
    body = fake_server.requests[0].body
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}


def test_stream_and_generate_agree(fake_server, keys):
    reply = FakeReply(text="The answer is 42.", tool_calls=[FakeToolCall("add", '{"a":1}', "c")])
    fake_server.push(reply, reply)
    model = openai_model(fake_server)
    whole = run(model.generate(ask()))
    streamed = assemble(run(collect(model, ask())))
    assert streamed.text == whole.text
    assert streamed.tool_calls == whole.tool_calls
    assert streamed.usage_metadata == whole.usage_metadata


def test_B7_native_structured_output(fake_server, keys):
    fake_server.push(FakeReply(text='{"answer": 4}'))
    fmt = ResponseFormat(
        "Answer",
        {"type": "object", "properties": {"answer": {"type": "integer"}}, "required": ["answer"]},
        strict=True,
    )
    message = run(openai_model(fake_server).generate(ask(tools=(ADD,), response_format=fmt)))
    assert json.loads(message.text) == {"answer": 4}
    body = fake_server.requests[0].body
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Answer", "schema": fmt.schema, "strict": True},
    }
    # B7: tools are made strict beside a provider-strategy format, objects closed.
    fn = body["tools"][0]["function"]
    assert fn["strict"] is True and fn["parameters"]["additionalProperties"] is False


def test_history_with_tools_and_images_round_trips(fake_server, keys):
    fake_server.push(FakeReply(text="done"))
    history = (
        HumanMessage(
            content=[
                {"type": "text", "text": "what is this?"},
                {"type": "image", "url": "https://x/y.png"},
            ],
            name="ann",
        ),
        AIMessage(
            content="",
            tool_calls=[ToolCall(name="add", args={"a": 1}, id="c1")],
            invalid_tool_calls=[InvalidToolCall(name="add", args="{bad", id="c2")],
        ),
        ToolMessage(content="3", tool_call_id="c1"),
        ToolMessage(content="bad args", tool_call_id="c2", status="error"),
    )
    run(openai_model(fake_server).generate(ModelRequest(messages=history)))
    sent = fake_server.requests[0].body["messages"]
    assert sent[0] == {
        "role": "user",
        "name": "ann",
        "content": [
            {"type": "text", "text": "what is this?"},
            {"type": "image_url", "image_url": {"url": "https://x/y.png"}},
        ],
    }
    assert sent[1]["content"] is None
    assert sent[1]["tool_calls"] == [
        {"id": "c1", "type": "function", "function": {"name": "add", "arguments": '{"a": 1}'}},
        {"id": "c2", "type": "function", "function": {"name": "add", "arguments": "{bad"}},
    ]
    assert sent[2] == {"role": "tool", "tool_call_id": "c1", "content": "3"}


def test_missing_key_names_the_variable(fake_server, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(MissingAPIKeyError, match="OPENAI_API_KEY"):
        openai_model(fake_server)
    monkeypatch.setenv("MY_KEY", "sk-mine-123456")
    model = openai_model(fake_server, api_key_env="MY_KEY")
    fake_server.push(FakeReply(text="ok"))
    run(model.generate(ask()))
    assert fake_server.requests[0].headers["authorization"] == "Bearer sk-mine-123456"


def test_A3_base_url_from_environment_and_headers(fake_server, keys, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", fake_server.openai_base_url)
    model = resolve_model(model_spec("gpt-4o", {"headers": {"X-Team": "blue"}}))
    assert model.endpoint_url == fake_server.openai_base_url + "/chat/completions"
    fake_server.push(FakeReply(text="ok"))
    run(model.generate(ask()))
    assert fake_server.requests[0].headers["x-team"] == "blue"
    assert OPENAI_KEY not in repr(model) and OPENAI_KEY not in model.describe()


def test_openai_compatible_preset_without_key(fake_server, monkeypatch):
    monkeypatch.setenv("OLLAMA_BASE_URL", fake_server.openai_base_url)
    model = resolve_model(model_spec("ollama:llama3:8b", {"max_tokens": 9}))
    fake_server.push(FakeReply(text="hi"))
    assert run(model.generate(ask())).text == "hi"
    sent = fake_server.requests[0]
    assert "authorization" not in sent.headers
    assert sent.body["model"] == "llama3:8b" and sent.body["max_tokens"] == 9
