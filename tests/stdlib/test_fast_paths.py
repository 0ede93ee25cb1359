"""The per-round-trip shortcuts give what the general code gives (issue 18, item 4).

Each shortcut skips work for the usual case; these compare it with the general answer:
a message's repr with pydantic's own (B3's messages are shown in `asyncio.run`'s task
repr), a tool's validated arguments (E2/E4), a tool's formatted result (B8), the routers'
decisions over a `ListView` history (C2/C5), the messages channel's one-pass write (B3),
and a planned step after an async router (C2).
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Field, computed_field

from agentc.runtime.channels import ListView, list_parts
from agentc.stdlib import routing
from agentc.stdlib.messages import (
    AIMessage,
    HumanMessage,
    InvalidToolCall,
    MessagesChannel,
    RemoveMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
    UsageMetadata,
    add_messages,
)
from agentc.stdlib.tool_results import format_content
from agentc.stdlib.tools import InjectedToolCallId, make_tool, validate_args

MESSAGES = [
    HumanMessage(content="hi ✓", name="me"),
    SystemMessage(content=[{"type": "text", "text": "be 'brief'"}]),
    AIMessage(
        content="",
        id="a1",
        tool_calls=[ToolCall(name="ping", args={"x": 1}, id="c1")],
        invalid_tool_calls=[InvalidToolCall(name="p", args="{", id="c2")],
        usage_metadata=UsageMetadata(input_tokens=3, output_tokens=1, total_tokens=4),
    ),
    ToolMessage(content="1", tool_call_id="c1", name="ping", artifact={"raw": [1]}),
    RemoveMessage(id="a1"),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: m.type)
def test_B3_a_message_repr_is_pydantics(message):
    assert repr(message) == BaseModel.__repr__(message)
    assert str(message) == BaseModel.__str__(message)


def test_B3_a_message_subclass_with_a_hidden_or_computed_field_keeps_pydantics_repr():
    class Hidden(HumanMessage):
        secret: str = Field(default="s", repr=False)

    class Computed(HumanMessage):
        @computed_field  # type: ignore[prop-decorator]
        @property
        def size(self) -> int:
            return len(self.text)

    for message in (Hidden(content="a"), Computed(content="abc")):
        assert repr(message) == BaseModel.__repr__(message)
    assert "secret" not in repr(Hidden(content="a")) and "size=3" in repr(Computed(content="abc"))


def _tool(fn: Any) -> Any:
    return make_tool(fn)


def add(a: int, b: int = 2) -> int:
    """Add."""
    return a + b


def tagged(a: int, call_id: Annotated[str, InjectedToolCallId]) -> str:
    """Tag."""
    return f"{a}{call_id}"


@pytest.mark.parametrize(
    ("fn", "args", "expected"),
    [
        (add, {"a": "1", "b": 3}, {"a": 1, "b": 3}),  # every field given: coerced
        (add, {"a": 1}, {"a": 1}),  # only what the model gave, not the default
        (add, {"a": 1, "b": 2, "zz": 9}, {"a": 1, "b": 2}),  # an unknown key is dropped
        (tagged, {"a": 4, "call_id": "forged"}, {"a": 4}),  # E4: an injected one is dropped
    ],
)
def test_E2_E4_validated_arguments_are_the_given_fields_coerced(fn, args, expected):
    call = ToolCall(name=fn.__name__, args=args, id="c")
    kwargs = validate_args(_tool(fn), call)
    assert kwargs == expected and list(kwargs) == list(expected)
    assert call.args == args  # the call's own arguments are not touched
    kwargs["new"] = 1
    assert "new" not in call.args


@pytest.mark.parametrize(
    "value", [7, -3, 10**30, True, 1.5, None, {"ü": [1, "x"]}, ["a", "b"], (1, 2), "as is"]
)
def test_B8_a_formatted_result_is_what_json_dumps_writes(value):
    expected = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    assert format_content(value) == expected


def test_C2_C5_routers_read_a_view_as_they_read_the_list():
    history = [
        HumanMessage(content="q", id="h"),
        AIMessage(content="", id="a", tool_calls=[ToolCall(name="t", args={}, id="c1")]),
        ToolMessage(content="r", tool_call_id="c1", name="t", id="t1"),
    ]
    base = [*history, HumanMessage(content="later", id="h2")]  # appended after the view
    view = ListView(base, 3)
    assert list_parts(view) == (base, 3) and list_parts(history) == (history, 3)
    assert routing.last_ai_and_tool_messages(view) == routing.last_ai_and_tool_messages(history)
    for direct in ({"t": True}, {"t": False}, {}):
        assert routing.after_tools({"messages": view}, direct) == routing.after_tools(
            {"messages": history}, direct
        )
    assert routing.after_model({"messages": ListView(base, 2)}) == [history[1].tool_calls[0]]
    assert routing.after_model({"messages": view}) is routing.Route.MODEL  # answered
    assert routing.after_model({}) is routing.Route.END


def test_C5_after_tools_ends_only_when_every_executed_tool_returns_directly():
    calls = [ToolCall(name=n, args={}, id=f"c{i}") for i, n in enumerate(["d", "k", "d"])]
    history = [HumanMessage(content="q", id="h"), AIMessage(content="", id="a", tool_calls=calls)]
    assert (
        routing.after_tools({"messages": history}, {"d": True, "k": False}) is routing.Route.MODEL
    )
    assert routing.after_tools({"messages": history}, {"d": True, "k": True}) is routing.Route.END
    assert routing.after_tools({"messages": history}, {"d": True}) is routing.Route.END
    assert routing.after_tools({"messages": history}, {"x": True}) is routing.Route.MODEL


def test_B3_the_channels_one_pass_write_merges_as_add_messages():
    first = [HumanMessage(content="q"), AIMessage(content="a", id="a")]
    writes = [
        first,
        [AIMessage(content="a2", id="a"), ToolMessage(content="t", tool_call_id="c")],
        HumanMessage(content="single"),  # not a list: the general path
        [("user", "pair")],
        [RemoveMessage(id="a")],
    ]
    channel = MessagesChannel("messages")
    expected: list[Any] = []
    for write in writes:
        channel.update([write])
        expected = add_messages(expected, [m for m in channel.ops[-1][1]])
        assert [(type(m), m.content, m.id) for m in channel.output()] == [
            (type(m), m.content, m.id) for m in expected
        ]
    assert all(m.id for m in channel.output())
    assert first[0].id is None  # a message written without an id is copied, not changed


def test_C2_an_async_router_is_awaited_before_the_next_router_is_called(tmp_path):
    from agentc.runtime.planner import plan_next

    order: list[str] = []

    class Router:
        def __init__(self, name: str, is_async: bool) -> None:
            self.name, self.is_async, self.state_only = name, is_async, True

        def fn(self, state: Any) -> Any:
            order.append(f"call {self.name}")
            if not self.is_async:
                return []

            async def answer() -> list[str]:
                order.append(f"await {self.name}")
                return []

            return answer()

    class Branch:
        def __init__(self, router: Router) -> None:
            self.router, self.spec = router, None

    class Bound:
        edges: dict[str, Any] = {}
        branches = {"n": (Branch(Router("a", True)), Branch(Router("b", False)))}
        flow = None
        nodes = {"n": None}

    class Loop:
        b, step = Bound(), 0

        def view(self) -> dict[str, Any]:
            return {}

    from agentc.runtime.algo import Task, TaskResult

    planned = plan_next(Loop(), [(Task("1:n", "n", (0, "n")), TaskResult())])  # type: ignore[arg-type]
    assert asyncio.iscoroutine(planned)
    assert asyncio.run(planned) == []
    assert order == ["call a", "await a", "call b"]
