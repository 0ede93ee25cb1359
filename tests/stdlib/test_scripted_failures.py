"""Scripted failures: a reply `{raise: KIND, message: "…"}` fails its call with the provider
error a real wire raises for that kind, so retries, fallbacks and error paths run offline."""

from __future__ import annotations

import asyncio
import json

import pytest
from support.mwkit import agent, ask, contents

from agentc import ir
from agentc.stdlib.messages import HumanMessage
from agentc.stdlib.providers.base import ModelRequest
from agentc.stdlib.providers.errors import (
    ProviderConnectionError,
    ProviderStatusError,
    ProviderStreamError,
)
from agentc.stdlib.providers.scripted import CREATED, FAILURES, ScriptedModel, ScriptError

FAST_RETRY = "model_retry { initial_delay: 0.0, jitter: false }"
SPAN = ir.SourceSpan(
    file="t.agent", line=2, col=3, offset=12, end_line=2, end_col=30, end_offset=39
)


def scripted(*replies: object) -> ScriptedModel:
    spec = ir.ModelSpec(
        spec="scripted",
        provider="scripted",
        name="scripted",
        options={"replies": list(replies)},
        span=SPAN,
    )
    return ScriptedModel.from_spec(spec, ".")


def generate(model: ScriptedModel) -> object:
    return asyncio.run(model.generate(ModelRequest(messages=(HumanMessage(content="hi"),))))


@pytest.mark.parametrize(
    "kind, cls, status, retryable",
    [
        ("ConnectionError", ProviderConnectionError, None, True),
        ("TimeoutError", ProviderConnectionError, None, True),
        ("RateLimitError", ProviderStatusError, 429, True),
        ("ServerError", ProviderStatusError, 500, True),
        ("AuthenticationError", ProviderStatusError, 401, False),
        ("BadRequestError", ProviderStatusError, 400, False),
        ("StreamError", ProviderStreamError, None, False),
    ],
)
def test_each_kind_raises_the_provider_error_of_the_wire(kind, cls, status, retryable):
    model = scripted({"raise": kind, "message": "it broke"}, "after")
    with pytest.raises(cls) as caught:
        generate(model)
    assert type(caught.value) is cls
    assert caught.value.status == status and caught.value.retryable is retryable
    assert caught.value.provider_message == "it broke" and caught.value.provider == "scripted"
    assert generate(model).content == "after"  # the failure used up its entry
    assert len(model.calls) == 2
    assert set(FAILURES) >= {kind}


def test_a_server_error_may_name_its_status_and_streams_fail_too():
    model = scripted({"raise": "ServerError", "status": 503})
    with pytest.raises(ProviderStatusError, match=r"HTTP 503\): internal server error"):

        async def read() -> None:
            async for _ in model.stream(ModelRequest(messages=(HumanMessage(content="x"),))):
                pass

        asyncio.run(read())


@pytest.mark.parametrize(
    "reply, needle",
    [
        ({"raise": "Bogus"}, "raises 'Bogus', which is not a failure kind"),
        ({"raise": ["ConnectionError"]}, "which is not a failure kind"),
        ({"raise": "RateLimitError", "status": 503}, "only a ServerError takes one"),
        ({"raise": "ServerError", "status": 404}, "from 500 to 599"),
        ({"raise": "ConnectionError", "message": 5}, "`message` must be a string"),
        ({"raise": "ConnectionError", "content": "x"}, "unknown keys ['content']"),
    ],
)
def test_a_malformed_failure_is_an_error_at_the_model_clause(reply, needle):
    with pytest.raises(ScriptError) as caught:
        scripted("fine", reply)
    assert needle in caught.value.message and "scripted reply 2" in caught.value.message
    assert caught.value.code == "bad-script" and caught.value.span == SPAN


def test_an_unknown_kind_names_the_kinds_and_the_agent_files_line(tmp_path):
    a = agent(tmp_path, replies_=[{"raise": "ConnectionRefused"}], middleware="")
    with pytest.raises(ScriptError) as caught:
        a.invoke(ask())
    exc = caught.value
    assert exc.span is not None and exc.span.file.endswith("t.agent") and exc.span.line == 4
    assert exc.help is not None and "ConnectionError" in exc.help and "RateLimitError" in exc.help


def test_model_retry_retries_a_scripted_connection_error_then_succeeds(tmp_path):
    a = agent(
        tmp_path,
        replies_=[{"raise": "ConnectionError", "message": "reset by peer"}, "recovered"],
        middleware=FAST_RETRY,
    )
    result = a.invoke(ask())
    assert contents(result) == [("human", "hi"), ("ai", "recovered")]
    assert len(CREATED[-1].calls) == 2


def test_model_retry_retry_on_reads_the_provider_error_kind(tmp_path):
    """A kind `retry_on` does not name is raised at once (as LangChain's ModelRetry); one it
    names is retried until the attempts run out, then answered as `on_failure` says."""
    refused = agent(
        tmp_path,
        replies_=[{"raise": "AuthenticationError"}, "never"],
        middleware='model_retry { retry_on: ["ProviderConnectionError"], initial_delay: 0.0 }',
    )
    with pytest.raises(ProviderStatusError, match=r"HTTP 401\): invalid API key"):
        refused.invoke(ask())
    assert len(CREATED[-1].calls) == 1
    timeouts = [{"raise": "TimeoutError"}] * 2
    named = agent(
        tmp_path,
        replies_=timeouts,
        middleware='model_retry { retry_on: ["ProviderConnectionError"], max_retries: 1, '
        "initial_delay: 0.0 }",
    )
    result = named.invoke(ask())
    assert result["messages"][-1].content == (
        "Model call failed after 2 attempts with ProviderConnectionError: "
        "scripted request failed: timed out"
    )


def test_model_fallback_moves_to_the_fallback_model(tmp_path):
    (tmp_path / "fb.json").write_text(json.dumps(["from the fallback"]))
    a = agent(
        tmp_path,
        replies_=[{"raise": "RateLimitError", "message": "slow down"}],
        middleware='model_fallback { models: ["scripted:fb.json"] }',
    )
    result = a.invoke(ask())
    assert contents(result)[-1] == ("ai", "from the fallback")


def test_without_middleware_the_failure_ends_the_run(tmp_path):
    a = agent(tmp_path, replies_=[{"raise": "ServerError", "status": 502}], middleware="")
    with pytest.raises(ProviderStatusError, match=r"HTTP 502"):
        a.invoke(ask())
