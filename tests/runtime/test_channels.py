"""Channels and reducers: B3 (add_messages), A5 (input filtering), A6 (coercion),
last-value conflicts, built-in reducers, ephemeral and empty-until-written channels —
mostly on graphs in `graphs/channels.agent`; B3 drives the messages channel directly."""

from __future__ import annotations

import pytest
from support.graphs import agent_graph, chain, chan, compiled, graph, node

from agentc.runtime import EmptyInputError, InvalidUpdateError
from agentc.runtime.channels import AppendChannel, DeltaKind
from agentc.stdlib.messages import (
    REMOVE_ALL_MESSAGES,
    AIMessage,
    HumanMessage,
    MessagesChannel,
    MissingMessageError,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
    add_messages,
)


def _agent(name):
    return agent_graph("channels", name)


def _msgs_graph(*writes):
    """START -> w0 -> w1 … each node writes one update to `messages`."""
    nodes = [node(f"w{i}", (lambda s, w=w: {"messages": w})) for i, w in enumerate(writes)]
    return compiled(
        graph(
            state=[chan("messages", "messages")], nodes=nodes, edges=chain(*[n.name for n in nodes])
        )
    )


def test_B3_fresh_id_for_message_without_one():
    out = _msgs_graph(AIMessage(content="x")).invoke({"messages": ["hi"]})
    assert [m.text for m in out["messages"]] == ["hi", "x"]
    assert all(m.id for m in out["messages"])
    assert len({m.id for m in out["messages"]}) == 2


def test_B3_replace_by_id():
    g = _msgs_graph(AIMessage(content="first", id="a1"), AIMessage(content="second", id="a1"))
    out = g.invoke({"messages": [HumanMessage(content="q", id="h1")]})
    assert [(m.id, m.text) for m in out["messages"]] == [("h1", "q"), ("a1", "second")]


def test_B3_remove_by_id_and_missing_id_raises():
    g = _msgs_graph(RemoveMessage(id="h1"))
    out = g.invoke({"messages": [HumanMessage(content="q", id="h1"), ("ai", "a")]})
    assert [m.text for m in out["messages"]] == ["a"]
    with pytest.raises(MissingMessageError, match="nope"):
        _msgs_graph(RemoveMessage(id="nope")).invoke({"messages": ["q"]})


def test_B3_remove_all_keeps_only_what_follows_in_that_update():
    g = _msgs_graph(
        [
            AIMessage(content="dropped"),
            RemoveMessage(id=REMOVE_ALL_MESSAGES),
            SystemMessage(content="kept"),
        ]
    )
    out = g.invoke({"messages": ["a", "b"]})
    assert [m.text for m in out["messages"]] == ["kept"]


def test_B3_channel_matches_reference_reducer():
    """The incremental channel and the pure reference agree on a mixed sequence."""
    seq = [
        ["a", ("ai", "b")],
        [HumanMessage(content="c", id="x")],
        [AIMessage(content="c2", id="x"), RemoveMessage(id="x"), ("human", "d")],
    ]
    ch, ref = MessagesChannel("messages"), None
    for w in seq:
        ch.update([w])
    # replay with the ids the channel assigned
    ids = [m.id for m in ch.output()]
    assert [m.text for m in ch.output()] == ["a", "b", "d"]
    ref = []
    for _reset, msgs in ch.take_delta()[1]:
        ref = add_messages(ref, msgs)
    assert [m.id for m in ref] == ids


def test_B3_update_cost_is_incremental_and_views_are_snapshots():
    ch = MessagesChannel("messages")
    ch.update([[f"m{i}" for i in range(1000)]])
    before = ch.view()
    base = ch.base
    ch.update([("ai", "next")])
    assert ch.base is base  # appended in place: no copy of the history
    assert len(before) == 1000 and len(ch.view()) == 1001  # the old view did not move
    ch.update([AIMessage(content="swap", id=before[0].id)])
    assert before[0].text == "m0" and ch.view()[0].text == "swap"  # copy-on-write


def test_A6_strings_pairs_and_role_dicts_become_messages():
    out = _agent("coerce").invoke(
        {
            "messages": [
                "hi",
                ("system", "sys"),
                {"role": "assistant", "content": "yo"},
                {"role": "tool", "content": "r", "tool_call_id": "c"},
            ]
        }
    )
    assert [type(m) for m in out["messages"]] == [
        HumanMessage,
        SystemMessage,
        AIMessage,
        ToolMessage,
    ]


