"""Record / replay (cassettes) for each provider, and keys never reaching any output or file."""

from __future__ import annotations

import logging

import pytest
from support.provider_kit import (
    ANTHROPIC_KEY,
    OPENAI_KEY,
    anthropic_model,
    ask,
    collect,
    openai_model,
    run,
)

from agentc.stdlib.messages import AIMessage, ToolCall, ToolMessage
from agentc.stdlib.providers.assemble import assemble
from agentc.stdlib.providers.base import ModelRequest
from agentc.stdlib.providers.cassette import CassetteError, Recording, Replaying
from agentc.stdlib.providers.errors import ProviderStatusError
from agentc.testing.fake_provider import FakeReply, FakeToolCall


def _turns():
    first = ask("add 1 and 2")
    after = ModelRequest(
        messages=first.messages
        + (
            AIMessage(
                content="", tool_calls=[ToolCall(name="add", args={"a": 1, "b": 2}, id="c1")]
            ),
            ToolMessage(content="3", tool_call_id="c1"),
        )
    )
    return first, after


@pytest.mark.parametrize("make", [openai_model, anthropic_model])
def test_record_then_replay_without_network(fake_server, keys, tmp_path, make):
    fake_server.push(
        FakeReply(tool_calls=[FakeToolCall("add", '{"a": 1, "b": 2}', "c1")]),
        FakeReply(text="It is 3."),
    )
    path = tmp_path / "run.cassette.jsonl"
    recording = Recording(make(fake_server), path)
    first, after = _turns()

    async def live():
        a = await recording.generate(first)
        b = assemble([d async for d in recording.stream(after)])
        return a, b

    live_a, live_b = run(live())
    fake_server.stop()  # replay must not need the server

    replay = Replaying(path)
    assert (replay.provider, replay.name) == (recording.provider, recording.name)
    again_a = run(replay.generate(ask("add 1 and 2")))  # fresh message ids: still matches
    again_b = assemble(run(collect(replay, after)))
    assert again_a.tool_calls == live_a.tool_calls
    assert again_b.text == live_b.text == "It is 3."
    assert replay.remaining == 0
    with pytest.raises(CassetteError, match="holds only 2"):
        run(replay.generate(first))


def test_replay_mismatch_names_the_difference(fake_server, keys, tmp_path):
    fake_server.push(FakeReply(text="hi"))
    path = tmp_path / "c.jsonl"
    run(Recording(openai_model(fake_server), path).generate(ask("hello")))
    with pytest.raises(CassetteError, match=r"model call 1 differs.*messages\[1\]\.content"):
        run(Replaying(path).generate(ask("goodbye")))


def test_replay_reproduces_a_recorded_failure(fake_server, keys, tmp_path):
    fake_server.push(FakeReply(status=401, error_message="bad key"))
    path = tmp_path / "c.jsonl"
    with pytest.raises(ProviderStatusError):
        run(Recording(openai_model(fake_server), path).generate(ask()))
    with pytest.raises(Exception, match="bad key"):
        run(Replaying(path).generate(ask()))


def test_keys_never_appear_in_outputs_or_files(fake_server, keys, tmp_path, capsys, caplog):
    """Every output a run produces, and every file it writes, is grepped for the keys."""
    caplog.set_level(logging.DEBUG)
    echoing = f"Incorrect API key provided: {OPENAI_KEY}"  # a provider echoing the key back
    fake_server.push(
        FakeReply(text="ok", tool_calls=[FakeToolCall("add", "{}", "c")]),
        FakeReply(status=401, error_message=echoing),
        FakeReply(text="streamed"),
        FakeReply(status=400, error_message=f"key {ANTHROPIC_KEY} bad"),
    )
    seen: list[str] = []
    o = Recording(openai_model(fake_server), tmp_path / "o.jsonl")
    a = Recording(anthropic_model(fake_server), tmp_path / "a.jsonl")

    async def everything():
        seen.append(repr(await o.generate(ask())))
        for model in (o, a):
            try:
                seen.append(repr([d async for d in model.stream(ask())]))
            except Exception as err:  # noqa: BLE001 - we want the text of any failure
                seen.append(f"{err!r} {err}")
        seen.append(f"{o!r} {a!r} {o._model!r} {a._model!r} {o._model.describe()}")
        seen.append(repr(o._model._settings))

    run(everything())
    out = capsys.readouterr()
    texts = seen + [out.out, out.err, caplog.text]
    texts += [p.read_text() for p in tmp_path.rglob("*") if p.is_file()]
    assert any("Incorrect API key provided: [REDACTED]" in t for t in texts)
    for text in texts:
        assert OPENAI_KEY not in text and ANTHROPIC_KEY not in text
