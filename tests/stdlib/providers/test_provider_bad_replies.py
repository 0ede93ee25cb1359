"""Issue 12 items 16–17: replies agentc cannot read, over a real socket.

Each malformed reply becomes one `ProviderReplyError` naming the provider and what was wrong
("openai sent a reply agentc cannot read: `choices` is a string, expected a list"), never a
raw AttributeError / ValidationError / RecursionError / UnicodeDecodeError / DecodingError;
a garbage `Retry-After` falls back to our own backoff; tool-call arguments nested too deep
become invalid calls (C4) that the model is told about.
"""

from __future__ import annotations

import json
import re

import pytest
from support.cli_kit import KEY, agent_file
from support.provider_kit import anthropic_model, ask, collect, openai_model, run

from agentc.cli import main
from agentc.stdlib.messages import InvalidToolCall, ToolCall
from agentc.stdlib.providers import http
from agentc.stdlib.providers.assemble import MAX_ARGUMENT_DEPTH, parse_tool_call
from agentc.stdlib.providers.errors import ProviderReplyError, ProviderStatusError
from agentc.testing.fake_provider import FakeReply, FakeToolCall

MAKE = {"openai": openai_model, "anthropic": anthropic_model}
DEEP = "[" * 100_000 + "]" * 100_000
NOT_UTF8 = b'{"type": "x", "text": "\xff\xfe"}'


def _text(**message):
    return {"choices": [{"message": {"role": "assistant", **message}}]}


# (wire, case) → (the whole reply, the substring the error must contain)
WHOLE = {
    ("openai", "gzip"): (
        FakeReply(raw=b"not gzip", headers={"content-encoding": "gzip"}),
        "decoded",
    ),
    ("anthropic", "gzip"): (
        FakeReply(raw=b"not gzip", headers={"content-encoding": "gzip"}),
        "decoded",
    ),
    ("openai", "deep"): (FakeReply(raw=DEEP), "nested too deeply"),
    ("anthropic", "deep"): (FakeReply(raw=DEEP), "nested too deeply"),
    ("openai", "utf8"): (FakeReply(raw=NOT_UTF8), "not valid UTF-8"),
    ("anthropic", "utf8"): (FakeReply(raw=NOT_UTF8), "not valid UTF-8"),
    ("openai", "shape"): (
        FakeReply(body={"choices": "abc"}),
        "`choices` is a string, expected a list",
    ),
    ("anthropic", "shape"): (
        FakeReply(body={"content": "abc"}),
        "`content` is a string, expected a list",
    ),
    ("openai", "content"): (
        FakeReply(body=_text(content=5)),
        "`choices[0].message.content` is a number, expected a string or a list",
    ),
    ("anthropic", "content"): (
        FakeReply(body={"content": [{"type": "text", "text": 5}]}),
        "`content[0].text` is a number, expected a string",
    ),
    ("openai", "tool_name"): (
        FakeReply(
            body=_text(tool_calls=[{"id": "c1", "function": {"name": 5, "arguments": "{}"}}])
        ),
        "`choices[0].message.tool_calls[0].function.name` is a number, expected a string",
    ),
    ("anthropic", "tool_name"): (
        FakeReply(body={"content": [{"type": "tool_use", "id": "t1", "name": 5, "input": {}}]}),
        "`content[0].name` is a number, expected a string",
    ),
    ("openai", "usage"): (
        FakeReply(
            body={**_text(content="hi"), "usage": {"prompt_tokens": "3", "completion_tokens": "4"}}
        ),
        "`usage.prompt_tokens` is a string ('3'), expected a whole number of tokens",
    ),
    ("anthropic", "usage"): (
        FakeReply(
            body={
                "content": [{"type": "text", "text": "hi"}],
                "usage": {"input_tokens": "3", "output_tokens": "4"},
            }
        ),
        "`usage.input_tokens` is a string ('3'), expected a whole number of tokens",
    ),
}

