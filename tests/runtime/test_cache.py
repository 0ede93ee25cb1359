"""Node caching (`cache: { ttl: … }`): LangGraph's CachePolicy over an InMemoryCache, one
per compiled graph. A hit skips the call and writes the cached update again; the
`updates` stream marks it `__metadata__: {"cached": True}` as LangGraph 1.2.24 does
(compared on the twin). Time comes from a clock the test steps: no sleeping."""

from __future__ import annotations

import pytest
from support.graphs import (
    END,
    START,
    ac_updates,
    ask,
    chan,
    compiled,
    graph,
    lg_twin,
    lg_updates,
    node,
    router,
)

from agentc.runtime import Command, MemoryCheckpointer, NodeCache, RunConfig, Send
from agentc.runtime.cache import cache_key


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _counted(calls: list[str]):
    def a(state):
        calls.append("a")
        return {"log": ["a"], "x": state.get("x")}

    def b(state):
        calls.append("b")
        return {"log": ["b"]}

    return graph(
        state=[chan("log", "append", []), chan("x")],
        nodes=[node("a", a, cache=60), node("b", b, cache=None)],
        edges=[(START, "a"), ("a", "b"), ("b", END)],
    )


def test_hit_skips_the_call_and_streams_like_langgraph():
    from langgraph.cache.memory import InMemoryCache

    calls: list[str] = []  # both sides call the same functions
    g = _counted(calls)
    ours = compiled(g)
    theirs = lg_twin(g, cache=InMemoryCache())
    for x in (1, 1, 2):
        assert ac_updates(ours, {"x": x}) == lg_updates(theirs, {"x": x})
    assert calls == ["a", "b"] * 4  # x=1 then x=2 ran, on each side; the second x=1 did not
    assert ac_updates(ours, {"x": 1}) == [
        {"a": {"log": ["a"], "x": 1}, "__metadata__": {"cached": True}},
        {"b": {"log": ["b"]}, "__metadata__": {"cached": True}},
    ]
    assert ours.invoke({"x": 1}) == {"log": ["a", "b"], "x": 1}
    assert len(calls) == 8


def test_ttl_expires_on_the_clock():
    calls: list[str] = []
    clock = Clock()
    cg = compiled(_counted(calls), cache=NodeCache(clock))
    cg.invoke({"x": 1})
    clock.now += 59.9
    cg.invoke({"x": 1})
    assert calls == ["a", "b"]
    clock.now += 0.2  # a is past its 60 s; b has no expiry
    cg.invoke({"x": 1})
    assert calls == ["a", "b", "a"]


def test_clear_cache_forgets_all_or_some():
    calls: list[str] = []
    cg = compiled(_counted(calls))
    cg.invoke({"x": 1})
    cg.clear_cache("b")
    cg.invoke({"x": 1})
    assert calls == ["a", "b", "b"]
    cg.clear_cache()
    cg.invoke({"x": 1})
    assert calls == ["a", "b", "b", "a", "b"]


def test_cache_is_per_compiled_graph():
    calls: list[str] = []
    g = _counted(calls)
    compiled(g).invoke({"x": 1})
    compiled(g).invoke({"x": 1})
    assert calls == ["a", "b", "a", "b"]


def test_send_payload_is_the_key():
    calls: list[str] = []

    def work(payload):
        calls.append(payload["n"])
        return {"log": [payload["n"]]}

    g = graph(
        state=[chan("log", "append", [])],
        nodes=[node("plan", lambda s: None), node("work", work, cache=None)],
        edges=[(START, "plan")],
        branches=[router("plan", lambda s: [Send("work", {"n": n}) for n in (1, 2, 1)])],
    )
    cg = compiled(g)
    assert cg.invoke({})["log"] == [1, 2, 1]
    assert sorted(calls) == [1, 1, 2]  # one step: the two n=1 tasks both ran (both missed)
    assert cg.invoke({})["log"] == [1, 2, 1]
    assert sorted(calls) == [1, 1, 2]  # every task hit


def test_cached_goto_is_replayed():
    calls: list[str] = []

    def jump(state):
        calls.append("jump")
        return Command(update={"log": ["jump"]}, goto="end")

    g = graph(
        state=[chan("log", "append", [])],
        nodes=[node("jump", jump, cache=None), node("end", lambda s: {"log": ["end"]})],
        edges=[(START, "jump")],
    )
    cg = compiled(g)
    assert cg.invoke({})["log"] == ["jump", "end"]
    assert cg.invoke({})["log"] == ["jump", "end"] and calls == ["jump"]


def test_failures_and_interrupts_are_not_cached():
    calls: list[str] = []

    def flaky(state):
        calls.append("flaky")
        if len(calls) == 1:
            raise KeyError("boom")
        return {"log": [ask("ok?")]}

    g = graph(
        state=[chan("log", "append", [])],
        nodes=[node("flaky", flaky, cache=None)],
        edges=[(START, "flaky"), ("flaky", END)],
    )
    cg = compiled(g, checkpointer=MemoryCheckpointer())
    with pytest.raises(KeyError):
        cg.invoke({}, RunConfig(thread_id="1"))
    assert "__interrupt__" in cg.invoke({}, RunConfig(thread_id="2"))
    assert len(cg.cache) == 0
    assert cg.invoke(Command(resume="yes"), RunConfig(thread_id="2"))["log"] == ["yes"]
    assert len(cg.cache) == 1
    assert cg.invoke({}, RunConfig(thread_id="3"))["log"] == ["yes"]  # a hit: no question
    assert calls == ["flaky", "flaky", "flaky"]


def test_equal_states_share_a_key_whatever_order_they_were_built_in():
    assert cache_key("a", {"x": [1], "y": {"b": 1, "a": 2}}) == cache_key(
        "a", {"y": {"a": 2, "b": 1}, "x": [1]}
    )
    assert cache_key("a", {"x": 1}) != cache_key("b", {"x": 1})
    assert cache_key("a", {"x": 1}) != cache_key("a", {"x": 2})
    assert cache_key("a", {"x": object()}) is None  # not encodable: never cached
