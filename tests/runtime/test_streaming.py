"""Streaming: typed events per mode; `messages` deltas arrive while the node still runs —
on graphs in `graphs/streaming.agent`."""

from __future__ import annotations

import asyncio

from support.graphs import agent_graph

from agentc.runtime.events import (
    CustomEvent,
    DebugEvent,
    DebugKind,
    MessagesEvent,
    UpdatesEvent,
    ValuesEvent,
)


def _g(name):
    return agent_graph("streaming", name)


def test_values_and_updates_modes(nodes):
    events = list(_g("two_steps").stream({"x": 0}, mode=["values", "updates"]))
    assert [type(e) for e in events] == [
        ValuesEvent,
        UpdatesEvent,
        ValuesEvent,
        UpdatesEvent,
        ValuesEvent,
    ]
    assert [e.values for e in events if isinstance(e, ValuesEvent)] == [
        {"x": 0},
        {"x": 1},
        {"x": 11},
    ]
    assert [(e.node, e.update) for e in events if isinstance(e, UpdatesEvent)] == [
        ("a", {"x": 1}),
        ("b", {"x": 10}),
    ]


def test_messages_deltas_arrive_as_emitted(nodes):
    g = _g("tokens")

    async def main():
        nodes.KNOBS["release"] = asyncio.Event()
        got = []
        async for e in g.astream({}, mode=["messages", "custom"]):
            got.append(e)
            if len(got) == 2:
                nodes.KNOBS["release"].set()
        return got

    got = asyncio.run(main())
    assert [type(e) for e in got] == [MessagesEvent, MessagesEvent, CustomEvent]
    assert [e.payload for e in got[:2]] == ["he", "llo"] and got[0].node == "a"


def test_sync_node_emits_from_worker_thread(nodes):
    events = _g("thread_emit").stream({}, mode="custom")
    assert sorted(e.payload for e in events) == ["c", "from thread"]


def test_debug_mode_reports_tasks_and_results(nodes):
    events = list(_g("two_steps").stream({}, mode="debug"))
    kinds = [e.kind for e in events if isinstance(e, DebugEvent)]
    assert kinds.count(DebugKind.TASK) == 2 and kinds.count(DebugKind.TASK_RESULT) == 2


def test_stream_called_inside_running_loop(nodes):
    g = _g("two_steps")

    async def main():
        return [e.values for e in g.stream({}, mode="values")]

    assert asyncio.run(main())[-1] == {"x": 11}
