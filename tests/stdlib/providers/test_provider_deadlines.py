"""A model's `timeout` is a total deadline (E8): a server whose every read returns in time but
whose answer never completes — a byte at a time, keep-alive comments for ever, headers and
then silence — ends the call at `timeout`, retried as the SDKs retry a timeout when no
answer reached the caller yet; and a 40 MB event-stream line is read in linear time.

All through the fake provider on 127.0.0.1. Each call runs under a 60 s hang guard: without
a total deadline these calls would last as long as the server holds them (120 s).
"""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest
from support.provider_kit import anthropic_model, ask, collect, openai_model

from agentc.stdlib.providers import http
from agentc.stdlib.providers.errors import ProviderConnectionError, ProviderStreamError
from agentc.testing.fake_provider import FakeReply

GUARD_S = 60  # a hang guard, not a speed bound


def guarded(coro):
    async def main():
        try:
            return await asyncio.wait_for(coro, GUARD_S)
        finally:
            await http.close_clients()

    return asyncio.run(main())


MODELS = {"openai": openai_model, "anthropic": anthropic_model}


@pytest.mark.parametrize("wire", sorted(MODELS))
def test_E8_a_trickled_stream_ends_at_the_timeout(fake_server, keys, wire):
    """One byte every 0.2 s: no read ever waits 1 s, the answer would take minutes."""
    fake_server.push(FakeReply(text="a long answer " * 20, trickle_s=0.2))
    model = MODELS[wire](fake_server, timeout=1)
    with pytest.raises(ProviderStreamError) as err:
        guarded(collect(model, ask()))
    assert "no complete answer within the 1 s `timeout`" in str(err.value)
    assert len(fake_server.requests) == 1  # a stream that began is not replayed


@pytest.mark.parametrize("wire", sorted(MODELS))
def test_E8_keep_alive_comments_for_ever_end_at_the_timeout(fake_server, keys, wire):
    fake_server.push(FakeReply(keepalive_s=0.1))
    model = MODELS[wire](fake_server, timeout=1)
    with pytest.raises(ProviderStreamError, match="within the 1 s `timeout`"):
        guarded(collect(model, ask()))


def test_E8_a_trickled_whole_reply_times_out_and_is_retried(fake_server, keys, fast_backoff):
    """A non-streamed answer that runs out is retried per `max_retries`, as the SDKs retry
    a timeout; the retry's answer is used."""
    fake_server.push(FakeReply(text="slow", trickle_s=0.2), FakeReply(text="ok"))
    model = openai_model(fake_server, timeout=1, max_retries=1)
    assert guarded(model.generate(ask())).text == "ok"
    assert len(fake_server.requests) == 2


def test_E8_a_trickled_whole_reply_fails_after_the_retries(fake_server, keys, fast_backoff):
    fake_server.push(*[FakeReply(text="slow", trickle_s=0.2)] * 2)
    model = anthropic_model(fake_server, timeout=1, max_retries=1)
    with pytest.raises(ProviderConnectionError) as err:
        guarded(model.generate(ask()))
    assert "timed out calling" in str(err.value) and "1 s `timeout`" in str(err.value)
    assert len(fake_server.requests) == 2


def test_E8_a_stalled_stream_ends_at_the_timeout(fake_server, keys):
    fake_server.push(FakeReply(stall=True))
    with pytest.raises(ProviderStreamError):
        guarded(collect(openai_model(fake_server, timeout=1), ask()))


def test_E8_an_answer_in_time_is_untouched_by_the_deadline(fake_server, keys):
    fake_server.push(FakeReply(text="quick answer", chunk_delay_s=0.01))
    deltas = guarded(collect(openai_model(fake_server, timeout=30), ask()))
    assert "".join(d.text for d in deltas if d.text) == "quick answer"


def test_a_40_mb_event_line_is_read_whole(fake_server, keys):
    """One `data:` line of 40 MB arrives in 4 KB pieces (ten thousand reads); it is joined
    once. The reader used to re-join everything so far on every read: 23 s for 20 MB, four
    times that for this line, past the hang guard; read linearly it takes about a second."""
    big = "x" * (40 * 1024 * 1024)
    chunk = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "model": "m",
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": big}}],
    }
    done = {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    events = [json.dumps(chunk), json.dumps(done), "[DONE]"]
    fake_server.push(FakeReply(events=events, split_bytes=4096))
    deltas = guarded(collect(openai_model(fake_server), ask()))
    assert sum(len(d.text or "") for d in deltas) == len(big)


@pytest.mark.parametrize("seed", range(5))
def test_any_split_of_an_event_stream_gives_the_same_events(seed):
    """The reader joins a line's pieces only when it ends: however the bytes are cut into
    reads (CRLF split in two, empty reads, one byte each), the events are the same."""
    body = (
        b": keep-alive\r\n\r\nevent: a\r\ndata: one\r\ndata: two\r\n\r\n"
        b"data: " + "é".encode() * 300 + b"\n\nevent: b\ndata: last\n\n"
    )
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(body)), 40))
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    pieces.insert(rng.randrange(len(pieces)), b"")

    async def stream():
        for piece in pieces:
            yield piece

    async def read():
        response = httpx.Response(200, content=stream())
        endpoint = http.Endpoint(provider="test", base_url="http://127.0.0.1")
        return [(e.event, e.data) async for e in http.iter_sse(endpoint, response)]

    assert asyncio.run(read()) == [("a", "one\ntwo"), (None, "é" * 300), ("b", "last")]
