"""Checkpointers: F10 (threads), F11 (durability), SQLite storage, D6 (registered types
only), linear storage with exact restore of every step, time travel."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

import pytest

from agentc.runtime import (CheckpointerRequiredError, Durability, MemoryStore, RunConfig,
                            SqliteStore, UnknownStoredTypeError)
from agentc.runtime.errors import SerializationError
from agentc.runtime.serde import register_type
from agentc.stdlib.messages import AIMessage
from conftest import END, START, chan, cmp, compiled, field, graph, node, when

T = RunConfig(thread_id="t")


def _chat(rounds=3, checkpointer=None, steps=200):
    """model <-> tools, each appending one message, `rounds` times."""
    return compiled(graph(
        state=[chan("messages", "messages"), chan("n", default=0)],
        nodes=[node("model", lambda s: {"messages": [("ai", f"m{s['n']}")]}),
               node("tools", lambda s: {"messages": [{"role": "tool", "content": f"t{s['n']}",
                                                      "tool_call_id": "c"}],
                                        "n": s["n"] + 1})],
        edges=[(START, "model"), ("tools", "model")],
        branches=[when("model", (cmp(field("n"), "<", rounds), "tools"), (None, END))],
        steps=steps),
        checkpointer=checkpointer)


@pytest.fixture(params=["memory", "sqlite"])
def store(request, tmp_path):
    s = MemoryStore() if request.param == "memory" else SqliteStore(str(tmp_path / "s.db"))
    yield s
    s.close()


def test_F10_thread_id_picks_the_conversation(store):
    g = _chat(1, store)
    g.invoke({"messages": ["first"]}, T)
    out = g.invoke({"messages": ["second"], "n": 0}, T)
    texts = [m.text for m in out["messages"]]
    assert texts[0] == "first" and "second" in texts and len(texts) == 8
    other = g.invoke({"messages": ["alone"]}, RunConfig(thread_id="other"))
    assert [m.text for m in other["messages"]][0] == "alone" and len(other["messages"]) == 4


def test_F10_without_checkpointer_each_run_starts_fresh():
    g = _chat(1)
    g.invoke({"messages": ["first"]})
    assert len(g.invoke({"messages": ["second"]})["messages"]) == 4


def test_F10_checkpointer_requires_thread_id(store):
    with pytest.raises(CheckpointerRequiredError, match="thread id"):
        _chat(1, store).invoke({"messages": ["x"]})


@pytest.mark.parametrize("durability,count", [(Durability.SYNC, 8), (Durability.ASYNC, 8),
                                              (Durability.EXIT, 1)])
def test_F11_durability_modes(store, durability, count):
    g = _chat(3, store)
    out = g.invoke({"messages": ["hi"]}, T, durability=durability)
    history = g.get_state_history(T)
    assert len(history) == count  # input + 7 steps, or one save at exit
    assert history[0].values == out and history[0].next == ()


def test_every_step_restores_exactly(store):
    g = _chat(3, store)
    states = [e.values for e in g.stream({"messages": ["hi"]}, T, mode="values")]
    history = [h.values for h in reversed(g.get_state_history(T))]
    assert history == states
    for snap in g.get_state_history(T):  # each checkpoint on its own, by id
        assert g.get_state(snap.config).values == snap.values


def test_sqlite_stores_each_message_once(tmp_path):
    path = str(tmp_path / ".agentc" / "state.db")
    store = SqliteStore(path)
    out = _chat(20, store).invoke({"messages": ["hi"]}, T, durability=Durability.SYNC)
    store.close()
    rows = sqlite3.connect(path).execute("SELECT data FROM checkpoints").fetchall()
    text = "".join(r[0] for r in rows)
    for m in out["messages"]:
        assert text.count(m.id) == 1, m
    reopened = SqliteStore(path)
    assert _chat(20, reopened).get_state(T).values == out  # a fresh process view restores it


def test_sqlite_file_grows_linearly(tmp_path):
    sizes = []
    for n in (10, 20, 40):
        store = SqliteStore(str(tmp_path / f"{n}.db"))
        _chat(n, store).invoke({"messages": ["hi"]}, T, durability=Durability.SYNC)
        rows = store._conn.execute("SELECT sum(length(data)) FROM checkpoints").fetchone()[0]
        sizes.append(rows)
        store.close()
    per_round = [(b - a) / d for (a, b, d) in ((sizes[0], sizes[1], 10), (sizes[1], sizes[2], 20))]
    assert per_round[1] < per_round[0] * 1.3  # linear, not quadratic


def test_time_travel_forks_from_an_old_checkpoint(store):
    g = _chat(2, store)
    g.invoke({"messages": ["hi"]}, T)
    old = [h for h in g.get_state_history(T) if h.step == 2][0]
    before = len(g.get_state_history(T))
    out = g.invoke(None, old.config)  # replays the rest from step 2, as a fork
    assert [m.text for m in out["messages"]] == ["hi", "m0", "t0", "m1", "t1", "m2"]
    history = g.get_state_history(T)
    assert len(history) == before + 3  # steps 3, 4, 5 again, on a new branch
    assert history[0].parent_checkpoint_id == history[1].config.checkpoint_id
    assert history[2].parent_checkpoint_id == old.config.checkpoint_id


@dataclass
class _Unregistered:
    x: int


def test_D6_unregistered_type_is_refused_on_save(tmp_path):
    store = SqliteStore(str(tmp_path / "s.db"))
    g = compiled(graph(state=[chan("v")], nodes=[node("n", lambda s: {"v": _Unregistered(1)})],
                       edges=[(START, "n"), ("n", END)]), checkpointer=store)
    with pytest.raises(SerializationError, match="_Unregistered"):
        g.invoke({}, T, durability=Durability.SYNC)


def test_D6_unknown_stored_type_is_refused_on_load(tmp_path):
    path = str(tmp_path / "s.db")
    store = SqliteStore(path)
    g = compiled(graph(state=[chan("v")], nodes=[node("n", lambda s: {"v": 1})],
                       edges=[(START, "n"), ("n", END)]), checkpointer=store)
    g.invoke({}, T, durability=Durability.SYNC)
    # forge a row naming a type this process never registered (what a pickle-free store
    # must refuse rather than rebuild)
    data = json.loads(store._conn.execute("SELECT data FROM checkpoints ORDER BY seq DESC").fetchone()[0])
    data["deltas"]["v"] = ["s", {"__agentc__": "os.system", "data": "rm -rf /"}]
    store._conn.execute("UPDATE checkpoints SET data=? WHERE id=?", (json.dumps(data), data["id"]))
    with pytest.raises(UnknownStoredTypeError, match="os.system"):
        g.get_state(T)


def test_registered_dataclass_round_trips(tmp_path):
    @dataclass
    class Point:
        x: int
        y: int
    register_type(Point, "test.Point")
    store = SqliteStore(str(tmp_path / "s.db"))
    g = compiled(graph(state=[chan("p"), chan("messages", "messages")],
                       nodes=[node("n", lambda s: {"p": Point(1, 2),
                                                   "messages": AIMessage(content="x")})],
                       edges=[(START, "n"), ("n", END)]), checkpointer=store)
    out = g.invoke({}, T, durability=Durability.SYNC)
    assert SqliteStore(store.path) and g.get_state(T).values == out
