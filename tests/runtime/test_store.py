"""The long-term store (I1): the `Store` API on both backends, and how a store given at
compile time reaches `ctx.store` — separate from the checkpointer, none by default, shared
with subgraphs."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from support.graphs import END, START, chain, chan, graph, node, program, router, subgraph
from support.pg import DURABLE, durable

from agentc import ir
from agentc.runtime import (
    InMemoryStore,
    MemoryCheckpointer,
    RunConfig,
    SqliteStore,
    StoreError,
    compile,
    open_store,
)

BACKENDS = ["memory", *DURABLE]


@pytest.fixture(params=BACKENDS)
def store(request, tmp_path):
    s = (
        InMemoryStore()
        if request.param == "memory"
        else durable(request.param, request, str(tmp_path / "m" / "memory.db")).open_store()
    )
    yield s
    s.close()


# ---------------------------------------------------------------- the API (both backends)


def test_I1_put_get_delete(store):
    store.put(("users", "ann"), "tea", {"likes": "tea", "n": [1, {"x": None}]})
    item = store.get(("users", "ann"), "tea")
    assert (item.namespace, item.key, item.value) == (
        ("users", "ann"),
        "tea",
        {"likes": "tea", "n": [1, {"x": None}]},
    )
    assert item.created_at == item.updated_at and item.created_at.tzinfo is not None
    assert store.get(("users", "ann"), "coffee") is None
    assert store.get(("users",), "tea") is None  # a namespace is exact for get
    store.delete(("users", "ann"), "tea")
    store.delete(("users", "ann"), "tea")  # deleting what is not there is fine
    assert store.get(("users", "ann"), "tea") is None


def test_I1_values_are_copies(store):
    value = {"tags": ["a"]}
    store.put(("n",), "k", value)
    value["tags"].append("changed after put")
    got = store.get(("n",), "k")
    got.value["tags"].append("changed after get")
    assert store.get(("n",), "k").value == {"tags": ["a"]}


def test_I1_update_keeps_created_at_and_place(store):
    store.put(("n",), "first", {"v": 1})
    store.put(("n",), "second", {"v": 2})
    created = store.get(("n",), "first").created_at
    time.sleep(0.01)
    store.put(("n",), "first", {"v": 3})
    item = store.get(("n",), "first")
    assert item.value == {"v": 3} and item.created_at == created
    assert item.updated_at > created
    assert [i.key for i in store.search(("n",))] == ["first", "second"]
    store.delete(("n",), "first")
    store.put(("n",), "first", {"v": 4})  # a new item goes to the end
    assert [i.key for i in store.search(("n",))] == ["second", "first"]


def test_I1_search_by_namespace_prefix(store):
    for ns in [("a",), ("a", "x"), ("a", "x", "y"), ("ab",), ("a-b",), ("a0",), ("b", "a")]:
        store.put(ns, "k", {"ns": list(ns)})
    found = [i.namespace for i in store.search(("a",), limit=100)]
    assert found == [("a",), ("a", "x"), ("a", "x", "y")]
    assert [i.namespace for i in store.search(("a", "x"))] == [("a", "x"), ("a", "x", "y")]
    assert len(store.search((), limit=100)) == 7


def test_I1_search_filter_and_paging(store):
    for i in range(6):
        store.put(
            ("docs",),
            f"d{i}",
            {
                "n": i,
                "kind": "even" if i % 2 == 0 else "odd",
                "meta": {"lang": "en" if i < 3 else "fr"},
            },
        )

    def keys(**kw):
        return [i.key for i in store.search(("docs",), **kw)]

    assert keys(filter={"kind": "even"}) == ["d0", "d2", "d4"]
    assert keys(filter={"meta": {"lang": "fr"}}) == ["d3", "d4", "d5"]
    assert keys(filter={"n": {"$gte": 2, "$lt": 4}}) == ["d2", "d3"]
    assert keys(filter={"n": {"$ne": 0}, "kind": "even"}) == ["d2", "d4"]
    assert keys(filter={"missing": {"$gt": 1}}) == []
    assert keys(limit=2) == ["d0", "d1"]
    assert keys(limit=2, offset=3) == ["d3", "d4"]
    assert keys(filter={"kind": "odd"}, offset=1) == ["d3", "d5"]
    assert keys() == ["d0", "d1", "d2", "d3", "d4", "d5"]  # limit 10 by default


def test_I1_list_namespaces(store):
    for ns in [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("x",),
    ]:
        store.put(ns, "k", {})
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(max_depth=1) == [("a",), ("x",)]
    assert store.list_namespaces(limit=2, offset=1) == [("a", "b", "d", "e"), ("a", "b", "d", "i")]
    store.delete(("x",), "k")
    assert ("x",) not in store.list_namespaces()  # only namespaces holding items


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda s: s.put((), "k", {}), "at least one label"),
        (lambda s: s.put(("a.b",), "k", {}), "without `.`"),
        (lambda s: s.put(("",), "k", {}), "non-empty"),
        (lambda s: s.put(["a"], "k", {}), "tuple"),
        (lambda s: s.put(("a", 1), "k", {}), "non-empty string"),
        (lambda s: s.put(("a",), 3, {}), "key"),
        (lambda s: s.put(("a",), "k", "text"), "JSON object"),
        (lambda s: s.put(("a",), "k", {"s": {1, 2}}), "value['s'] is a set"),
        (lambda s: s.put(("a",), "k", {"o": object()}), "not a JSON value"),
        (lambda s: s.put(("a",), "k", {"f": float("nan")}), "JSON cannot hold"),
        (lambda s: s.put(("a",), "k", {"d": {1: "x"}}), "keys are strings"),
        (lambda s: s.search(("a",), query="tea"), "no semantic index"),
        (lambda s: s.search(("a",), filter={"n": {"$like": 1}}), "unknown filter operator"),
        (lambda s: s.search(("a",), limit=-1), "limit"),
        (lambda s: s.list_namespaces(max_depth=0), "max_depth"),
    ],
)
def test_I1_bad_calls_are_clear_errors(store, call, words):
    with pytest.raises(StoreError, match=None) as err:
        call(store)
    assert words in err.value.message
    assert isinstance(err.value, ValueError)  # as LangGraph's InvalidNamespaceError


def test_I1_async_adapter(store):
    async def go():
        await store.aput(("n",), "k", {"v": 1})
        got = await store.aget(("n",), "k")
        found = await store.asearch(("n",), filter={"v": 1})
        spaces = await store.alist_namespaces(prefix=("n",))
        await store.adelete(("n",), "k")
        return got.value, [i.key for i in found], spaces, await store.aget(("n",), "k")

    assert asyncio.run(go()) == ({"v": 1}, ["k"], [("n",)], None)


def test_I1_item_dict_is_langgraphs_shape(store):
    store.put(("n",), "k", {"v": 1})
    d = store.get(("n",), "k").dict()
    assert d["namespace"] == ["n"] and d["key"] == "k" and d["value"] == {"v": 1}
    assert json.dumps(d)  # JSON as it is


def test_I1_sqlite_persists_and_shares_the_checkpoint_file(tmp_path):
    from agentc.runtime import SqliteCheckpointer

    path = str(tmp_path / "state.db")
    checkpoints = SqliteCheckpointer(path)
    first = SqliteStore(path)
    first.put(("u",), "k", {"v": "kept"})
    first.close()
    again = SqliteStore(path)
    assert again.get(("u",), "k").value == {"v": "kept"}
    assert checkpoints.list("t", "") == []  # its own table: the checkpoints are untouched
    again.close()
    checkpoints.close()


def test_I1_open_store_follows_the_spec(tmp_path):
    assert open_store(None) is None
    assert open_store(ir.StoreSpec(kind=ir.StoreKind.NONE)) is None
    assert isinstance(open_store(ir.StoreSpec(kind=ir.StoreKind.MEMORY)), InMemoryStore)
    s = open_store(ir.StoreSpec(kind=ir.StoreKind.SQLITE, path="x/m.db"), str(tmp_path))
    assert isinstance(s, SqliteStore) and (tmp_path / "x" / "m.db").is_file()
    s.close()


def test_I1_open_store_opens_postgres_by_the_variable_the_file_names(pg_url, monkeypatch):
    from agentc.runtime.errors import DatabaseUrlError
    from agentc.runtime.store import PostgresStore

    spec = ir.StoreSpec(kind=ir.StoreKind.POSTGRES, url_env="AGENTC_TEST_STORE_DB")
    with pytest.raises(DatabaseUrlError, match="`AGENTC_TEST_STORE_DB`.* is not set"):
        open_store(spec)
    monkeypatch.setenv("AGENTC_TEST_STORE_DB", pg_url)
    first = open_store(spec)
    assert isinstance(first, PostgresStore) and "***" in first.where
    first.put(("u",), "k", {"v": "kept"})
    first.close()
    again = open_store(spec)  # another process's view: the same rows
    assert again.get(("u",), "k").value == {"v": "kept"}
    again.close()


# ---------------------------------------------------------------- wiring: ctx.store


def _seen():
    seen = []

    def look(state, ctx):
        seen.append((ctx.store, ctx.checkpointer))
        if ctx.store is not None:
            ctx.store.put(("log",), ctx.node, {"step": ctx.step})
        return {"x": 1}

    return seen, look


def test_I1_no_store_by_default():
    seen, look = _seen()
    g = graph(state=[chan("x")], nodes=[node("a", look)], edges=chain("a"))
    compile(program(g), "g", checkpointer=MemoryCheckpointer()).invoke({}, RunConfig(thread_id="t"))
    assert seen[0][0] is None and seen[0][1] is not None  # the checkpointer is not the store


def test_I1_store_given_at_compile_time_reaches_ctx_store():
    seen, look = _seen()
    g = graph(state=[chan("x")], nodes=[node("a", look)], edges=chain("a"))
    memory, saver = InMemoryStore(), MemoryCheckpointer()
    compiled = compile(program(g), "g", checkpointer=saver, store=memory)
    compiled.invoke({}, RunConfig(thread_id="t1"))
    compiled.invoke({}, RunConfig(thread_id="t2"))
    assert [s for s, _ in seen] == [memory, memory] and all(c is saver for _, c in seen)
    assert memory.get(("log",), "a").value == {"step": 1}  # the first step after the input


def test_I1_store_without_a_checkpointer():
    seen, look = _seen()
    g = graph(state=[chan("x")], nodes=[node("a", look)], edges=chain("a"))
    memory = InMemoryStore()
    compile(program(g), "g", store=memory).invoke({})  # no thread id needed
    assert seen == [(memory, None)]


def test_I1_subgraph_shares_the_parents_store():
    seen, look = _seen()
    child = graph("child", state=[chan("x")], nodes=[node("inner", look)], edges=chain("inner"))
    parent = graph(
        "parent",
        state=[chan("x")],
        nodes=[subgraph("sub", "child")],
        edges=[(START, "sub"), ("sub", END)],
    )
    memory = InMemoryStore()
    compile(program(parent, child), "parent", store=memory).invoke({})
    assert seen[0][0] is memory
    assert memory.get(("log",), "inner") is not None


def test_I1_routers_see_the_store():
    seen = []

    def pick(state, ctx):
        seen.append(ctx.store)
        return "end"

    g = graph(
        state=[chan("x")],
        nodes=[node("a", lambda s: {"x": 1})],
        edges=[(START, "a")],
        branches=[router("a", pick, {"end": END})],
    )
    memory = InMemoryStore()
    compile(program(g), "g", store=memory).invoke({})
    assert seen == [memory]


# ---------------------------------------------------------------- a damaged SQLite store


@pytest.fixture(params=DURABLE)
def stored(request, tmp_path):
    """A SQLite file or a PostgreSQL schema holding one item."""
    saved = durable(request.param, request, str(tmp_path / "memory.db"))
    s = saved.open_store()
    s.put(("users", "u1"), "prefs", {"lang": "en"})
    s.close()
    return saved


@pytest.mark.parametrize(
    "value,what",
    [
        ('{"lang": "en"', "Expecting"),  # not JSON
        ("[1, 2]", "not a JSON object"),
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ],
    ids=["bad-json", "not-an-object", "100000-deep"],
)
def test_a_damaged_store_row_is_one_clear_error(stored, value, what):
    """Issue 12 item 19 (the store): an edited row was a raw JSONDecodeError/RecursionError."""
    from agentc.runtime import DamagedStoreError

    stored.sql("UPDATE store_items SET value=?", value)
    s = stored.open_store()
    try:
        for read in (
            lambda: s.get(("users", "u1"), "prefs"),
            lambda: s.search(("users",)),
        ):
            with pytest.raises(DamagedStoreError) as info:
                read()
            text = str(info.value)
            assert text.startswith("error[damaged-store]: the long-term store in ")
            assert stored.where in text and "(item 'prefs' under 'users.u1')" in text
            assert what in text
    finally:
        s.close()


def test_a_garbage_store_file_is_one_clear_error(tmp_path):
    from agentc.runtime import DamagedStoreError

    path = tmp_path / "memory.db"
    path.write_bytes(b"not a database at all\n" * 500)
    with pytest.raises(DamagedStoreError, match=r"damaged-store.*is damaged.*not a database"):
        SqliteStore(str(path))
