"""A graph block's `tools([...])` node with `tools_condition`, run by the real runtime:
LangGraph's ToolNode — every call of the last AI message, answered in listed order (E5),
bad arguments and unknown tools answered as error tool messages (E1, E2), other failures
stop the run (E3), injected state / tool-call id / runtime / store (E4), `Command`s from
tools (E11), the conversation channel named by the config, `wrap_tool_call` hooks."""

from __future__ import annotations

import time
from typing import Annotated, Any

import pytest
from graph_node_kit import TOOLS_CONDITION, tools_node
from support.graphs import END, SPAN, START, chan, graph, node, ref

from agentc import ir
from agentc.runtime import compile
from agentc.runtime.store import InMemoryStore
from agentc.runtime.types import Command
from agentc.stdlib.messages import AIMessage, ToolMessage
from agentc.stdlib.nodes import ToolNodeError
from agentc.stdlib.tools import InjectedState, InjectedStore, InjectedToolCallId, ToolRuntime


def slow_add(a: int, b: int) -> int:
    """Add two numbers, slowly."""
    time.sleep(0.05 if a == 1 else 0)
    return a + b


def fail(reason: str) -> str:
    """Always fails."""
    raise RuntimeError(reason)


def with_state(
    topic: Annotated[str, InjectedState("topic")], call_id: Annotated[str, InjectedToolCallId]
) -> str:
    """Reads the topic."""
    return f"{topic}/{call_id}"


def with_runtime(runtime: ToolRuntime) -> str:
    """Reads the runtime."""
    return f"{runtime.tool_call_id}:{sorted(runtime.state)}"


def remember(note: str, store: Annotated[Any, InjectedStore()]) -> str:
    """Saves a note."""
    store.put(("notes",), "last", {"note": note})
    return "saved"


