"""Subgraph nodes with `input` / `output` maps (ir.SubgraphNodeConfig), and the child's own
input / output channel flags. Without maps: shared keys by name, as before (and as
LangGraph's shared-key subgraph, compared on the twin)."""

from __future__ import annotations

import pytest
from support.graphs import END, START, ac_steps, ask, chan, compiled, graph, node, subgraph

from agentc.runtime import Command, MemoryCheckpointer, RunConfig
from agentc.runtime.errors import BindError


def _child(**flags):
    """child: reads `text` (and `extra`), writes `verdict` and `note`."""

    def judge(state):
        seen = sorted(k for k in state if k in ("text", "extra", "verdict", "note"))
        return {"verdict": f"ok:{state.get('text')}", "note": f"saw {','.join(seen)}"}

    return graph(
        "child",
        state=[
            chan("text", default=None),
            chan("extra", default=None, **flags.get("extra", {})),
            chan("verdict", default=None),
            chan("note", default=None, **flags.get("note", {})),
        ],
        nodes=[node("judge", judge)],
        edges=[(START, "judge"), ("judge", END)],
    )


def _parent(sub):
    return graph(
        "parent",
        state=[
            chan("joke", default="j"),
            chan("text", default="t"),
            chan("extra", default="e"),
            chan("feedback", default=None),
            chan("verdict", default=None),
            chan("note", default=None),
        ],
        nodes=[sub],
        edges=[(START, sub.name), (sub.name, END)],
    )


def test_without_maps_shared_keys_go_both_ways():
    out = compiled(_parent(subgraph("sub", "child")), _child()).invoke({})
    assert out["verdict"] == "ok:t" and out["note"] == "saw extra,note,text,verdict"


def test_input_map_starts_the_child_from_exactly_the_mapped_values():
    sub = subgraph("sub", "child", input={"text": "joke"})
    out = compiled(_parent(sub), _child()).invoke({})
    # only `text` came in (from `joke`); the child's other channels have their defaults
    assert out["verdict"] == "ok:j"
    assert out["note"] == "saw extra,note,text,verdict"  # defaults, not the parent's values
    # no `output` map: every child output the parent shares goes back, by name (the child's
    # default `extra` too), as before
    assert out["extra"] is None


def test_output_map_writes_back_only_the_mapped_values():
    sub = subgraph("sub", "child", output={"feedback": "verdict"})
    out = compiled(_parent(sub), _child()).invoke({})
    assert out["feedback"] == "ok:t"
    assert out["verdict"] is None and out["note"] is None  # not mapped: not written


def test_both_maps():
    sub = subgraph("sub", "child", input={"text": "joke"}, output={"feedback": "verdict"})
    out = compiled(_parent(sub), _child()).invoke({})
    assert (out["feedback"], out["verdict"], out["text"]) == ("ok:j", None, "t")


def test_the_childs_private_channels_neither_come_in_nor_go_out():
    child = _child(extra={"input": False}, note={"output": False})

    def judge(state):
        return {"verdict": f"extra={state.get('extra')}", "note": "private"}

    child = child.model_copy(update={"nodes": [node("judge", judge)]})
    out = compiled(_parent(subgraph("sub", "child")), child).invoke({})
    assert out["verdict"] == "extra=None"  # the parent's `extra` stayed out
    assert out["note"] is None  # the child's `note` stayed in


@pytest.mark.parametrize(
    ("maps", "says"),
    [
        (
            {"input": {"nope": "joke"}},
            "maps `joke` into `nope`, which is not an input channel of `child`",
        ),
        ({"input": {"text": "nope"}}, "maps `nope` into `text`, but `nope` is not a channel of"),
        (
            {"output": {"feedback": "nope"}},
            "maps `nope` back into `feedback`, but `nope` is not an output of `child`",
        ),
        (
            {"output": {"nope": "verdict"}},
            "maps `verdict` back into `nope`, which is not a channel of this graph",
        ),
    ],
)
def test_a_map_naming_a_missing_channel_is_a_bind_error(maps, says):
    with pytest.raises(BindError, match="subgraph node `sub`") as err:
        compiled(_parent(subgraph("sub", "child", **maps)), _child())
    assert says in str(err.value)


def test_a_mapped_child_pauses_and_resumes_under_the_parents_namespace():
    def judge(state):
        return {"verdict": f"{state['text']}:{ask('grade?')}"}

    child = _child().model_copy(update={"nodes": [node("judge", judge)]})
    sub = subgraph("sub", "child", input={"text": "joke"}, output={"feedback": "verdict"})
    memory = MemoryCheckpointer()
    cg = compiled(_parent(sub), child, checkpointer=memory)
    t = RunConfig(thread_id="t")
    assert cg.invoke({}, t)["__interrupt__"][0].value == "grade?"
    assert cg.invoke(Command(resume="A"), t)["feedback"] == "j:A"
    assert any(ns.startswith("sub:") for _, ns in memory._ckpts)


def test_shared_key_subgraph_matches_langgraph():
    from langgraph.graph import StateGraph
    from support.graphs import lg_twin

    inner = graph(
        "inner",
        state=[chan("log", "append", []), chan("n", default=0)],
        nodes=[node("step", lambda s: {"log": ["inner"], "n": s["n"] + 1})],
        edges=[(START, "step"), ("step", END)],
    )
    outer = graph(
        "outer",
        state=[chan("log", "append", []), chan("n", default=0)],
        nodes=[node("first", lambda s: {"log": ["first"]}), subgraph("sub", "inner")],
        edges=[(START, "first"), ("first", "sub"), ("sub", END)],
    )
    ours = compiled(outer, inner).invoke({"n": 1})
    # LangGraph: the compiled child graph as the node (shared keys), the same functions
    first = outer.model_copy(update={"nodes": outer.nodes[:1], "edges": outer.edges[:1]})
    lg_first = lg_twin(first)
    b = StateGraph(lg_first.builder.state_schema)
    b.add_node("first", lg_first.builder.nodes["first"].runnable)
    b.add_node("sub", lg_twin(inner))
    b.add_edge("__start__", "first")
    b.add_edge("first", "sub")
    theirs = b.compile().invoke({"n": 1})
    assert ours == theirs
    assert ac_steps(compiled(outer, inner), {"n": 1})[-1][0][0] == "sub"