# A5 and ephemeral channels: the language has no syntax for private or ephemeral fields
# (the agent template makes them), so these two graphs are built as IR.


def test_A5_input_keeps_only_input_channels():
    seen = {}
    g = compiled(
        graph(
            state=[chan("a"), chan("private", input=False, output=False)],
            nodes=[node("n", lambda s: seen.update(s))],
            edges=chain("n"),
        )
    )
    out = g.invoke({"a": 1, "private": 2, "unknown": 3})
    assert seen == {"a": 1} and out == {"a": 1}


def test_A5_none_input_with_nothing_to_resume_is_refused():
    g = compiled(graph(state=[chan("a")], nodes=[node("n", lambda s: None)], edges=chain("n")))
    with pytest.raises(EmptyInputError, match="nothing to resume"):
        g.invoke(None)


def test_last_value_conflict_names_channel_and_writers():
    with pytest.raises(InvalidUpdateError, match=r"`x`.*`a`, `b`"):
        _agent("conflict").invoke({})


def test_reducers_append_merge_add_replace():
    out = _agent("reducers").invoke({"log": ["start"]})
    assert out == {"log": ["start", "a", "b"], "m": {"a": 1, "b": 2}, "k": 3}


def test_channel_without_default_is_omitted_until_written():
    assert _agent("defaults").invoke({}) == {"x": 1, "c": 0}


def test_ephemeral_channel_is_cleared_after_the_next_step():
    seen = []
    g = compiled(
        graph(
            state=[chan("jump_to", ephemeral=True, input=False, output=False), chan("k", "add", 0)],
            nodes=[
                node("a", lambda s: {"jump_to": "end"}),
                node("b", lambda s: seen.append(s.get("jump_to")) or {"k": 1}),
                node("c", lambda s: seen.append(s.get("jump_to")) or {"k": 1}),
            ],
            edges=chain("a", "b", "c"),
        )
    )
    g.invoke({})
    assert seen == ["end", None]


def test_nodes_get_a_read_only_view():
    with pytest.raises(TypeError):
        _agent("read_only").invoke({"x": 1})


def test_write_to_unknown_channel_is_a_clear_error():
    with pytest.raises(InvalidUpdateError, match="`y`.*not a state channel"):
        _agent("unknown_channel").invoke({})


def test_append_reducer_grows_in_place_and_views_are_snapshots(nodes):
    out = _agent("append_loop").invoke({})
    assert out["log"] == ["0", "1", "2", "3"]
    assert [list(v) for v in nodes.SEEN] == [[], ["0"], ["0", "1"], ["0", "1", "2"]]
    assert len({id(v._base) for v in nodes.SEEN}) == 1  # one list, never copied
    with pytest.raises(AttributeError):
        nodes.SEEN[0].append("x")  # nodes read; they do not write in place


def test_append_channel_checkpoints_only_new_items():
    ch = AppendChannel("log", [])
    ch.update([["a", "b"]])
    assert ch.take_delta() == (DeltaKind.SET, ["a", "b"])  # first save: the whole value
    ch.update([["c"], "d"])
    assert ch.take_delta() == (DeltaKind.OPS, ["c", "d"])  # then only what was added
    fresh = AppendChannel("log", [])
    fresh.apply_delta((DeltaKind.SET, ["a", "b"]))
    fresh.apply_delta((DeltaKind.OPS, ["c", "d"]))
    assert fresh.output() == ch.output() == ["a", "b", "c", "d"]


class _CountingList(list):
    """A list that records the slices taken of it."""

    def __init__(self, items):
        super().__init__(items)
        self.slices = []

    def __getitem__(self, i):
        if isinstance(i, slice):
            self.slices.append((i.start, i.stop, i.step))
        return super().__getitem__(i)


def test_a_list_view_slice_reads_only_the_items_asked_for():
    from agentc.runtime.channels import ListView

    base = _CountingList(range(10))
    view = ListView(base, 8)  # two items appended after the snapshot
    assert view[6:] == [6, 7] and base.slices == [(6, 8, 1)]  # not a copy of all eight first
    for asked in (
        slice(None),
        slice(-3, None),
        slice(2, 7, 2),
        slice(None, None, -1),
        slice(5, 1, -2),
        slice(20, 30),
        slice(-20, 3),
    ):
        assert view[asked] == list(range(8))[asked], asked
