"""Streaming: typed events per mode; `messages` deltas arrive while the node still runs."""

from __future__ import annotations

import asyncio

from agentc.runtime.events import (CustomEvent, DebugEvent, DebugKind, MessagesEvent,
                                   UpdatesEvent, ValuesEvent)
from conftest import chain, chan, compiled, graph, node


def _g(a):
    return compiled(graph(state=[chan("x", "add", 0)],
                          nodes=[node("a", a), node("b", lambda s: {"x": 10})],
                          edges=chain("a", "b")))


def test_values_and_updates_modes():
    g = _g(lambda s: {"x": 1})
    events = list(g.stream({"x": 0}, mode=["values", "updates"]))
    assert [type(e) for e in events] == [ValuesEvent, UpdatesEvent, ValuesEvent, UpdatesEvent,
                                         ValuesEvent]
    assert [e.values for e in events if isinstance(e, ValuesEvent)] == [{"x": 0}, {"x": 1},
                                                                         {"x": 11}]
    assert [(e.node, e.update) for e in events if isinstance(e, UpdatesEvent)] == [
        ("a", {"x": 1}), ("b", {"x": 10})]


def test_messages_deltas_arrive_as_emitted():
    release = asyncio.Event()

    async def a(s, ctx):
        for tok in ("he", "llo"):
            ctx.emit("messages", tok)
        await asyncio.wait_for(release.wait(), 2)  # only the reader can release us
        ctx.emit("custom", {"done": True})
        return {"x": 1}
    g = _g(a)

    async def main():
        got = []
        async for e in g.astream({}, mode=["messages", "custom"]):
            got.append(e)
            if len(got) == 2:
                release.set()
        return got
    got = asyncio.run(main())
    assert [type(e) for e in got] == [MessagesEvent, MessagesEvent, CustomEvent]
    assert [e.payload for e in got[:2]] == ["he", "llo"] and got[0].node == "a"


def test_sync_node_emits_from_worker_thread():
    def a(s, ctx):
        ctx.emit("custom", "from thread")
        return {"x": 1}
    g = compiled(graph(state=[chan("x", "add", 0)],
                       nodes=[node("a", a), node("c", lambda s, ctx: ctx.emit("custom", "c"))],
                       edges=[("__start__", "a"), ("__start__", "c"), ("a", "__end__"),
                              ("c", "__end__")]))
    assert sorted(e.payload for e in g.stream({}, mode="custom")) == ["c", "from thread"]


def test_debug_mode_reports_tasks_and_results():
    events = list(_g(lambda s: {"x": 1}).stream({}, mode="debug"))
    kinds = [e.kind for e in events if isinstance(e, DebugEvent)]
    assert kinds.count(DebugKind.TASK) == 2 and kinds.count(DebugKind.TASK_RESULT) == 2


def test_stream_called_inside_running_loop():
    g = _g(lambda s: {"x": 1})

    async def main():
        return [e.values for e in g.stream({}, mode="values")]
    assert asyncio.run(main())[-1] == {"x": 11}
