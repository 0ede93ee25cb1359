"""Subgraph / agent nodes: H2 (own bound limit), H3 (own namespace in the parent's store),
interrupts crossing the boundary, Command(graph=PARENT) — on graphs in
`graphs/subgraph.agent`."""

from __future__ import annotations

import pytest
from support.graphs import agent_graph

from agentc.runtime import (
    Command,
    InvalidUpdateError,
    MemoryCheckpointer,
    RecursionLimitError,
    RunConfig,
)

T = RunConfig(thread_id="t")


def _g(name, **kw):
    return agent_graph("subgraph", name, **kw)


def test_H2_child_keeps_its_own_limit(nodes):
    out = _g("parent").invoke({"messages": ["hi"]}, RunConfig(recursion_limit=2))
    assert [m.text for m in out["messages"]] == ["hi", "c", "c", "c"]  # 3 child steps > 2
    with pytest.raises(RecursionLimitError, match="more than 2"):
        _g("parent_of_short").invoke({"messages": ["hi"]})


def test_H3_child_saves_under_its_own_namespace(nodes):
    memory = MemoryCheckpointer()
    g = _g("parent", checkpointer=memory)
    g.invoke({"messages": ["hi"]}, T)
    namespaces = {ns for (thread, ns) in memory._ckpts}
    assert "" in namespaces and any(ns.startswith("helper:") for ns in namespaces)
    # the parent's history holds only its own steps: input, START, helper
    assert len(g.get_state_history(T)) == 4


def test_interrupt_inside_subgraph_resumes_through_parent(nodes):
    g = _g("parent_of_asking")
    out = g.invoke({"messages": ["hi"]}, T)
    assert out["__interrupt__"][0].value == "go?" and out["log"] == []
    out = g.invoke(Command(resume="yes"), T)
    assert [m.text for m in out["messages"]] == ["hi", "yes"] and out["log"] == ["after"]


def test_command_to_parent_steers_the_parent(nodes):
    out = _g("parent_of_jumping").invoke({"messages": ["hi"]})
    assert out["log"] == ["jumped", "other"]


def test_command_to_parent_at_root_is_a_clear_error(nodes):
    with pytest.raises(InvalidUpdateError, match="not running inside another graph"):
        _g("root_jump").invoke({})
