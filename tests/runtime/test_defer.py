"""Deferred nodes (`defer: true`): LangGraph's `defer=True` — a deferred node waits until a
step plans no other pulled task; pushed tasks (Sends) do not hold it back. Each graph also
runs on its LangGraph 1.2.24 twin and the supersteps must match."""

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

from agentc.runtime import Command, RunConfig, Send, SqliteCheckpointer

T = RunConfig(thread_id="t")


def both(g, value):
    ours = ac_steps(compiled(g), value)
    assert ours == lg_steps(lg_twin(g), value)
    return [[n for n, _ in step] for step in ours]


def test_deferred_node_waits_for_the_longer_branch():
    g = graph(
        state=[chan("log", "append", [])],
        nodes=[*(node(n, log(n)) for n in "abc"), node("d", log("d"), defer=True)],
        edges=[(START, "a"), ("a", "b"), ("b", "c"), ("a", "d"), ("d", END)],
    )
    assert both(g, {}) == [["a"], ["b"], ["c"], ["d"]]
    assert compiled(g).invoke({})["log"] == ["a", "b", "c", "d"]


def test_deferred_node_straight_from_start_runs():
    g = graph(
        state=[chan("log", "append", [])],
        nodes=[node("d", log("d"), defer=True)],
        edges=[(START, "d")],
    )
    assert both(g, {}) == [["d"]]


def test_sends_do_not_hold_a_deferred_node_back():
    # as LangGraph: pushed tasks are not triggers, so `d` runs beside the Send's task
    def fan(state):
        return [Send("w", {"log": []}), "d"]

    g = graph(
        state=[chan("log", "append", [])],
        nodes=[node("a", log("a")), node("w", log("w")), node("x", log("x"))]
        + [node("d", log("d"), defer=True)],
        edges=[(START, "a"), ("w", "x")],
        branches=[router("a", fan)],
    )
    assert both(g, {}) == [["a"], ["d", "w"], ["x"]]


def test_deferred_join_target_runs_once_everything_else_is_done():
    g = graph(
        state=[chan("log", "append", [])],
        nodes=[*(node(n, log(n)) for n in ["a", "a2", "a3", "b"]), node("d", log("d"), defer=True)],
        edges=[(START, "a"), (START, "b"), ("a", "a2"), ("a2", "a3")],
        joins=[(["a", "b"], "d")],
    )
    assert both(g, {}) == [["a", "b"], ["a2"], ["a3"], ["d"]]


def test_deferred_node_named_twice_runs_once():
    g = graph(
        state=[chan("log", "append", [])],
        nodes=[*(node(n, log(n)) for n in ["a", "b", "b2"]), node("d", log("d"), defer=True)],
        edges=[(START, "a"), (START, "b"), ("a", "d"), ("b", "b2"), ("b2", "d")],
    )
    assert both(g, {}) == [["a", "b"], ["b2"], ["d"]]


def test_deferred_node_in_a_loop_waits_each_round():
    def again(state):
        return "a" if state["log"].count("d") < 2 else END

    g = graph(
        state=[chan("log", "append", [])],
        nodes=[node("a", log("a")), node("b", log("b")), node("d", log("d"), defer=True)],
        edges=[(START, "a"), ("a", "b"), ("a", "d")],
        branches=[router("d", again, {"a": "a", END: END})],
    )
    assert both(g, {}) == [["a"], ["b"], ["d"], ["a"], ["b"], ["d"]]


def test_waiting_deferred_node_survives_a_pause(tmp_path):
    def slow(state):
        return {"log": [f"b:{ask('go?')}"]}

    g = graph(
        state=[chan("log", "append", [])],
        nodes=[node("a", log("a")), node("b", slow), node("d", log("d"), defer=True)],
        edges=[(START, "a"), ("a", "b"), ("a", "d")],
    )
    path = str(tmp_path / "state.db")
    store = SqliteCheckpointer(path)
    assert compiled(g, checkpointer=store).invoke({}, T)["__interrupt__"][0].value == "go?"
    store.close()
    rows = [json.loads(r[0]) for r in sqlite3.connect(path).execute("SELECT data FROM checkpoints")]
    assert rows[-1]["waits"]["waiting"] == ["d"]
    store = SqliteCheckpointer(path)
    out = compiled(g, checkpointer=store).invoke(Command(resume="ok"), T)
    assert out["log"] == ["a", "b:ok", "d"]
    store.close()
