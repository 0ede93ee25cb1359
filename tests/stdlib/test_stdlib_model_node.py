"""The model and tool nodes, called directly (no runtime): B1, B2, B4/E10, B5/A8, B6/C3,
B7, F12, G3–G7, A4, A7, E1, E5."""

from __future__ import annotations

import asyncio
from typing import Annotated

import pytest
from pydantic import BaseModel
from support.stdlib_kit import SPAN, FakeCtx, make_agent, tool_spec

from agentc import ir
from agentc.runtime.types import RunConfig, Send
from agentc.stdlib import agent as ag
from agentc.stdlib.messages import (
    REMOVE_ALL_MESSAGES,
    AIMessage,
    HumanMessage,
    InvalidToolCall,
    RemoveMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
)
from agentc.stdlib.structured_output import StructuredOutputValidationError
from agentc.stdlib.tools import InjectedState


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def peek(state: Annotated[dict, InjectedState]) -> str:
    """How many messages."""
    return str(len(state["messages"]))


OBJECTS = {"test:add": add, "test:peek": peek}


class Answer(BaseModel):
    """An answer."""

    value: int
    explanation: str


def node_for(graph, env):
    return ag.model_node(None, graph, env)


def call(node, messages, ctx=None):
    return asyncio.run(node({"messages": messages}, ctx))


def test_B1_system_prompt_prepended_never_saved():
    graph, env = make_agent(["hi"], prompt="Be brief.")
    node = node_for(graph, env)
    update = call(node, [HumanMessage(content="hi", id="h")])
    sent = node.chooser.pick(None).calls[0].messages
    assert isinstance(sent[0], SystemMessage) and sent[0].content == "Be brief."
    assert [m.type for m in update["messages"]] == ["ai"]


def test_B2_whole_history_sent():
    graph, env = make_agent(["a"])
    node = node_for(graph, env)
    hist = [HumanMessage(content=str(i), id=str(i)) for i in range(50)]
    call(node, hist)
    assert list(node.chooser.pick(None).calls[0].messages) == hist


def test_B5_A8_B6_all_tools_every_call_and_no_tool_choice():
    graph, env = make_agent(
        ["a", "b"],
        tools=[tool_spec("add")],
        objects=OBJECTS,
        provider_tools=[{"type": "web_search"}],
    )
    node = node_for(graph, env)
    call(node, [HumanMessage(content="x")])
    call(node, [HumanMessage(content="y")])
    for req in node.chooser.pick(None).calls:
        assert [t.name for t in req.tools] == ["add"]
        assert req.provider_tools == ({"type": "web_search"},)
        assert req.tool_choice is None and req.response_format is None


def test_B4_E10_invalid_calls_repaired_before_the_call():
    graph, env = make_agent(["ok"])
    node = node_for(graph, env)
    bad = AIMessage(
        content="",
        id="a1",
        invalid_tool_calls=[
            InvalidToolCall(name="add", args="{bad", id="c1"),
            InvalidToolCall(name="x", args="{"),
        ],
    )
    update = call(node, [HumanMessage(content="q", id="h"), bad])
    sent = node.chooser.pick(None).calls[0].messages
    assert sent[-1].content == (
        "Tool call add with id c1 could not be executed - arguments were malformed or truncated."
    )
    assert sent[-1].status == "error" and len(sent) == 3  # the id-less call is left alone
    msgs = update["messages"]
    assert isinstance(msgs[0], RemoveMessage) and msgs[0].id == REMOVE_ALL_MESSAGES
    assert [m.type for m in msgs[1:]] == ["human", "ai", "tool", "ai"]


def output_spec(strategy, handle_errors=True):
    return ir.OutputSpec(
        schemas=["Answer"], strategy=strategy, handle_errors=handle_errors, span=SPAN
    )


def answer_schema():
    return ir.SchemaSpec(
        name="Answer", json_schema={}, ref=ir.ImportRef(module="test", attr="Answer"), span=SPAN
    )


def structured_agent(replies, strategy=ir.OutputStrategy.TOOL, **kw):
    return make_agent(
        replies,
        output=output_spec(strategy, kw.pop("handle_errors", True)),
        schemas=[answer_schema()],
        objects={**OBJECTS, "test:Answer": Answer},
        **kw,
    )


def sc(args, id="s1"):
    return {"tool_calls": [{"name": "Answer", "args": args, "id": id}]}


def test_B7_C3_tool_strategy_forces_any_and_adds_schema_tool():
    graph, env = structured_agent([sc({"value": 5, "explanation": "2+3"})])
    node = node_for(graph, env)
    update = call(node, [HumanMessage(content="q")])
    req = node.chooser.pick(None).calls[0]
    assert req.tool_choice == "any" and [t.name for t in req.tools] == ["Answer"]
    assert update["structured_response"] == Answer(value=5, explanation="2+3")
    assert update["messages"][1].content == (
        "Returning structured response: value=5 explanation='2+3'"
    )


def test_G4_invalid_answer_retried_with_error():
    graph, env = structured_agent([sc({"value": "x"})])
    update = call(node_for(graph, env), [HumanMessage(content="q")])
    assert update["structured_response"] is None  # F12
    retry = update["messages"][1]
    assert retry.content.startswith(
        "Error: Failed to parse structured output for tool "
        "'Answer': Failed to parse data to Answer:"
    )
    assert retry.content.endswith("\n Please fix your mistakes.")