GZIP = {"content-encoding": "gzip"}
STREAMED = {
    ("openai", "gzip"): (FakeReply(events=[b"not gzip"], headers=GZIP), "decoded"),
    ("anthropic", "gzip"): (FakeReply(events=[b"not gzip"], headers=GZIP), "decoded"),
    ("openai", "deep"): (FakeReply(events=[DEEP]), "nested too deeply"),
    ("anthropic", "deep"): (FakeReply(events=[DEEP]), "nested too deeply"),
    ("openai", "utf8"): (FakeReply(events=[b"data: " + NOT_UTF8 + b"\n\n"]), "not valid UTF-8"),
    ("anthropic", "utf8"): (
        FakeReply(events=[b"event: x\ndata: " + NOT_UTF8 + b"\n\n"]),
        "not valid UTF-8",
    ),
    ("openai", "shape"): (
        FakeReply(events=[{"choices": "abc"}]),
        "`stream event.choices` is a string, expected a list",
    ),
    ("anthropic", "shape"): (
        FakeReply(events=[{"type": "message_start", "message": "abc"}]),
        "`message_start event.message` is a string, expected an object",
    ),
    ("openai", "content"): (
        FakeReply(events=[{"choices": [{"delta": {"content": 5}}]}]),
        "`stream event.choices[0].delta.content` is a number, expected a string",
    ),
    ("anthropic", "content"): (
        FakeReply(
            events=[
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": 5},
                }
            ]
        ),
        "`content_block_delta event.delta.text` is a number, expected a string",
    ),
    ("openai", "tool_name"): (
        FakeReply(
            events=[
                {
                    "choices": [
                        {
                            "delta": {
                                "tool_calls": [{"index": 0, "id": "c", "function": {"name": 5}}]
                            }
                        }
                    ]
                }
            ]
        ),
        "`stream event.choices[0].delta.tool_calls[0].function.name` is a number",
    ),
    ("anthropic", "tool_name"): (
        FakeReply(
            events=[
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "tool_use", "id": "t", "name": 5, "input": {}},
                }
            ]
        ),
        "`content_block_start event.content_block.name` is a number, expected a string",
    ),
    ("openai", "usage"): (
        FakeReply(events=[{"choices": [], "usage": {"prompt_tokens": "3"}}]),
        "`usage.prompt_tokens` is a string ('3'), expected a whole number of tokens",
    ),
    ("anthropic", "usage"): (
        FakeReply(
            events=[
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn"},
                    "usage": {"output_tokens": "4"},
                }
            ]
        ),
        "`message_delta event.usage.output_tokens` is a string ('4')",
    ),
}


def _expect_reply_error(fake_server, wire: str, reply: FakeReply, fragment: str, stream: bool):
    fake_server.push(reply, FakeReply(text="never"))
    model = MAKE[wire](fake_server)
    with pytest.raises(ProviderReplyError) as info:
        run(collect(model, ask()) if stream else model.generate(ask()))
    message = str(info.value)
    assert message.startswith(f"{wire} sent a reply agentc cannot read: "), message
    assert fragment in message, message
    assert "\n" not in message and len(message) < 400
    assert len(fake_server.requests) == 1  # a reply that cannot be read is not asked again


@pytest.mark.parametrize("wire, case", sorted(WHOLE))
def test_malformed_whole_reply_names_the_provider(fake_server, keys, wire, case):
    reply, fragment = WHOLE[wire, case]
    _expect_reply_error(fake_server, wire, reply, fragment, stream=False)


@pytest.mark.parametrize("wire, case", sorted(STREAMED))
def test_malformed_stream_event_names_the_provider(fake_server, keys, wire, case):
    reply, fragment = STREAMED[wire, case]
    _expect_reply_error(fake_server, wire, reply, fragment, stream=True)


def test_a_reply_that_is_not_an_object(fake_server, keys):
    _expect_reply_error(
        fake_server, "openai", FakeReply(body=[1]), "the reply is a list", stream=False
    )


def test_an_error_status_with_a_deep_body_is_a_status_error(fake_server, keys):
    fake_server.push(FakeReply(status=400, raw=DEEP))
    with pytest.raises(ProviderStatusError) as info:
        run(anthropic_model(fake_server).generate(ask()))
    assert info.value.status == 400 and str(info.value).startswith("anthropic request failed")


