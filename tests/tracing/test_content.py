"""Contents on spans: none by default; messages, prompts, tool arguments and results when
turned on, passed through the file's `pii` redaction; an API key never, not even when a
user pastes it into a message (a real OpenAI wire, served by the fake provider)."""

from __future__ import annotations

import json

import pytest
from tracing_kit import Spans, all_values, ask, team_text, write

import agentc
from agentc.testing.fake_wire import FakeReply, FakeToolCall

CONTENT_KEYS = (
    "gen_ai.input.messages",
    "gen_ai.output.messages",
    "gen_ai.system_instructions",
    "gen_ai.tool.call.arguments",
    "gen_ai.tool.call.result",
    "input.value",
    "output.value",
)


@pytest.fixture
def spans() -> Spans:
    return Spans()


def test_no_contents_by_default(tmp_path, spans, monkeypatch):
    monkeypatch.delenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", raising=False)
    path = write(tmp_path, team_text())
    spans.run(path, "lead", ask("a secret question"))
    for span in spans.finished:
        assert not set(CONTENT_KEYS) & set(span.attributes), span.name
    text = all_values(spans.finished)
    for words in ("a secret question", "You lead the team", "found 3", "find it", "Done: 3"):
        assert words not in text


def test_contents_when_turned_on(tmp_path, spans):
    path = write(tmp_path, team_text())
    spans.run(path, "lead", ask("a question"), content=True)
    first = next(s for s in spans.named("chat scripted") if s.attributes["agentc.superstep"] == 1)
    sent = json.loads(first.attributes["gen_ai.input.messages"])
    assert sent == [{"role": "user", "parts": [{"type": "text", "content": "a question"}]}]
    prompt = json.loads(first.attributes["gen_ai.system_instructions"])
    assert prompt == [{"type": "text", "content": "You lead the team."}]
    reply = json.loads(first.attributes["gen_ai.output.messages"])
    assert reply[0]["parts"][0]["name"] == "researcher"
    tool = dict(spans.one("execute_tool researcher").attributes)
    assert json.loads(tool["gen_ai.tool.call.arguments"]) == {"request": "find it"}
    assert tool["gen_ai.tool.call.result"] == "found 3"
    root = dict(spans.one("invoke_agent lead").attributes)
    assert root["output.value"] == "Done: 3"


def test_the_content_variable_turns_contents_on(tmp_path, spans, monkeypatch):
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    path = write(tmp_path, team_text())
    graph = agentc.tracing.instrument(
        agentc.load_agent(path, "lead"), tracer_provider=spans.provider
    )
    graph.invoke(ask("a question"))
    assert "gen_ai.input.messages" in spans.named("chat scripted")[0].attributes


LOOKUP = {"tool_calls": [{"name": "lookup", "args": {"email": "bob@example.com"}, "id": "l1"}]}


def test_contents_pass_through_the_pii_middleware(tmp_path, spans):
    mw = '  middleware { pii { pii_type: "email", strategy: "redact" } }\n'
    text = team_text(mw, "tools.lookup", [LOOKUP, "ok"])
    path = write(tmp_path, text)
    spans.run(path, "lead", ask("who is bob@example.com? mail alice@example.org"), content=True)
    exported = all_values(spans.finished)
    assert "bob@example.com" not in exported  # tool arguments and results, which pii leaves
    assert "alice@example.org" not in exported  # the user's message, on the run span too
    tool = dict(spans.one("execute_tool lookup").attributes)
    assert json.loads(tool["gen_ai.tool.call.arguments"]) == {"email": "[REDACTED_EMAIL]"}
    assert tool["gen_ai.tool.call.result"] == "[REDACTED_EMAIL] is Bob"


KEY = "sk-test-TRACE-0123456789abcdefXYZ"


def test_an_api_key_never_reaches_a_span(tmp_path, spans, monkeypatch, fake_server):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    fake_server.push(
        FakeReply(tool_calls=[FakeToolCall("add", '{"a": 1, "b": 2}', "call_1")]),
        FakeReply(text="It is 3.", input_tokens=40, output_tokens=9),
    )
    path = write(
        tmp_path,
        'agentc 1\nuse "./tools.py" as tools\n\nagent real {\n'
        f'  model "openai:gpt-4o-mini" {{ base_url: "{fake_server.openai_base_url}", '
        "temperature: 0.3, max_tokens: 60 }\n"
        "  tools [tools.add]\n}\n",
        "real.agent",
    )
    spans.run(path, "real", ask(f"my key is {KEY}, add 1 and 2"), content=True)
    assert fake_server.requests[0].headers["authorization"] == f"Bearer {KEY}"  # it was used
    assert KEY not in all_values(spans.finished)
    chats = spans.named("chat gpt-4o-mini")
    first, last = (dict(s.attributes) for s in chats)
    assert first["gen_ai.provider.name"] == "openai"
    assert first["gen_ai.request.temperature"] == 0.3
    assert first["gen_ai.request.max_tokens"] == 60
    assert first["gen_ai.response.finish_reasons"] == ("tool_calls",)
    assert last["gen_ai.response.finish_reasons"] == ("stop",)
    assert last["gen_ai.usage.input_tokens"] == 40
    assert first["gen_ai.response.model"] and first["gen_ai.response.id"]
    assert "[REDACTED" in first["gen_ai.input.messages"]
    assert not any("base_url" in k or "api_key" in k for s in chats for k in s.attributes)
