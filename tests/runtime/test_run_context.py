"""The run context (`context Ctx` / `invoke(…, context=…)`, LangGraph's context_schema) and
the helpers for code not handed its `ctx`: get_context, get_config, get_store,
get_stream_writer (and interrupt, elsewhere)."""

from __future__ import annotations

import asyncio

import pytest
from support.graphs import (
    END,
    START,
    chan,
    compiled,
    graph,
    lg_twin,
    node,
    router,
    run_context,
    schema,
    subgraph,
)

from agentc.runtime import (
    AgentcRuntimeError,
    InMemoryStore,
    InvalidContextError,
    RunConfig,
    get_config,
    get_context,
    get_store,
    get_stream_writer,
)
from agentc.runtime.events import CustomEvent

CTX = schema(
    "Ctx",
    {
        "type": "object",
        "properties": {"user_id": {"type": "string"}, "lang": {"type": "string", "default": "en"}},
        "required": ["user_id"],
    },
)


def _who(**kw):
    def with_ctx(state, ctx):
        return {"seen": [("ctx", dict(ctx.context))]}

    def ambient(state):
        return {"seen": [("get", dict(get_context()))]}

    g = graph(
        state=[chan("seen", "append", [])],
        nodes=[node("a", with_ctx), node("b", ambient)],
        edges=[(START, "a"), ("a", "b"), ("b", END)],
        **kw,
    )
    return g


def test_nodes_read_the_context_both_ways():
    cg = compiled(_who())
    expect = [("ctx", {"user_id": "u1"}), ("get", {"user_id": "u1"})]
    assert cg.invoke({}, context={"user_id": "u1"})["seen"] == expect
    assert cg.invoke({}, RunConfig(context={"user_id": "u1"}))["seen"] == expect

    async def streamed():
        return [e async for e in cg.astream({}, context={"user_id": "u1"})]

    assert asyncio.run(streamed())[-1].values["seen"] == expect


def test_context_reaches_nodes_as_in_langgraph():
    from typing import TypedDict

    class Ctx(TypedDict):
        user_id: str

    g = graph(
        state=[chan("seen", "append", [])],
        nodes=[
            node("a", lambda s: {"seen": [run_context()["user_id"]]}),
            node("b", lambda s: None),
        ],
        edges=[(START, "a"), ("a", "b"), ("b", END)],
    )
    theirs = lg_twin(g, context_schema=Ctx).invoke({}, context={"user_id": "u7"})
    assert compiled(g).invoke({}, context={"user_id": "u7"}) == theirs == {"seen": ["u7"]}


def test_no_context_is_none():
    def read(state, ctx):
        return {"seen": [ctx.context, get_context()]}

    g = graph(state=[chan("seen", "append", [])], nodes=[node("a", read)], edges=[(START, "a")])
    assert compiled(g).invoke({})["seen"] == [None, None]


def test_the_keyword_wins_over_the_config():
    cg = compiled(_who())
    out = cg.invoke({}, RunConfig(context={"user_id": "cfg"}), context={"user_id": "kw"})
    assert out["seen"][0] == ("ctx", {"user_id": "kw"})


def test_schema_defaults_are_filled_in():
    cg = compiled(_who(context="Ctx"), schemas=[CTX])
    assert cg.invoke({}, context={"user_id": "u1"})["seen"][0] == (
        "ctx",
        {"user_id": "u1", "lang": "en"},
    )


@pytest.mark.parametrize(
    ("context", "says"),
    [
        ({"user_id": 7}, "field `user_id`: expected a string, got 7"),
        ({"lang": "fr"}, "field `user_id`: missing (required)"),
        (None, "(no context was given): field `user_id`: missing (required)"),
    ],
)
def test_a_context_that_misses_the_schema_is_refused_before_step_one(context, says):
    calls = []

    def a(state):
        calls.append(1)

    g = graph(state=[chan("x")], nodes=[node("a", a)], edges=[(START, "a")], context="Ctx")
    with pytest.raises(InvalidContextError) as err:
        compiled(g, schemas=[CTX]).invoke({}, context=context)
    text = str(err.value)
    assert "does not match `Ctx`, the context of graph `g`" in text and says in text
    assert calls == []


def test_a_context_that_is_not_a_mapping_is_refused():
    g = graph(state=[chan("x")], nodes=[node("a", lambda s: None)], edges=[(START, "a")])
    g = g.model_copy(update={"context": "Ctx"})
    with pytest.raises(InvalidContextError, match="a mapping of its fields, not a str"):
        compiled(g, schemas=[CTX]).invoke({}, RunConfig(context="u1"))  # type: ignore[arg-type]


