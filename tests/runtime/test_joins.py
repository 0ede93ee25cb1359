"""Joins (`edge [a, b] -> c`): LangGraph's NamedBarrierValue — the target runs once, in the
step after the last of its sources finished; the barrier empties when it runs, so loops
through a join fill it afresh; its state survives a checkpoint as JSON. Each graph also
runs on LangGraph 1.2.24 (its twin) and the supersteps must match."""

from __future__ import annotations

import json
import sqlite3

from support.graphs import (
    END,
    START,
    ac_steps,
    ask,
    chan,
    compiled,
    graph,
    lg_steps,
    lg_twin,
    log,
    node,
    router,
)

from agentc.runtime import Command, MemoryCheckpointer, RunConfig, Send, SqliteCheckpointer

T = RunConfig(thread_id="t")


def nodes(*names: str, **special) -> list:
    return [special.get(n) or node(n, log(n)) for n in names]


def both(g, value, **kw):
    """Run `g` on agentc and on its LangGraph twin; the supersteps must be the same."""
    ours = ac_steps(compiled(g), value)
    theirs = lg_steps(lg_twin(g), value)
    assert ours == theirs
    return ours


def names(steps) -> list[list[str]]:
    return [[n for n, _ in step] for step in steps]


def test_join_waits_for_sources_that_finish_in_different_steps():
    g = graph(
        state=[chan("log", "append", [])],
        nodes=nodes("a", "b1", "b2", "c"),
        edges=[(START, "a"), (START, "b1"), ("b1", "b2"), ("c", END)],
        joins=[(["a", "b2"], "c")],
    )
    steps = both(g, {})
    assert names(steps) == [["a", "b1"], ["b2"], ["c"]]  # c once, after b2 (not after a)
    assert compiled(g).invoke({})["log"] == ["a", "b1", "b2", "c"]


def test_join_beside_a_plain_edge_runs_the_target_for_each():
    # `a -> c` fires c on its own; the join fires it again once b2 is in as well
    g = graph(
        state=[chan("log", "append", [])],
        nodes=nodes("a", "b1", "b2", "c"),
        edges=[(START, "a"), (START, "b1"), ("b1", "b2"), ("a", "c")],
        joins=[(["a", "b2"], "c")],
    )
    assert names(both(g, {})) == [["a", "b1"], ["b2", "c"], ["c"]]


def test_loops_through_a_join_fill_the_barrier_afresh_each_round():
    def again(state):
        return ["a", "b"] if state["log"].count("c") < 3 else END

    g = graph(
        state=[chan("log", "append", [])],
        nodes=nodes("a", "b", "b2", "c"),
        edges=[(START, "a"), (START, "b"), ("b", "b2")],
        joins=[(["a", "b2"], "c")],
        branches=[router("c", again, {"a": "a", "b": "b", END: END})],
    )
    steps = both(g, {})
    assert names(steps) == [["a", "b"], ["b2"], ["c"]] * 3
    assert compiled(g).invoke({})["log"].count("c") == 3


def test_a_source_that_runs_twice_counts_once():
    def twice(state):
        return "a" if state["log"].count("a") < 2 else END

    g = graph(
        state=[chan("log", "append", [])],
        nodes=nodes("a", "b1", "b2", "b3", "c"),
        edges=[(START, "a"), (START, "b1"), ("b1", "b2"), ("b2", "b3")],
        joins=[(["a", "b3"], "c")],
        branches=[router("a", twice, {"a": "a", END: END})],
    )
    assert names(both(g, {})) == [["a", "b1"], ["a", "b2"], ["b3"], ["c"]]


def test_a_source_run_by_send_counts():
    def fan(state):
        return [Send("a", {"log": []}), "b"]

    g = graph(
        state=[chan("log", "append", [])],
        nodes=nodes("start", "a", "b", "c"),
        edges=[(START, "start")],
        joins=[(["a", "b"], "c")],
        branches=[router("start", fan)],
    )
    assert names(both(g, {})) == [["start"], ["a", "b"], ["c"]]


def test_sources_in_the_step_that_runs_the_target_count_for_the_next_round():
    # c runs in step 3 while `a` runs again beside it: a's finish is kept for round two
    def loop_a(state):
        return "a" if state["log"].count("a") < 3 else END

    g = graph(
        state=[chan("log", "append", [])],
        nodes=nodes("a", "b", "c"),
        edges=[(START, "a"), (START, "b")],
        joins=[(["a", "b"], "c")],
        branches=[router("a", loop_a, {"a": "a", END: END})],
    )
    assert names(both(g, {})) == [["a", "b"], ["a", "c"], ["a"]]


# ---------------------------------------------------------------- across a pause


def _paused_join():
    """a finishes in step 1; b2 asks a question in step 2: the barrier holds {a}."""

    def b2(state):
        answer = ask("go?")
        return {"log": [f"b2:{answer}"]}

    return graph(
        state=[chan("log", "append", [])],
        nodes=nodes("a", "b1", "b2", "c", b2=node("b2", b2)),
        edges=[(START, "a"), (START, "b1"), ("b1", "b2"), ("c", END)],
        joins=[(["a", "b2"], "c")],
    )


def test_barrier_survives_an_interrupt_and_a_restart_as_json(tmp_path):
    path = str(tmp_path / "state.db")
    g = _paused_join()
    first = SqliteCheckpointer(path)
    out = compiled(g, checkpointer=first).invoke({}, T)
    assert out["__interrupt__"][0].value == "go?"
    first.close()
    rows = [json.loads(r[0]) for r in sqlite3.connect(path).execute("SELECT data FROM checkpoints")]
    assert rows[-1]["waits"] == {"seen": {"join:a+b2:c": ["a"]}, "waiting": []}
    second = SqliteCheckpointer(path)  # a new process: nothing in memory but the file
    out = compiled(g, checkpointer=second).invoke(Command(resume="yes"), T)
    assert out["log"] == ["a", "b1", "b2:yes", "c"]
    second.close()


def test_resume_in_the_middle_of_a_join_matches_langgraph():
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command as LGCommand

    g = _paused_join()
    ours, theirs = (
        compiled(g, checkpointer=MemoryCheckpointer()),
        lg_twin(g, checkpointer=InMemorySaver()),
    )
    lg_config = {"configurable": {"thread_id": "t"}}
    assert ac_steps(ours, {}, T) == lg_steps(theirs, {}, lg_config)
    after = ac_steps(ours, Command(resume="ok"), T)
    assert after == lg_steps(theirs, LGCommand(resume="ok"), lg_config)
    assert names(after) == [["b2"], ["c"]]
    assert ours.get_state(T).values == theirs.get_state(lg_config).values


def test_breakpoint_between_sources_keeps_the_barrier(memory):
    g = graph(
        state=[chan("log", "append", [])],
        nodes=nodes("a", "b1", "b2", "c"),
        edges=[(START, "a"), (START, "b1"), ("b1", "b2"), ("c", END)],
        joins=[(["a", "b2"], "c")],
        interrupts=[("before", "b2")],
    )
    cg = compiled(g, checkpointer=memory)
    assert cg.invoke({}, T)["log"] == ["a", "b1"]
    assert cg.get_state(T).next == ("b2",)
    assert cg.invoke(None, T)["log"] == ["a", "b1", "b2", "c"]
    history = cg.get_state_history(T)
    assert [s.next for s in history][:2] == [(), ("c",)]