def test_G4_handle_errors_false_raises():
    graph, env = structured_agent([sc({"value": "x"})], handle_errors=False)
    with pytest.raises(StructuredOutputValidationError):
        call(node_for(graph, env), [HumanMessage(content="q")])


def test_G7_several_answers_none_counts():
    graph, env = structured_agent(
        [
            {
                "tool_calls": [
                    {"name": "Answer", "args": {"value": 1, "explanation": "a"}, "id": "s1"},
                    {"name": "Answer", "args": {"value": 2, "explanation": "b"}, "id": "s2"},
                ]
            }
        ]
    )
    update = call(node_for(graph, env), [HumanMessage(content="q")])
    assert update["structured_response"] is None
    assert [m.tool_call_id for m in update["messages"][1:]] == ["s1", "s2"]
    assert "multiple structured responses (Answer, Answer)" in update["messages"][1].content


def test_G6_provider_strategy_raises_on_bad_answer():
    graph, env = structured_agent(['{"value": 1}'], strategy=ir.OutputStrategy.PROVIDER)
    node = node_for(graph, env)
    with pytest.raises(StructuredOutputValidationError):
        call(node, [HumanMessage(content="q")])
    assert node.chooser.pick(None).calls[0].response_format.name == "Answer"


def test_G5_auto_uses_profile():
    graph, env = structured_agent(
        ['{"value": 1, "explanation": "e"}'],
        strategy=ir.OutputStrategy.AUTO,
        profile={"structured_output": True},
    )
    update = call(node_for(graph, env), [HumanMessage(content="q")])
    assert update["structured_response"] == Answer(value=1, explanation="e")
    graph, env = structured_agent(
        [sc({"value": 1, "explanation": "e"})], strategy=ir.OutputStrategy.AUTO
    )
    node = node_for(graph, env)
    call(node, [HumanMessage(content="q")])
    assert node.chooser.pick(None).calls[0].tool_choice == "any"


def test_A4_configurable_model_per_run(tmp_path):
    script = tmp_path / "other.json"
    script.write_text('["from file"]')
    graph, env = make_agent(["fixed"], model_options={"configurable": True})
    env.base_dir = str(tmp_path)
    node = node_for(graph, env)
    ctx = FakeCtx(config=RunConfig(configurable={"model": "scripted:other.json"}))
    assert call(node, [HumanMessage(content="q")], ctx)["messages"][0].content == "from file"
    assert call(node, [HumanMessage(content="q")])["messages"][0].content == "fixed"


def test_A7_last_tool_of_a_name_wins():
    agent = make_agent([], tools=[tool_spec("add"), tool_spec("add", return_direct=True)])[0]
    specs = ag.all_tool_specs(agent.agent)
    assert len(specs) == 1 and specs[0].return_direct


def run_tools(graph, env, state):
    runner = ag.tool_node(None, graph, env)
    return asyncio.run(runner(state, FakeCtx(config=RunConfig())))


def test_E1_E5_tool_node_full_state_results_in_order():
    graph, env = make_agent([], tools=[tool_spec("add")], objects=OBJECTS)
    ai = AIMessage(
        content="",
        tool_calls=[
            ToolCall(name="add", args={"a": 1, "b": 2}, id="1"),
            ToolCall(name="nope", args={}, id="2"),
            ToolCall(name="add", args={"a": 5, "b": 5}, id="3"),
        ],
    )
    out = run_tools(graph, env, {"messages": [ai]})
    assert [m.content for m in out["messages"]] == [
        "3",
        "Error: nope is not a valid tool, try one of [add].",
        "10",
    ]


def test_C2_E5_model_to_tools_sends_each_pending_call():
    graph, env = make_agent(
        [],
        tools=[
            tool_spec("add"),
            tool_spec("peek", injected=[ir.InjectedArg(param="state", kind=ir.InjectedKind.STATE)]),
        ],
        objects=OBJECTS,
    )
    route = ag.model_to_tools(None, graph, env)
    ai = AIMessage(
        content="",
        tool_calls=[
            ToolCall(name="add", args={"a": 1, "b": 2}, id="1"),
            ToolCall(name="peek", args={}, id="2"),
        ],
    )
    state = {"messages": [HumanMessage(content="q"), ai]}
    sends = route(state)
    assert all(isinstance(s, Send) and s.node == "tools" for s in sends)
    outs = [run_tools(graph, env, s.arg) for s in sends]
    assert [o["messages"][0].content for o in outs] == ["3", "2"]
    assert route({"messages": [AIMessage(content="done")]}) == "end"
    assert route({"messages": [ai], "jump_to": "model"}) == "model"


def test_C5_G2_tools_to_model_return_direct():
    graph, env = make_agent(
        [], tools=[tool_spec("add", return_direct=True), tool_spec("peek")], objects=OBJECTS
    )
    route = ag.tools_to_model(None, graph, env)
    ai = AIMessage(content="", tool_calls=[ToolCall(name="add", args={}, id="1")])
    both = AIMessage(
        content="",
        tool_calls=[ToolCall(name="add", args={}, id="1"), ToolCall(name="peek", args={}, id="2")],
    )
    tm = ToolMessage(content="3", tool_call_id="1", name="add")
    assert route({"messages": [ai, tm]}) == "end"
    assert route({"messages": [both, tm]}) == "model"