def set_topic(topic: str, call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """Sets the topic."""
    return Command(
        update={"topic": topic, "messages": [ToolMessage(content="set", tool_call_id=call_id)]}
    )


def calls(*items: tuple[str, dict[str, Any]]) -> AIMessage:
    return AIMessage(
        content="",
        tool_calls=[{"name": n, "args": a, "id": f"c{i}"} for i, (n, a) in enumerate(items)],
    )


def loop_graph(
    act: ir.NodeSpec, first: AIMessage, *extra: ir.ChannelSpec, key: str = "messages"
) -> ir.Graph:
    """START → think (one scripted tool-calling reply, then "done") ⇄ act, by tools_condition."""
    think = node("think", _scripted(first, key))
    return graph(
        state=[chan(key, "messages", []), *extra],
        nodes=[think, act],
        edges=[(START, "think"), ("act", "think")],
        branches=[
            ir.BranchSpec(
                source="think",
                kind=ir.BranchKind.ROUTER,
                router=TOOLS_CONDITION,
                routes={"tools": "act", "end": END},
                span=SPAN,
            )
        ],
    )


def _scripted(first: AIMessage, key: str):
    def think(state: dict) -> dict:
        if any(isinstance(m, AIMessage) for m in state[key]):
            return {key: [AIMessage(content="done")]}
        return {key: [first]}

    return think


def run(g: ir.Graph, value: Any, **kw: Any) -> dict[str, Any]:
    program = ir.Program(source=ir.SourceRef(file="t.agent", sha256="0"), graphs=[g])
    return compile(program, g.name, **kw).invoke(value)


def answers(out: dict[str, Any], key: str = "messages") -> list[tuple[str, str, str]]:
    return [(m.tool_call_id, m.status, m.text) for m in out[key] if isinstance(m, ToolMessage)]


def test_parallel_calls_answer_in_listed_order_and_bad_calls_become_error_messages():
    first = calls(
        ("slow_add", {"a": 1, "b": 2}),
        ("slow_add", {"a": 5, "b": 5}),
        ("slow_add", {"a": "x"}),
        ("nope", {}),
    )
    out = run(loop_graph(tools_node("act", [slow_add]), first), {"messages": ["go"]})
    got = answers(out)
    assert [g[:2] for g in got] == [
        ("c0", "success"),
        ("c1", "success"),
        ("c2", "error"),
        ("c3", "error"),
    ]
    assert got[0][2] == "3" and got[1][2] == "10"  # E5: listed order, not finishing order
    assert "slow_add" in got[2][2] and "b" in got[2][2]  # E2: told to the model
    assert got[3][2] == "Error: nope is not a valid tool, try one of [slow_add]."  # E1
    assert out["messages"][-1].text == "done"


def test_any_other_tool_failure_stops_the_run():
    first = calls(("fail", {"reason": "disk on fire"}))
    with pytest.raises(RuntimeError, match="disk on fire"):  # E3, as LangGraph's default
        run(loop_graph(tools_node("act", [fail]), first), {"messages": ["go"]})


def test_injected_state_call_id_runtime_and_store():
    first = calls(("with_state", {}), ("with_runtime", {}), ("remember", {"note": "n1"}))
    store = InMemoryStore()
    g = loop_graph(
        tools_node("act", [with_state, with_runtime, remember]), first, chan("topic", default="")
    )
    out = run(g, {"messages": ["go"], "topic": "cats"}, store=store)
    got = [a[2] for a in answers(out)]
    assert got == ["cats/c0", "c1:['messages', 'topic']", "saved"]
    assert store.get(("notes",), "last").value == {"note": "n1"}


def test_a_command_from_a_tool_updates_other_channels():
    first = calls(("set_topic", {"topic": "dogs"}))
    out = run(
        loop_graph(tools_node("act", [set_topic]), first, chan("topic", default="")),
        {"messages": ["go"]},
    )
    assert out["topic"] == "dogs"
    assert answers(out) == [("c0", "success", "set")]


def test_the_conversation_channel_comes_from_the_config():
    first = calls(("slow_add", {"a": 2, "b": 2}))
    g = loop_graph(tools_node("act", [slow_add], messages="history"), first, key="history")
    # tools_condition reads `messages`: route by a router over `history` instead
    g = g.model_copy(
        update={
            "branches": [
                ir.BranchSpec(
                    source="think",
                    kind=ir.BranchKind.ROUTER,
                    router=ref(lambda s: "tools" if s["history"][-1].tool_calls else "end"),
                    routes={"tools": "act", "end": END},
                    span=SPAN,
                )
            ]
        }
    )
    out = run(g, {"history": ["go"]})
    assert answers(out, "history") == [("c0", "success", "4")]


def test_no_ai_message_is_an_error_naming_the_node():
    g = graph(
        state=[chan("messages", "messages", [])],
        nodes=[tools_node("act", [slow_add])],
        edges=[(START, "act"), ("act", END)],
    )
    with pytest.raises(ToolNodeError, match="tools node `act` found no AI message in `messages`"):
        run(g, {"messages": ["hi"]})


def test_an_ai_message_without_calls_answers_nothing():
    g = graph(
        state=[chan("messages", "messages", [])],
        nodes=[tools_node("act", [slow_add])],
        edges=[(START, "act"), ("act", END)],
    )
    out = run(g, {"messages": [AIMessage(content="no calls")]})
    assert [m.text for m in out["messages"]] == ["no calls"]


def test_wrap_tool_call_hook_sees_each_call():
    seen: list[str] = []

    def audit(request, handler):
        seen.append(request.tool_call["name"])
        return handler(request)

    first = calls(("slow_add", {"a": 2, "b": 3}))
    act = tools_node("act", [slow_add], wrap=[{"$import": ref(audit).key, "is_file": False}])
    out = run(loop_graph(act, first), {"messages": ["go"]})
    assert seen == ["slow_add"]
    assert answers(out) == [("c0", "success", "5")]