def test_a_deep_content_block_is_refused_before_it_reaches_the_run(fake_server, keys):
    # 300 levels parse, but no later step could save or print them (pydantic stops at ~255).
    block = json.loads('{"type": "thinking", "x": ' + _nested(300) + "}")
    _expect_reply_error(
        fake_server,
        "anthropic",
        FakeReply(body={"content": [block]}),
        f"a content block is nested more than {MAX_ARGUMENT_DEPTH} levels deep",
        stream=False,
    )


def test_a_well_formed_reply_still_reads(fake_server, keys):
    fake_server.push(
        FakeReply(
            body={**_text(content="hi"), "usage": {"prompt_tokens": 3, "completion_tokens": 4}}
        )
    )
    reply = run(openai_model(fake_server).generate(ask()))
    assert reply.text == "hi" and reply.usage_metadata.total_tokens == 7


# ---------------------------------------------------------------- Retry-After


@pytest.mark.parametrize("value", ["garbage", "Wed, 99 Foo 2020 25:61:61 GMT", "-", "soon"])
def test_garbage_retry_after_falls_back_to_backoff(fake_server, keys, fast_backoff, value):
    fake_server.push(FakeReply(status=503, headers={"retry-after": value}), FakeReply(text="ok"))
    assert run(openai_model(fake_server).generate(ask())).text == "ok"
    assert len(fake_server.requests) == 2
    assert http.retry_after_s(http.httpx.Headers({"retry-after": value})) is None


# ---------------------------------------------------------------- over-deep arguments (C4)


def _nested(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


@pytest.mark.parametrize("depth", [MAX_ARGUMENT_DEPTH + 1, 450, 3000])
def test_over_deep_arguments_are_an_invalid_call(depth):
    call = parse_tool_call("add", _nested(depth), "c1")
    assert isinstance(call, InvalidToolCall)
    assert call.error == f"arguments of `add` are nested more than {MAX_ARGUMENT_DEPTH} levels deep"
    assert call.args == _nested(depth) and call.id == "c1"


def test_arguments_at_the_depth_limit_are_a_call():
    assert isinstance(parse_tool_call("add", _nested(MAX_ARGUMENT_DEPTH - 1), "c1"), ToolCall)
    deep = json.loads(_nested(450))
    assert isinstance(parse_tool_call("add", deep, "c1"), InvalidToolCall)  # Anthropic's dicts


@pytest.mark.parametrize(
    "wire, depth, stream",
    [
        ("openai", 450, False),
        ("openai", 450, True),
        ("openai", 3000, False),
        ("openai", 3000, True),
        ("anthropic", 450, False),
        ("anthropic", 3000, True),
    ],
)
def test_over_deep_arguments_in_an_agent_run(
    tmp_path, monkeypatch, capsys, fake_server, wire, depth, stream
):
    """The run ends without an answer and says why (exit 1); continuing the thread tells the
    model its call was malformed."""
    monkeypatch.chdir(tmp_path)
    env = "OPENAI" if wire == "openai" else "ANTHROPIC"
    monkeypatch.setenv(f"{env}_API_KEY", KEY)
    base = fake_server.openai_base_url if wire == "openai" else fake_server.url
    monkeypatch.setenv(f"{env}_BASE_URL", base)
    model = "openai:gpt-4o-mini" if wire == "openai" else "anthropic:claude-sonnet-4-5"
    fake_server.push(
        FakeReply(tool_calls=[FakeToolCall("add", _nested(depth), "c1")]),
        FakeReply(text="Sorry, let me try again."),
    )
    path = agent_file(tmp_path, f'model "{model}"')
    flags = ["--stream"] if stream else []
    assert main(["run", str(path), "--input", "2+3?", *flags]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "malformed" in out.out, (out.out, out.err)
    assert "-- stopped: the model's last reply asked for `add`" in out.out, out.out
    thread = re.search(r"--thread (\w+)", out.out)
    assert thread, out.out
    assert main(["run", str(path), "--input", "go on", "--thread", thread.group(1), *flags]) == 0
    second = json.dumps(fake_server.requests[1].body)
    assert "c1 could not be executed - arguments were malformed" in second, second[-2000:]
