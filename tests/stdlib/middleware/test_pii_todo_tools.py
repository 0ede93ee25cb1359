"""D14, D16 (pii), todo_list, llm_tool_selector, tool_emulator."""

from __future__ import annotations

import pytest
from support.mwkit import agent, ask, call, contents, model_calls, reply

from agentc.stdlib.middleware.pii import StreamScrubber
from agentc.stdlib.middleware.pii_detect import (
    PIIDetectionError,
    apply_strategy,
    detect_credit_card,
    detect_email,
    luhn,
    resolve_detector,
)


def test_D14_newest_human_message_redacted_before_the_model(tmp_path):
    a = agent(tmp_path, replies_=["ok"], middleware='pii { pii_type: "email" }')
    msgs = [
        {"role": "user", "content": "old a@b.com"},
        {"role": "assistant", "content": "x"},
        {"role": "user", "content": "mail me at john@example.com"},
    ]
    result = a.invoke({"messages": msgs})
    assert contents(result)[0] == ("human", "old a@b.com")  # older messages never scanned
    assert contents(result)[2] == ("human", "mail me at [REDACTED_EMAIL]")
    assert model_calls()[0].messages[-1].content == "mail me at [REDACTED_EMAIL]"


def test_D14_output_and_tool_results(tmp_path):
    a = agent(
        tmp_path,
        replies_=[
            reply("", call("echo", {"text": "card 4111 1111 1111 1111"}, "c1")),
            "ip is 10.0.0.1",
        ],
        tools="kit.echo",
        middleware='pii { pii_type: "credit_card", strategy: "mask", '
        "apply_to_tool_results: true, apply_to_output: true }",
    )
    result = a.invoke(ask())
    assert result["messages"][1].tool_calls[0].args == {"text": "card 4111 1111 1111 1111"}
    assert result["messages"][2].content == "card **** **** **** 1111"
    assert model_calls()[1].messages[-1].content == "card **** **** **** 1111"


def test_D14_block_raises(tmp_path):
    a = agent(tmp_path, replies_=["ok"], middleware='pii { pii_type: "email", strategy: "block" }')
    with pytest.raises(PIIDetectionError, match=r"Detected 1 instance\(s\) of email"):
        a.invoke(ask("x@y.org"))


def test_D14_custom_regex_and_hash():
    detect = resolve_detector("api_key", r"sk-[a-z0-9]{8}")
    text = "key sk-abcdef12 here"
    assert apply_strategy(text, detect(text), "redact") == "key [REDACTED_API_KEY] here"
    assert apply_strategy(text, detect(text), "hash").startswith("key <api_key_hash:")
    assert apply_strategy(text, detect(text), "mask") == "key ****ef12 here"


def test_D14_luhn_filters_card_numbers():
    assert luhn("4111111111111111") and not luhn("4111111111111112")
    assert [m.value for m in detect_credit_card("a 4111-1111-1111-1111 b 1234 5678 9012 3456")] == [
        "4111-1111-1111-1111"
    ]


def test_D16_stream_scrubber_catches_a_split_value():
    s = StreamScrubber(detect_email, "redact", lookback=16)
    pieces = ["hello there, write to jo", "hn@exam", "ple.com please, and more text after it"]
    out = "".join(s.feed(p) for p in pieces) + s.flush()
    assert out == "hello there, write to [REDACTED_EMAIL] please, and more text after it"


def test_D16_streamed_text_is_scrubbed_for_readers(tmp_path):
    from agentc.runtime import StreamMode

    a = agent(
        tmp_path,
        replies_=["reach me at jane@corp.io"],
        middleware='pii { pii_type: "email", apply_to_output: true }',
    )
    texts = [
        e.payload.text
        for e in a.stream(ask(), mode=[StreamMode.MESSAGES])
        if hasattr(getattr(e, "payload", None), "text")
    ]
    assert "jane@corp.io" not in "".join(texts)
    assert "".join(texts) == "reach me at [REDACTED_EMAIL]"


def test_todo_list_tool_writes_state_and_prompt(tmp_path):
    todos = [{"content": "plan", "status": "in_progress"}]
    a = agent(
        tmp_path,
        replies_=[reply("", call("write_todos", {"todos": todos}, "t1")), "ok"],
        middleware="todo_list",
        extra='prompt "Be brief."',
    )
    result = a.invoke(ask())
    assert result["todos"] == todos
    assert result["messages"][2].content == f"Updated todo list to {todos}"
    system = model_calls()[0].messages[0]
    assert system.content[0] == {"type": "text", "text": "Be brief."}
    assert system.content[1]["text"].startswith("\n\n## `write_todos`")
    assert "write_todos" in [t.name for t in model_calls()[0].tools]


def test_todo_list_parallel_calls_are_refused(tmp_path):
    todos = [{"content": "x", "status": "pending"}]
    first = reply(
        "", call("write_todos", {"todos": todos}, "t1"), call("write_todos", {"todos": todos}, "t2")
    )
    a = agent(tmp_path, replies_=[first, "ok"], middleware="todo_list")
    result = a.invoke(ask())
    errors = [m for m in result["messages"] if m.type == "tool"]
    assert len(errors) == 2 and all(m.status == "error" for m in errors)
    assert errors[0].content.startswith("Error: The `write_todos` tool should never be called")


def test_B5_llm_tool_selector_narrows_the_tools(tmp_path):
    (tmp_path / "sel.json").write_text(
        '{"replies": [{"content": "{\\"tools\\": [\\"multiply\\"]}"}], '
        '"profile": {"structured_output": true}}'
    )
    a = agent(
        tmp_path,
        replies_=["ok"],
        tools="kit.add, kit.multiply, kit.echo",
        middleware='llm_tool_selector { model: "scripted:sel.json", always_include: ["echo"] }',
    )
    a.invoke(ask("times?"))
    from agentc.stdlib.providers.scripted import CREATED

    main = next(m for m in reversed(CREATED) if m.replies and m.replies[0].content == "ok")
    assert [t.name for t in main.calls[0].tools] == ["multiply", "echo"]
    selector = next(m for m in reversed(CREATED) if m.replies and "tools" in m.replies[0].text)
    assert selector.calls[0].response_format.name == "ToolSelectionResponse"


def test_E13_tool_emulator_answers_instead_of_the_tool(tmp_path):
    (tmp_path / "emu.json").write_text('["EMULATED"]')
    a = agent(
        tmp_path,
        replies_=[reply("", call("broken", {"x": 1}, "c1")), "ok"],
        tools="kit.broken",
        middleware='tool_emulator { model: "scripted:emu.json" }',
    )
    result = a.invoke(ask())
    assert result["messages"][2].content == "EMULATED"
