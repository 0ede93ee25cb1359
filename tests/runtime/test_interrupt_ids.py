"""D4: interrupt ids are unique across threads and runs, and stable for one pending
question (every `get_state`, the result, resuming by id), as LangGraph's are — on graphs
in `graphs/interrupts.agent`, with LangGraph itself as the oracle where it is installed."""

from __future__ import annotations

from typing import TypedDict

import pytest
from support.graphs import agent_graph

from agentc.runtime import Command, RunConfig

T1, T2 = RunConfig(thread_id="t1"), RunConfig(thread_id="t2")


def _ids(out):
    return [i.id for i in out["__interrupt__"]]


def test_D4_first_pause_of_two_threads_has_two_ids(nodes):
    g = agent_graph("interrupts", "ask")
    first, second = _ids(g.invoke({}, T1)), _ids(g.invoke({}, T2))
    assert len(first) == len(second) == 1 and first != second


def test_D4_thread_less_runs_ask_with_different_ids(nodes):
    g = agent_graph("interrupts", "ask_no_saver")
    assert _ids(g.invoke({})) != _ids(g.invoke({}))


def test_D4_one_pending_question_keeps_its_id_and_resumes_by_it(nodes):
    g = agent_graph("interrupts", "ask")
    asked = _ids(g.invoke({}, T1))
    g.invoke({}, T2)  # another thread's pause changes nothing of t1's
    assert [i.id for i in g.get_state(T1).interrupts] == asked
    assert [i.id for i in g.get_state(T1).interrupts] == asked
    out = g.invoke(Command(resume={asked[0]: "yes"}), T1)
    assert out["answer"] == "yes" and g.get_state(T1).interrupts == ()


def test_D4_two_questions_of_one_task_resume_by_their_own_ids(nodes):
    g = agent_graph("interrupts", "ask_twice")
    [first] = _ids(g.invoke({}, T1))
    [second] = _ids(g.invoke(Command(resume={first: "a"}), T1))
    assert second != first
    assert [i.id for i in g.get_state(T1).interrupts] == [second]
    g.invoke(Command(resume={second: "b"}), T1)
    assert g.get_state(T1).next == ()


def test_D4_ids_behave_as_langgraphs(nodes):
    """The same three facts in LangGraph 1.2.24: two threads' first pauses differ, one
    thread's pending question keeps its id, and resuming by that id answers it."""
    graph = pytest.importorskip("langgraph.graph", reason="langgraph (the oracle) is absent")
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command as LgCommand
    from langgraph.types import interrupt

    class S(TypedDict, total=False):
        answer: str

    builder = graph.StateGraph(S)
    builder.add_node("ask", lambda s: {"answer": interrupt("go?")})
    builder.add_edge(graph.START, "ask")
    lg = builder.compile(checkpointer=InMemorySaver())
    c1, c2 = ({"configurable": {"thread_id": t}} for t in ("t1", "t2"))
    theirs = [lg.invoke({}, c)["__interrupt__"][0].id for c in (c1, c2)]
    again = lg.get_state(c1).interrupts[0].id
    answered = lg.invoke(LgCommand(resume={theirs[0]: "yes"}), c1)["answer"]

    g = agent_graph("interrupts", "ask")
    ours = [_ids(g.invoke({}, c))[0] for c in (T1, T2)]
    assert (theirs[0] != theirs[1], again == theirs[0], answered) == (
        ours[0] != ours[1],
        g.get_state(T1).interrupts[0].id == ours[0],
        g.invoke(Command(resume={ours[0]: "yes"}), T1)["answer"],
    )
