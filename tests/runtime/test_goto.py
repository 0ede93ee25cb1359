"""Declared targets: a node's `goto: [...]` bounds its Command(goto); a route's target list
bounds its Sends; a node's `input: Schema` checks the payload of each Send to it. Each
mistake is one error naming the node (or router) and what was declared. LangGraph checks
none of these at run time (its `destinations` only draw the graph), so agentc's answer
is asserted here on its own."""

from __future__ import annotations

import pytest
from support.graphs import END, START, chan, compiled, graph, node, obj, schema, sends

from agentc.runtime import (
    Command,
    InvalidSendError,
    Send,
    UndeclaredTargetError,
    failed_nodes,
)
from agentc.runtime.errors import BindError


def _gate(goto_to):
    def gate(state):
        return Command(update={"log": ["gate"]}, goto=goto_to)

    return gate


def _gated(goto_to, declared):
    return graph(
        state=[chan("log", "append", [])],
        nodes=[
            node("gate", _gate(goto_to), goto=declared),
            node("write", lambda s: {"log": ["write"]}),
            node("other", lambda s: {"log": ["other"]}),
        ],
        edges=[(START, "gate")],
    )


def test_goto_to_a_declared_target_runs():
    assert compiled(_gated("write", ["write", END])).invoke({})["log"] == ["gate", "write"]
    assert compiled(_gated(END, ["write", END])).invoke({})["log"] == ["gate"]
    assert compiled(_gated([Send("write", {})], ["write"])).invoke({})["log"] == ["gate", "write"]


def test_goto_outside_the_declared_list_names_node_and_targets():
    with pytest.raises(UndeclaredTargetError) as err:
        compiled(_gated("other", ["write", END])).invoke({})
    text = str(err.value)
    assert "node `gate` returned Command(goto=`other`)" in text
    assert "(`END`, `write`)" in text and "error[undeclared-target]" in text
    assert failed_nodes(err.value) == ("gate",)


def test_goto_to_end_must_be_declared_too():
    with pytest.raises(UndeclaredTargetError, match=r"goto=`END`"):
        compiled(_gated(END, ["write"])).invoke({})


def test_undeclared_goto_is_not_retried():
    calls = []

    def gate(state):
        calls.append(1)
        return Command(goto="other")

    from agentc import ir

    g = graph(
        state=[chan("log", "append", [])],
        nodes=[
            node("gate", gate, goto=["write"], retry=ir.RetryPolicy(initial_interval=0)),
            node("write", lambda s: None),
            node("other", lambda s: None),
        ],
        edges=[(START, "gate")],
    )
    with pytest.raises(UndeclaredTargetError):
        compiled(g).invoke({})
    assert calls == [1]


def test_undeclared_goto_is_free():
    # no `goto` declared: any node (as LangGraph without annotations)
    assert compiled(_gated("other", None)).invoke({})["log"] == ["gate", "other"]


# ---------------------------------------------------------------- a route's target list


def _planner(answer):
    return graph(
        state=[chan("log", "append", []), chan("topic", default="")],
        nodes=[
            node("plan", lambda s: None),
            node("worker", lambda s: {"log": [f"w:{s['name']}"]}),
            node("other", lambda s: {"log": ["other"]}),
        ],
        edges=[(START, "plan")],
        branches=[sends("plan", lambda s: answer, ["worker"])],
    )


def test_router_sends_to_listed_nodes():
    out = compiled(_planner([Send("worker", {"name": "x"}), Send("worker", {"name": "y"})])).invoke(
        {}
    )
    assert out["log"] == ["w:x", "w:y"]


def test_router_send_outside_its_list_names_the_router():
    with pytest.raises(UndeclaredTargetError) as err:
        compiled(_planner([Send("other", {})])).invoke({})
    text = str(err.value)
    assert "the router out of `plan` sent a task to `other`" in text
    assert "(`worker`)" in text


def test_router_label_outside_its_list_is_refused():
    with pytest.raises(Exception, match="not one of its routes"):
        compiled(_planner("other")).invoke({})


# ---------------------------------------------------------------- a Send's payload


SECTION = schema(
    "Section",
    {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "pages": {"type": "integer"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["name", "pages"],
    },
)


def _typed(payload):
    g = graph(
        state=[chan("log", "append", [])],
        nodes=[
            node("plan", lambda s: None),
            node("worker", lambda s: {"log": [s["name"]]}, input_schema="Section"),
        ],
        edges=[(START, "plan")],
        branches=[sends("plan", lambda s: [Send("worker", payload)], ["worker"])],
    )
    return compiled(g, schemas=[SECTION])


def test_send_payload_matching_the_schema_runs():
    assert _typed({"name": "intro", "pages": 2, "tags": ["a"]}).invoke({})["log"] == ["intro"]


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        ({"pages": 2}, "field `name`: missing (required)"),
        ({"name": 3, "pages": 2}, "field `name`: expected a string, got 3"),
        ({"name": "x", "pages": True}, "field `pages`: expected an integer, got true"),
        ({"name": "x", "pages": 1, "tags": ["a", 2]}, "field `tags[1]`: expected a string, got 2"),
        ("intro", 'expected an object, got "intro"'),
        ({"name": "x", "pages": 1, "tags": {"a"}}, "`tags`: expected a list, got {'a'} (set)"),
    ],
)
def test_send_payload_against_the_schema_names_node_and_field(payload, says):
    with pytest.raises(InvalidSendError) as err:
        _typed(payload).invoke({})
    text = str(err.value)
    assert "node `worker` was sent a payload that does not match `Section`" in text
    assert says in text


def test_a_pulled_task_of_a_typed_node_reads_the_state():
    g = graph(
        state=[chan("name", default="from state")],
        nodes=[node("worker", lambda s: {"name": s["name"] + "!"}, input_schema="Section")],
        edges=[(START, "worker"), ("worker", END)],
    )
    assert compiled(g, schemas=[SECTION]).invoke({})["name"] == "from state!"


def test_input_schema_that_the_program_lacks_is_a_bind_error():
    g = graph(
        state=[chan("x")],
        nodes=[node("worker", lambda s: None, input_schema="Missing")],
        edges=[(START, "worker")],
    )
    with pytest.raises(BindError, match="node `worker` takes `input: Missing`"):
        compiled(g)


def test_schema_helper_builds_required_and_defaults():
    s = obj({"name": "string"}, {"n": 1})
    assert s["required"] == ["name"] and s["properties"]["n"] == {"default": 1}
