"""Subgraph / agent nodes: H2 (own bound limit), H3 (own namespace in the parent's store),
interrupts crossing the boundary, Command(graph=PARENT)."""

from __future__ import annotations

import pytest

from agentc.runtime import Command, CommandGraph, InvalidUpdateError, RunConfig, interrupt
from conftest import END, START, chain, chan, cmp, compiled, field, graph, node, subgraph, when

T = RunConfig(thread_id="t")


def _child(steps, rounds=3):
    return graph("child", state=[chan("messages", "messages"), chan("k", default=0)],
                 nodes=[node("step", lambda s: {"k": s["k"] + 1, "messages": [("ai", "c")]})],
                 edges=[(START, "step")],
                 branches=[when("step", (cmp(field("k"), "<", rounds), "step"), (None, END))],
                 steps=steps)


def _parent(child, steps=25):
    return graph("parent", state=[chan("messages", "messages"), chan("log", "append", [])],
                 nodes=[subgraph("helper", "child"), node("after", lambda s: {"log": "after"})],
                 edges=chain("helper", "after"), steps=steps)


def test_H2_child_keeps_its_own_limit():
    out = compiled(_parent(_child(steps=10), steps=2), _child(steps=10)).invoke(
        {"messages": ["hi"]}, RunConfig(recursion_limit=2))
    assert [m.text for m in out["messages"]] == ["hi", "c", "c", "c"]  # 3 child steps > 2
    from agentc.runtime import RecursionLimitError
    with pytest.raises(RecursionLimitError, match="more than 2"):
        compiled(_parent(_child(2)), _child(2)).invoke({"messages": ["hi"]})


def test_H3_child_saves_under_its_own_namespace(memory):
    g = compiled(_parent(_child(10)), _child(10), checkpointer=memory)
    g.invoke({"messages": ["hi"]}, T)
    namespaces = {ns for (thread, ns) in memory._ckpts}
    assert "" in namespaces and any(ns.startswith("helper:") for ns in namespaces)
    assert len(g.get_state_history(T)) == 3  # the parent's history holds only its own steps


def test_interrupt_inside_subgraph_resumes_through_parent(memory):
    child = graph("child", state=[chan("messages", "messages")],
                  nodes=[node("ask", lambda s: {"messages": [("ai", interrupt("go?"))]})],
                  edges=chain("ask"))
    g = compiled(_parent(child), child, checkpointer=memory)
    out = g.invoke({"messages": ["hi"]}, T)
    assert out["__interrupt__"][0].value == "go?" and "log" in out and out["log"] == []
    out = g.invoke(Command(resume="yes"), T)
    assert [m.text for m in out["messages"]] == ["hi", "yes"] and out["log"] == ["after"]


def test_command_to_parent_steers_the_parent():
    child = graph("child", state=[chan("messages", "messages")],
                  nodes=[node("jump", lambda s: Command(update={"log": "jumped"}, goto="other",
                                                        graph=CommandGraph.PARENT))],
                  edges=chain("jump"))
    parent = graph("parent", state=[chan("messages", "messages"), chan("log", "append", [])],
                   nodes=[subgraph("helper", "child"), node("other", lambda s: {"log": "other"})],
                   edges=[(START, "helper"), ("other", END)])
    out = compiled(parent, child).invoke({"messages": ["hi"]})
    assert out["log"] == ["jumped", "other"]


def test_command_to_parent_at_root_is_a_clear_error():
    g = compiled(graph(state=[chan("x")],
                       nodes=[node("n", lambda s: Command(goto="x", graph=CommandGraph.PARENT))],
                       edges=chain("n")))
    with pytest.raises(InvalidUpdateError, match="not running inside another graph"):
        g.invoke({})
