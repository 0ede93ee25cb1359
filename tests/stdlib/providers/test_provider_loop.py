"""The tool loop over real HTTP: model asks for a tool, the tool runs, the model answers."""

from __future__ import annotations

import json

import pytest
from support.provider_kit import OPENAI_KEY, anthropic_model, ask, openai_model, run

from agentc.stdlib.messages import ToolMessage
from agentc.stdlib.providers.assemble import assemble
from agentc.stdlib.providers.base import ModelRequest, ToolDefinition
from agentc.stdlib.providers.errors import redact
from agentc.stdlib.providers.registry import endpoint_for, model_spec
from agentc.testing.fake_provider import FakeReply, FakeToolCall

ADD = ToolDefinition(
    "add",
    "Add.",
    {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
)


async def _loop(model, stream: bool):
    request = ask("what is 2+3?", tools=(ADD,))
    for _ in range(4):
        reply = (
            assemble([d async for d in model.stream(request)])
            if stream
            else await model.generate(request)
        )
        if not reply.tool_calls:
            return reply, request
        results = tuple(
            ToolMessage(content=str(c.args["a"] + c.args["b"]), tool_call_id=c.id)
            for c in reply.tool_calls
        )
        request = ModelRequest(messages=request.messages + (reply,) + results, tools=(ADD,))
    raise AssertionError("loop did not end")


@pytest.mark.parametrize("make", [openai_model, anthropic_model])
@pytest.mark.parametrize("stream", [False, True])
def test_tool_loop_completes(fake_server, keys, make, stream):
    fake_server.push(
        FakeReply(tool_calls=[FakeToolCall("add", '{"a": 2, "b": 3}', "c1")]),
        FakeReply(text="The answer is 5."),
    )
    reply, last = run(_loop(make(fake_server), stream))
    assert reply.text == "The answer is 5."
    second = json.dumps(fake_server.requests[1].body)
    assert '"c1"' in second and "5" in second  # the tool result went back on the wire


def test_A3_endpoint_for_needs_no_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert endpoint_for(model_spec("gpt-4o")) == (
        "POST https://api.openai.com/v1/chat/completions (key from $OPENAI_API_KEY)"
    )
    assert endpoint_for(model_spec("claude-3-5-haiku", {"base_url": "http://h:1"})) == (
        "POST http://h:1/v1/messages (key from $ANTHROPIC_API_KEY)"
    )


def test_redact_for_cli_output(fake_server, keys):
    openai_model(fake_server)  # reading the key registers it
    assert redact(f'{{"auth": "Bearer {OPENAI_KEY}"}}') == '{"auth": "[REDACTED]"}'
