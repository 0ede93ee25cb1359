"""Unit tests of tools.py: B8, B11, E1–E4, E9, E11, C7/D3 (tests name their seat)."""

from __future__ import annotations

import asyncio
from typing import Annotated

import pytest

from agentc.runtime.types import Command, CommandGraph
from agentc.stdlib.messages import ToolCall, ToolMessage
from agentc.stdlib.tools import (
    CallEnv,
    InjectedState,
    InjectedStore,
    InjectedToolCallId,
    ToolCommandError,
    ToolDefinitionError,
    ToolException,
    ToolRuntime,
    format_content,
    make_tool,
    run_tool,
    tool,
    unknown_tool_message,
)


def run(t, args, call_id="c1", state=None, store=None):
    call = ToolCall(name=t.name, args=args, id=call_id)
    return asyncio.run(run_tool(t, call, CallEnv(state=state or {}, store=store)))


def add(a: int, b: int = 1) -> int:
    """Add two integers.

    Returns their sum."""
    return a + b


def test_B11_name_description_schema_from_function():
    t = make_tool(add)
    assert t.name == "add"
    assert t.description == "Add two integers.\n\nReturns their sum."
    assert t.parameters["properties"]["a"]["type"] == "integer"
    assert t.parameters["required"] == ["a"]
    assert t.parameters["properties"]["b"]["default"] == 1


def test_B11_function_without_docstring_is_refused():
    def nodoc(x: int) -> int:
        return x

    with pytest.raises(ToolDefinitionError, match="no docstring"):
        make_tool(nodoc)


def test_tool_decorator_shapes():
    @tool
    def plain(x: int) -> int:
        """Plain."""
        return x

    @tool("renamed", return_direct=True, response_format="content_and_artifact")
    def other(x: int):
        """Other."""
        return str(x), {"raw": x}

    assert plain.name == "plain" and plain(3) == 3
    assert other.name == "renamed" and other.return_direct
    msg = run(other, {"x": 4})
    assert msg.content == "4" and msg.artifact == {"raw": 4}


def test_E2_argument_error_told_to_model():
    msg = run(make_tool(add), {"a": "x"})
    assert isinstance(msg, ToolMessage) and msg.status == "error"
    assert msg.content.startswith(
        "Error invoking tool 'add' with kwargs {'a': 'x'} with error:\n a:"
    )
    assert msg.content.endswith("\n Please fix the error and try again.")


def test_E2_valid_args_are_coerced_and_defaults_left_to_function():
    assert run(make_tool(add), {"a": "2"}).content == "3"


def looks(
    q: str,
    state: Annotated[dict, InjectedState],
    who: Annotated[str, InjectedToolCallId],
    rt: ToolRuntime,
) -> str:
    """Look things up."""
    return f"{q}|{state['k']}|{who}|{rt.tool_call_id}"


def test_E4_injected_args_hidden_filled_and_unforgeable():
    t = make_tool(looks)
    assert set(t.parameters["properties"]) == {"q"}
    msg = run(t, {"q": "a", "state": {"k": "forged"}, "who": "forged"}, state={"k": "real"})
    assert msg.content == "a|real|c1|c1"


def test_E4_injected_state_field_and_store():
    def f(
        msgs: Annotated[list, InjectedState("messages")], store: Annotated[object, InjectedStore]
    ) -> str:
        """F."""
        return f"{len(msgs)} {store}"

    t = make_tool(f)
    assert run(t, {}, state={"messages": [1, 2]}, store="S").content == "2 S"
    with pytest.raises(ValueError, match="store"):
        run(t, {}, state={"messages": []})


def test_E2_errors_filtered_of_injected_args():
    msg = run(make_tool(looks), {"state": 1})
    assert "q: Field required" in msg.content
    assert "state" not in msg.content.split("with error:")[1]


def test_E3_tool_exception_stops_run_by_default():
    def boom(x: int) -> int:
        """Boom."""
        raise ToolException("bad x")

    with pytest.raises(ToolException):
        run(make_tool(boom), {"x": 1})
    handled = run(make_tool(boom, handle_tool_error=True), {"x": 1})
    assert handled.content == "bad x" and handled.status == "error"
    custom = run(make_tool(boom, handle_tool_error="nope"), {"x": 1})
    assert custom.content == "nope"


def test_E3_other_exceptions_stop_run():
    def boom(x: int) -> int:
        """Boom."""
        raise KeyError("k")

    with pytest.raises(KeyError):
        run(make_tool(boom, handle_tool_error=True), {"x": 1})


@pytest.mark.parametrize(
    "value, expected",
    [
        ("text", "text"),
        (5, "5"),
        ({"a": 1, "é": "ü"}, '{"a": 1, "é": "ü"}'),
        (["a", "b"], '["a", "b"]'),
        ([{"type": "text", "text": "hi"}], [{"type": "text", "text": "hi"}]),
        ((1, 2), "[1, 2]"),
        (None, "null"),
        ([], []),
        ({1, 2}, "{1, 2}"),
    ],
)
def test_B8_E9_output_formatting(value, expected):
    assert format_content(value) == expected


def test_B8_no_truncation():
    assert len(format_content("x" * 100_000)) == 100_000


def test_E1_unknown_tool_lists_valid_names():
    msg = unknown_tool_message(ToolCall(name="nope", args={}, id="c9"), ["add", "mul"])
    assert msg.content == "Error: nope is not a valid tool, try one of [add, mul]."
    assert msg.status == "error" and msg.tool_call_id == "c9"


def cmd_tool(kind: str, call_id: Annotated[str, InjectedToolCallId]):
    """Return commands."""
    if kind == "ok":
        return Command(
            update={"messages": [ToolMessage(content="done", tool_call_id=call_id)], "x": 1},
            goto="model",
        )
    if kind == "noanswer":
        return Command(update={"x": 1})
    if kind == "list_update":
        return Command(update=[("x", 1)])
    if kind == "parent":
        return Command(update={"x": 1}, graph=CommandGraph.PARENT)
    if kind == "goto_only":
        return Command(goto="end")
    if kind == "two":
        return [
            ToolMessage(content="a", tool_call_id=call_id),
            ToolMessage(content="b", tool_call_id=call_id),
        ]
    return [Command(update={"x": 2}), ToolMessage(content=["x", "y"], tool_call_id=call_id)]


def test_E11_command_must_answer_its_call():
    t = make_tool(cmd_tool)
    ok = run(t, {"kind": "ok"})
    assert isinstance(ok, Command) and ok.update["messages"][0].name == "cmd_tool"
    with pytest.raises(ToolCommandError, match="no ToolMessage"):
        run(t, {"kind": "noanswer"})


def test_D3_list_update_refused_and_unchecked_cases_pass():
    t = make_tool(cmd_tool)
    with pytest.raises(ToolCommandError):
        run(t, {"kind": "list_update"})
    assert run(t, {"kind": "parent"}).graph is CommandGraph.PARENT
    assert run(t, {"kind": "goto_only"}).goto == "end"


def test_C7_returned_list_needs_exactly_one_answer():
    t = make_tool(cmd_tool)
    with pytest.raises(ToolCommandError, match="2 messages"):
        run(t, {"kind": "two"})
    out = run(t, {"kind": "list"})
    assert out[1].content == '["x", "y"]'


def test_async_tool_runs_natively():
    async def slow(x: int) -> int:
        """Slow."""
        await asyncio.sleep(0)
        return x * 2

    t = make_tool(slow)
    assert t.is_async and run(t, {"x": 4}).content == "8"
