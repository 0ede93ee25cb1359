"""Checkpointers: F10 (threads), F11 (durability, pending writes), SQLite storage, D6
(registered types only), linear storage with exact restore of every step, time travel,
the async state calls — on graphs in `graphs/checkpoint.agent`."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

import pytest
from support.graphs import agent_graph
from support.pg import DURABLE, KINDS, checkpointer, durable

from agentc.runtime import (
    CheckpointerRequiredError,
    Durability,
    RunConfig,
    UnknownStoredTypeError,
)
from agentc.runtime.checkpoint import CheckpointQuery, CheckpointSource, WriteKind
from agentc.runtime.errors import SerializationError
from agentc.runtime.serde import register_type

T = RunConfig(thread_id="t")


def _chat(checkpointer=None):
    return agent_graph("checkpoint", "chat", checkpointer=checkpointer)


def _hi(rounds=3, **extra):
    return {"messages": ["hi"], "rounds": rounds, **extra}


@pytest.fixture(params=KINDS)
def store(request, tmp_path):
    s = checkpointer(request.param, request, str(tmp_path / "s.db"))
    yield s
    s.close()


@pytest.fixture(params=DURABLE)
def saved(request, tmp_path):
    """Where a durable checkpointer keeps its rows: a SQLite file or a PostgreSQL schema."""
    return durable(request.param, request, str(tmp_path / ".agentc" / "state.db"))


def test_F10_thread_id_picks_the_conversation(store):
    g = _chat(store)
    g.invoke(_hi(1, messages=["first"]), T)
    out = g.invoke({"messages": ["second"], "n": 0}, T)
    texts = [m.text for m in out["messages"]]
    assert texts[0] == "first" and "second" in texts and len(texts) == 8
    other = g.invoke(_hi(1, messages=["alone"]), RunConfig(thread_id="other"))
    assert [m.text for m in other["messages"]][0] == "alone" and len(other["messages"]) == 4


def test_F10_without_checkpointer_each_run_starts_fresh():
    g = _chat()
    g.invoke(_hi(1, messages=["first"]))
    assert len(g.invoke(_hi(1, messages=["second"]))["messages"]) == 4


def test_F10_checkpointer_requires_thread_id(store):
    with pytest.raises(CheckpointerRequiredError, match="thread id"):
        _chat(store).invoke(_hi(1))


@pytest.mark.parametrize(
    "durability,count", [(Durability.SYNC, 9), (Durability.ASYNC, 9), (Durability.EXIT, 1)]
)
def test_F11_durability_modes(store, durability, count):
    g = _chat(store)
    out = g.invoke(_hi(3), T, durability=durability)
    history = g.get_state_history(T)
    # input, START (LangGraph's two checkpoints for an input) + 7 steps, or one save at exit
    assert len(history) == count
    assert history[0].values == out and history[0].next == ()


def test_F11_durability_from_the_file_unless_the_caller_says(store):
    g = agent_graph("checkpoint", "chat_saved_at_exit", checkpointer=store)
    g.invoke(_hi(3), T)
    assert len(g.get_state_history(T)) == 1  # the file's `durability: "exit"`
    other = RunConfig(thread_id="other")
    g.invoke(_hi(3), other, durability=Durability.SYNC)
    assert len(g.get_state_history(other)) == 9  # the caller's choice wins


def _watching(store, nodes):
    """fan_watch, with task 1 told whether task 0's writes are in the store yet."""
    g = agent_graph("checkpoint", "fan_watch", checkpointer=store)

    def saved():
        last = store.get("t", "")
        return last is not None and any(
            kind is WriteKind.RESULT for _, kind, _ in store.writes("t", "", last.id)
        )

    nodes.KNOBS["saved"] = saved
    return g


def test_F11_sync_saves_a_finished_tasks_writes_while_its_siblings_run(store, nodes):
    g = _watching(store, nodes)
    with pytest.raises(KeyError, match="crash"):
        g.invoke({"items": [0, 1]}, T, durability=Durability.SYNC)
    assert nodes.KNOBS["saw_saved"] is True  # saved before the step ended
    out = g.invoke(None, T, durability=Durability.SYNC)
    assert out["results"] == [0, 1] and nodes.CALLS == [0, 1, 1]  # task 0 never re-ran


