"""E8 and the failure modes: retries, Retry-After, no retry on 4xx, timeouts, broken streams."""

from __future__ import annotations

import asyncio
import time

import pytest
from support.provider_kit import anthropic_model, ask, collect, openai_model, run

from agentc.stdlib.providers import http
from agentc.stdlib.providers.errors import (
    ProviderConnectionError,
    ProviderStatusError,
    ProviderStreamError,
)
from agentc.testing.fake_provider import FakeReply


@pytest.mark.parametrize("status", [408, 409, 429, 500, 503])
def test_E8_retryable_status_then_success(fake_server, keys, fast_backoff, status):
    fake_server.push(FakeReply(status=status), FakeReply(status=status), FakeReply(text="ok"))
    assert run(openai_model(fake_server).generate(ask())).text == "ok"
    assert len(fake_server.requests) == 3  # max_retries 2: one call, two retries


def test_E8_gives_up_after_max_retries_with_a_clear_error(fake_server, keys, fast_backoff):
    fake_server.push(*[FakeReply(status=500, error_message="overloaded here")] * 3)
    with pytest.raises(ProviderStatusError) as info:
        run(openai_model(fake_server).generate(ask()))
    assert len(fake_server.requests) == 3
    assert info.value.status == 500
    assert str(info.value) == "openai request failed (HTTP 500): overloaded here"


def test_E8_max_retries_option(fake_server, keys, fast_backoff):
    fake_server.push(FakeReply(status=500), FakeReply(text="never"))
    with pytest.raises(ProviderStatusError):
        run(openai_model(fake_server, max_retries=0).generate(ask()))
    assert len(fake_server.requests) == 1


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_E8_no_retry_on_client_errors(fake_server, keys, status):
    fake_server.push(
        FakeReply(status=status, error_message="Incorrect API key"), FakeReply(text="never")
    )
    with pytest.raises(ProviderStatusError, match=f"anthropic .*HTTP {status}.*Incorrect API key"):
        run(anthropic_model(fake_server).generate(ask()))
    assert len(fake_server.requests) == 1


def test_E8_retry_after_is_honoured(fake_server, keys):
    fake_server.push(FakeReply(status=429, headers={"retry-after": "0.4"}), FakeReply(text="ok"))
    started = time.perf_counter()
    assert run(openai_model(fake_server).generate(ask())).text == "ok"
    assert time.perf_counter() - started >= 0.4


def test_retry_after_parsing():
    h = http.httpx.Headers
    assert http.retry_after_s(h({"retry-after": "3"})) == 3.0
    assert http.retry_after_s(h({"retry-after-ms": "250"})) == 0.25
    assert http.retry_after_s(h({"retry-after": "9999"})) is None  # our own backoff instead
    assert http.retry_after_s(h({})) is None
    delays = [http.backoff_s(n) for n in range(6)]
    assert 0.375 <= delays[0] <= 0.5 and delays[-1] <= 8.0


def test_dropped_connection_is_retried(fake_server, keys, fast_backoff):
    fake_server.push(FakeReply(drop=True), FakeReply(text="back"))
    assert run(anthropic_model(fake_server).generate(ask())).text == "back"


def test_dropped_connections_exhaust_into_connection_error(fake_server, keys, fast_backoff):
    fake_server.push(*[FakeReply(drop=True)] * 3)
    with pytest.raises(ProviderConnectionError, match="openai"):
        run(openai_model(fake_server).generate(ask()))


def test_read_timeout(fake_server, keys, fast_backoff):
    fake_server.push(FakeReply(text="slow", delay_s=1.0))
    with pytest.raises(ProviderConnectionError, match="timed out"):
        run(openai_model(fake_server, timeout=0.2, max_retries=0).generate(ask()))


def test_connection_refused_is_clear(keys, fast_backoff):
    from agentc.stdlib.providers.registry import model_spec, resolve_model

    model = resolve_model(
        model_spec("openai:gpt-4o", {"base_url": "http://127.0.0.1:9/v1", "max_retries": 1})
    )
    with pytest.raises(ProviderConnectionError, match="connection failed calling"):
        run(model.generate(ask()))


@pytest.mark.parametrize("which", ["openai", "anthropic"])
def test_truncated_stream_is_an_error(fake_server, keys, which):
    make = openai_model if which == "openai" else anthropic_model
    fake_server.push(FakeReply(text="one two three four five", truncate_after=3))
    with pytest.raises(ProviderStreamError, match="stream broke off"):
        run(collect(make(fake_server), ask()))


@pytest.mark.parametrize("which", ["openai", "anthropic"])
def test_stream_ending_early_is_an_error(fake_server, keys, which):
    make = openai_model if which == "openai" else anthropic_model
    fake_server.push(FakeReply(text="one two", omit_end=True))
    with pytest.raises(ProviderStreamError, match="before the reply was complete"):
        run(collect(make(fake_server), ask()))


def test_stream_status_error_is_retried_before_first_byte(fake_server, keys, fast_backoff):
    fake_server.push(FakeReply(status=503), FakeReply(text="streamed"))
    deltas = run(collect(anthropic_model(fake_server), ask()))
    assert "".join(d.text for d in deltas) == "streamed"


def test_rate_limiter_spaces_requests(fake_server, keys):
    fake_server.push(*[FakeReply(text="ok")] * 4)
    model = openai_model(fake_server, rate_limit={"requests_per_second": 10, "burst": 2})

    async def four():
        return await asyncio.gather(*(model.generate(ask()) for _ in range(4)))

    started = time.perf_counter()
    run(four())
    # burst of 2 at once, then 2 more at 10/s: at least ~0.2 s
    assert time.perf_counter() - started >= 0.18


def test_one_pooled_client_per_provider_and_base_url(fake_server, keys):
    fake_server.push(*[FakeReply(text="ok")] * 3)
    a, b = openai_model(fake_server), openai_model(fake_server, name="gpt-4o")

    async def calls():
        await a.generate(ask())
        await b.generate(ask())
        clients = {id(http.client_for(m._settings.endpoint)) for m in (a, b)}
        wires = {id(http._wire_for(m._settings.endpoint)) for m in (a, b)}
        lean = http._wire_for(a._settings.endpoint)  # plain http: the lean client's pool
        return len(clients), len(wires), lean is not None and len(lean.idle)

    assert run(calls()) == (1, 1, 1)  # one pool, and one kept-alive connection in it