def test_routers_see_the_context():
    def pick(state, ctx):
        return "yes" if ctx.context["user_id"] == "admin" else "no"

    g = graph(
        state=[chan("log", "append", [])],
        nodes=[
            node("a", lambda s: None),
            node("yes", lambda s: {"log": ["yes"]}),
            node("no", lambda s: {"log": ["no"]}),
        ],
        edges=[(START, "a")],
        branches=[router("a", pick, {"yes": "yes", "no": "no"})],
    )
    assert compiled(g).invoke({}, context={"user_id": "admin"})["log"] == ["yes"]
    assert compiled(g).invoke({}, context={"user_id": "bob"})["log"] == ["no"]


def test_subgraphs_get_the_context_and_check_their_own_schema():
    child = graph(
        "child",
        state=[chan("seen", "append", [])],
        nodes=[node("inner", lambda s: {"seen": [("inner", dict(get_context()))]})],
        edges=[(START, "inner"), ("inner", END)],
        context="Ctx",
    )
    parent = graph(
        "parent",
        state=[chan("seen", "append", [])],
        nodes=[subgraph("sub", "child")],
        edges=[(START, "sub"), ("sub", END)],
    )
    cg = compiled(parent, child, schemas=[CTX])
    out = cg.invoke({}, context={"user_id": "u1"})
    assert out["seen"] == [("inner", {"user_id": "u1", "lang": "en"})]
    with pytest.raises(InvalidContextError, match="the context of graph `child`"):
        cg.invoke({}, context={"user_id": 1})


# ---------------------------------------------------------------- the other helpers


def test_get_config_and_get_store_inside_a_run():
    store = InMemoryStore()

    def a(state):
        cfg = get_config()
        get_store().put(("ns",), "k", {"thread": cfg.thread_id, "tags": list(cfg.tags)})

    g = graph(state=[chan("x")], nodes=[node("a", a)], edges=[(START, "a")])
    compiled(g, store=store).invoke({}, RunConfig(thread_id="t1", tags=("x",)))
    assert store.get(("ns",), "k").value == {"thread": "t1", "tags": ["x"]}


def test_get_store_is_none_without_a_store():
    g = graph(
        state=[chan("x")], nodes=[node("a", lambda s: {"x": get_store()})], edges=[(START, "a")]
    )
    assert compiled(g).invoke({}) == {"x": None}


def test_stream_writer_emits_custom_events_from_nodes_and_subgraphs():
    def a(state):
        write = get_stream_writer()
        write({"progress": 1})
        write("done")

    child = graph(
        "child",
        state=[chan("x")],
        nodes=[node("inner", lambda s: get_stream_writer()("inner"))],
        edges=[(START, "inner")],
    )
    parent = graph(
        "parent",
        state=[chan("x")],
        nodes=[node("a", a), subgraph("sub", "child")],
        edges=[(START, "a"), ("a", "sub")],
    )
    # as LangGraph: a subgraph's events show with subgraphs=True (their `ns` says where)
    assert [e.payload for e in compiled(parent, child).stream({}, mode="custom")] == [
        {"progress": 1},
        "done",
    ]
    events = list(compiled(parent, child).stream({}, mode="custom", subgraphs=True))
    assert [(e.node, e.payload, e.ns) for e in events] == [
        ("a", {"progress": 1}, ""),
        ("a", "done", ""),
        ("inner", "inner", events[2].ns),
    ]
    assert all(isinstance(e, CustomEvent) for e in events) and events[2].ns.startswith("sub")
    assert compiled(parent, child).invoke({}) == {}  # nobody streams: writing is a no-op


@pytest.mark.parametrize(
    "helper", [get_stream_writer, get_store, get_config, get_context], ids=lambda h: h.__name__
)
def test_helpers_outside_a_run_say_which_helper(helper):
    with pytest.raises(AgentcRuntimeError, match=rf"{helper.__name__}\(\) was called outside"):
        helper()


def test_async_nodes_see_the_context_too():
    async def a(state):
        await asyncio.sleep(0)
        return {"seen": [get_context()["user_id"], get_config().context["user_id"]]}

    g = graph(state=[chan("seen", "append", [])], nodes=[node("a", a)], edges=[(START, "a")])
    out = asyncio.run(compiled(g).ainvoke({}, context={"user_id": "u2"}))
    assert out["seen"] == ["u2", "u2"]