def test_F11_async_saves_finished_siblings_only_when_the_step_fails(store, nodes):
    g = _watching(store, nodes)
    with pytest.raises(KeyError, match="crash"):
        g.invoke({"items": [0, 1]}, T, durability=Durability.ASYNC)
    assert nodes.KNOBS["saw_saved"] is False  # not while the step ran (our divergence)
    assert g.invoke(None, T)["results"] == [0, 1] and nodes.CALLS == [0, 1, 1]  # E6 kept it


def test_every_step_restores_exactly(store):
    g = _chat(store)
    states = [e.values for e in g.stream(_hi(3), T, mode="values")]
    snaps = list(reversed(g.get_state_history(T)))
    # the input checkpoint holds the state before the input (no values event for it)
    assert snaps[0].source is CheckpointSource.INPUT and snaps[0].next == ("__start__",)
    assert [h.values for h in snaps[1:]] == states
    for snap in g.get_state_history(T):  # each checkpoint on its own, by id
        assert g.get_state(snap.config).values == snap.values


def test_state_calls_have_async_forms(store):
    g = _chat(store)

    async def main():
        out = await g.ainvoke(_hi(2), T)
        state = await g.aget_state(T)
        history = await g.aget_state_history(T)
        cfg = await g.aupdate_state(T, {"n": 0}, as_node="tools")
        return out, state, history, cfg, await g.aget_state(T)

    out, state, history, cfg, after = asyncio.run(main())
    assert state.values == out and history[0].values == out and len(history) == 7
    assert after.next == ("model",) and after.config.checkpoint_id == cfg.checkpoint_id
    assert g.get_state(T) == after  # the sync forms are adapters of the same core


def test_sqlite_stores_each_message_once(saved):
    store = saved.open()
    out = _chat(store).invoke(_hi(20), T, durability=Durability.SYNC)
    store.close()
    rows = saved.sql("SELECT data FROM checkpoints")
    text = "".join(r[0] for r in rows)
    for m in out["messages"]:
        # the input message twice: held by the input checkpoint's START task (as
        # LangGraph's `__start__` channel holds it), then in the state; the rest once
        assert text.count(m.id) == (2 if m.text == "hi" else 1), m
    reopened = saved.open()
    assert _chat(reopened).get_state(T).values == out  # a fresh process view restores it


def test_sqlite_file_grows_linearly(saved):
    sizes = []
    for n in (10, 20, 40):
        store = saved.open()
        thread = RunConfig(thread_id=f"t{n}")
        _chat(store).invoke(_hi(n), thread, durability=Durability.SYNC)
        size = "SELECT sum(length(data)) FROM checkpoints WHERE thread_id=?"
        sizes.append(saved.sql(size, f"t{n}")[0][0])
        store.close()
    per_round = [(b - a) / d for (a, b, d) in ((sizes[0], sizes[1], 10), (sizes[1], sizes[2], 20))]
    assert per_round[1] < per_round[0] * 1.3  # linear, not quadratic


def test_delete_thread_forgets_its_checkpoints_and_writes_only(store):
    """A deleted thread has nothing saved, in any namespace; other threads keep theirs,
    and the next run on the deleted thread starts from nothing."""
    g = _chat(store)
    g.invoke(_hi(1), T)
    other = RunConfig(thread_id="other")
    g.invoke(_hi(1, messages=["alone"]), other)
    head = store.get("t", "")
    store.put_writes("t", "sub:1", head.id, [("task", WriteKind.RESUME, {"i": "yes"})])
    store.put_writes("t", "", head.id, [("task", WriteKind.RESUME, {"i": "yes"})])
    kept = [c.id for c in store.list("other", "")]

    store.delete_thread("t")
    store.delete_thread("never-saved")  # nothing to forget is no error

    assert store.get("t", "") is None and store.list("t", "") == []
    assert store.writes("t", "", head.id) == [] and store.writes("t", "sub:1", head.id) == []
    assert store.search(CheckpointQuery(thread_id="t", ns=None)) == []
    assert [c.id for c in store.list("other", "")] == kept
    assert len(g.get_state(other).values["messages"]) == 4
    again = g.invoke(_hi(1, messages=["anew"]), T)
    assert [m.text for m in again["messages"]][0] == "anew" and len(again["messages"]) == 4


