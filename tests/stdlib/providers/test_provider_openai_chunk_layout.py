"""Where the OpenAI provider's streamed deltas carry the provider and the model's name: as
langchain-openai's chunks (A2, B3) — the provider on every chunk of a choice, the model's
name beside the finish reason, nothing on the usage chunk — and the assembled reply still
names both."""

from __future__ import annotations

from support.provider_kit import ask, collect, openai_model, run

from agentc.stdlib.providers.assemble import assemble
from agentc.testing.fake_provider import FakeReply


def test_model_name_comes_with_the_finish_reason(fake_server, keys):
    fake_server.push(FakeReply(text="Hello there."))
    deltas = run(collect(openai_model(fake_server), ask()))
    finishing = [d for d in deltas if d.finish_reason is not None]
    assert len(finishing) == 1
    assert finishing[0].response_metadata == {
        "model_provider": "openai",
        "model_name": "gpt-4o-mini",
    }
    before = deltas[: deltas.index(finishing[0])]
    assert before and all(d.response_metadata == {"model_provider": "openai"} for d in before)
    usage = [d for d in deltas if d.usage is not None]
    assert usage and all(d.response_metadata == {} for d in usage if not d.finish_reason)
    reply = assemble(deltas)
    assert reply.response_metadata["model_name"] == "gpt-4o-mini"
    assert reply.response_metadata["finish_reason"] == "stop"
