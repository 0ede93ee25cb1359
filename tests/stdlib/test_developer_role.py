"""A6: a `developer` input keeps its role — on the message object (LangChain's oracle) and
on the OpenAI wire (the role is sent as `developer`, not `system`)."""

from __future__ import annotations

from langchain_core.messages.utils import convert_to_messages
from support.provider_kit import OPENAI_KEY, openai_model, run

import agentc
from agentc.stdlib.messages import HumanMessage, SystemMessage, coerce_messages
from agentc.stdlib.providers.base import ModelRequest
from agentc.testing.fake_provider import FakeReply

INPUTS = [
    ("developer", "answer in French"),
    {"role": "developer", "content": "be terse"},
    {"role": "system", "content": "plain system"},
    ("user", "hi"),
]


def test_A6_developer_input_matches_langchain_message_objects():
    ours = coerce_messages(INPUTS)
    theirs = convert_to_messages(INPUTS)
    assert [m.type for m in ours] == [m.type for m in theirs]
    assert [m.content for m in ours] == [m.content for m in theirs]
    assert [m.additional_kwargs for m in ours] == [m.additional_kwargs for m in theirs]
    assert ours[0].additional_kwargs == {"__openai_role__": "developer"}
    assert ours[2].additional_kwargs == {}


def test_A6_openai_sends_role_developer_again(fake_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    fake_server.push(FakeReply(text="ok"))
    model = openai_model(fake_server)
    developer, plain = coerce_messages(INPUTS[:3:2])
    request = ModelRequest(messages=(developer, plain, HumanMessage(content="hi")))
    run(model.generate(request))
    assert fake_server.requests[0].body["messages"] == [
        {"role": "developer", "content": "answer in French"},
        {"role": "system", "content": "plain system"},
        {"role": "user", "content": "hi"},
    ]


def test_A6_an_agent_run_passes_a_developer_input_through(fake_server, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    fake_server.push(FakeReply(text="d'accord"))
    path = tmp_path / "dev.agent"
    path.write_text(
        "agent a {\n"
        f'  model "openai:gpt-4o-mini" {{ base_url: "{fake_server.openai_base_url}" }}\n'
        '  prompt "You help."\n'
        "}\n"
    )
    result = agentc.load_agent(path).invoke(
        {"messages": [("developer", "answer in French"), ("user", "hi")]}
    )
    first = result["messages"][0]
    assert isinstance(first, SystemMessage)
    assert first.additional_kwargs == {"__openai_role__": "developer"}
    assert fake_server.requests[0].body["messages"] == [
        {"role": "system", "content": "You help."},
        {"role": "developer", "content": "answer in French"},
        {"role": "user", "content": "hi"},
    ]