def test_copy_thread_gives_the_copy_everything_and_then_they_part(store):
    """A copied thread lists, reads and resumes as its source (same checkpoint ids, same
    order, the pending writes of every namespace); a run on either changes only itself."""
    g = _chat(store)
    g.invoke(_hi(1), T)
    head = store.get("t", "")
    store.put_writes("t", "sub:1", head.id, [("task", WriteKind.RESUME, {"i": "yes"})])
    store.put_writes("t", "", head.id, [("task", WriteKind.RESUME, {"i": "no"})])

    store.copy_thread("t", "c")
    store.copy_thread("never-saved", "c2")  # nothing to copy is no error

    assert [c.id for c in store.list("c", "")] == [c.id for c in store.list("t", "")]
    assert store.get("c", "") == head
    assert store.writes("c", "sub:1", head.id) == store.writes("t", "sub:1", head.id)
    assert store.writes("c", "", head.id) == [("task", WriteKind.RESUME, {"i": "no"})]
    assert store.list("c2", "") == []
    c = RunConfig(thread_id="c")
    assert g.get_state(c).values == g.get_state(T).values
    history = [s.config.checkpoint_id for s in g.get_state_history(c)]
    assert history == [s.config.checkpoint_id for s in g.get_state_history(T)]

    again = g.invoke({"messages": ["more"], "n": 0}, c)
    assert len(again["messages"]) == 8
    assert len(g.get_state(T).values["messages"]) == 4  # the source is as it was
    assert store.get("t", "") == head


def test_time_travel_forks_from_an_old_checkpoint(store):
    g = _chat(store)
    g.invoke(_hi(2), T)
    old = [h for h in g.get_state_history(T) if h.step == 2][0]
    before = len(g.get_state_history(T))
    out = g.invoke(None, old.config)  # replays the rest from step 2, as a fork
    assert [m.text for m in out["messages"]] == ["hi", "m0", "t0", "m1", "t1", "m2"]
    history = g.get_state_history(T)
    # as LangGraph 1.2.24: a `fork` checkpoint (the old state, one step on) starts the new
    # branch, then the three steps again
    assert len(history) == before + 4
    assert history[0].parent_checkpoint_id == history[1].config.checkpoint_id
    fork = history[3]
    assert fork.source is CheckpointSource.FORK and fork.values == old.values
    assert fork.step == old.step + 1 and fork.next == old.next
    assert fork.parent_checkpoint_id == old.config.checkpoint_id
    assert history[2].parent_checkpoint_id == fork.config.checkpoint_id


@dataclass
class _Unregistered:
    x: int


def test_D6_unregistered_type_is_refused_on_save(saved, nodes):
    nodes.KNOBS["point"] = _Unregistered(1)
    g = agent_graph("checkpoint", "value", checkpointer=saved.open())
    with pytest.raises(SerializationError, match="_Unregistered"):
        g.invoke({}, T, durability=Durability.SYNC)


def test_D6_unknown_stored_type_is_refused_on_load(saved, nodes):
    nodes.KNOBS["point"] = 1
    store = saved.open()
    g = agent_graph("checkpoint", "value", checkpointer=store)
    g.invoke({}, T, durability=Durability.SYNC)
    # forge a row naming a type this process never registered (what a pickle-free store
    # must refuse rather than rebuild)
    data = json.loads(saved.sql("SELECT data FROM checkpoints ORDER BY seq DESC")[0][0])
    data["deltas"]["p"] = ["s", {"__agentc__": "os.system", "data": "rm -rf /"}]
    saved.sql("UPDATE checkpoints SET data=? WHERE id=?", json.dumps(data), data["id"])
    with pytest.raises(UnknownStoredTypeError, match="os.system"):
        g.get_state(T)


def test_registered_dataclass_round_trips(saved, nodes):
    @dataclass
    class Point:
        x: int
        y: int

    register_type(Point, "test.Point")
    nodes.KNOBS["point"] = Point(1, 2)
    g = agent_graph("checkpoint", "value", checkpointer=saved.open())
    out = g.invoke({}, T, durability=Durability.SYNC)
    fresh = agent_graph("checkpoint", "value", checkpointer=saved.open())
    assert fresh.get_state(T).values == out and out["p"] == Point(1, 2)
