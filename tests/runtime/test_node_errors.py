"""A failing node: the user's exception leaves the run as itself (catchable by its class,
as LangGraph re-raises it), named by the node it left — a note for tracebacks (LangGraph
adds `During task with name …`), `failed_nodes(exc)` and one paragraph from
`describe_node_failure(exc)`; through a subgraph node, outermost first."""

from __future__ import annotations

import asyncio
import traceback

import pytest
from support.graphs import END, START, chan, compiled, graph, node, subgraph

from agentc import ir
from agentc.runtime import InvalidUpdateError, describe_node_failure, failed_nodes


class Boom(Exception):
    pass


def _failing(exc: BaseException, **kw):
    def fail(state):
        raise exc

    return graph(
        state=[chan("x", default=0)],
        nodes=[node("ok", lambda s: {"x": 1}), node("bad", fail, **kw)],
        edges=[(START, "ok"), ("ok", "bad"), ("bad", END)],
    )


def test_the_users_exception_keeps_its_class_and_names_the_node():
    with pytest.raises(KeyError) as err:
        compiled(_failing(KeyError("boom"))).invoke({})
    assert failed_nodes(err.value) == ("bad",)
    assert describe_node_failure(err.value) == "node `bad` failed: KeyError: 'boom'"
    assert any("During node `bad`" in n for n in err.value.__notes__)
    assert "During node `bad`" in "".join(traceback.format_exception(err.value))


def test_async_and_sync_nodes_alike():
    async def fail(state):
        raise Boom("async boom")

    g = graph(state=[chan("x")], nodes=[node("later", fail)], edges=[(START, "later")])
    with pytest.raises(Boom) as err:
        asyncio.run(compiled(g).ainvoke({}))
    assert describe_node_failure(err.value) == "node `later` failed: Boom: async boom"


def test_after_retries_run_out_it_is_named_once():
    policy = ir.RetryPolicy(max_attempts=3, initial_interval=0, jitter=False)
    with pytest.raises(ConnectionError) as err:
        compiled(_failing(ConnectionError("down"), retry=policy)).invoke({})
    assert failed_nodes(err.value) == ("bad",)
    assert len([n for n in err.value.__notes__ if "During node" in n]) == 1


def test_a_failure_inside_a_subgraph_names_both_nodes():
    def fail(state):
        raise ValueError("deep")

    child = graph("child", state=[chan("x")], nodes=[node("inner", fail)], edges=[(START, "inner")])
    parent = graph(
        "parent", state=[chan("x")], nodes=[subgraph("sub", "child")], edges=[(START, "sub")]
    )
    with pytest.raises(ValueError) as err:
        compiled(parent, child).invoke({})
    assert failed_nodes(err.value) == ("sub", "inner")
    assert describe_node_failure(err.value) == "node `sub` › `inner` failed: ValueError: deep"


def test_runtime_errors_keep_their_own_text():
    g = graph(state=[chan("x")], nodes=[node("bad", lambda s: {"y": 1})], edges=[(START, "bad")])
    with pytest.raises(InvalidUpdateError) as err:
        compiled(g).invoke({})
    text = describe_node_failure(err.value)
    assert text is not None and text.startswith("node `bad` failed: error[invalid-update]")


def test_an_exception_not_from_a_node_has_no_node():
    assert failed_nodes(KeyError("x")) == () and describe_node_failure(KeyError("x")) is None
