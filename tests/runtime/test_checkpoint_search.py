"""Listing saved checkpoints across threads and namespaces (LangGraph's `checkpointer.list`).

`Checkpointer.search(CheckpointQuery(...))` answers newest first, filtered by thread,
namespace (a subgraph's own), source, step and `before`, cut at `limit`, the same from
memory, SQLite and PostgreSQL.
"""

from __future__ import annotations

import pytest
from support.graphs import agent_graph
from support.pg import KINDS, checkpointer

from agentc.runtime import CheckpointQuery, RunConfig
from agentc.runtime.checkpoint import CheckpointSource


@pytest.fixture(params=KINDS)
def store(request, tmp_path):
    s = checkpointer(request.param, request, str(tmp_path / "s.db"))
    yield s
    s.close()


def _two_threads(store) -> None:
    g = agent_graph("checkpoint", "chat", checkpointer=store)
    g.invoke({"messages": ["a"], "rounds": 2}, RunConfig(thread_id="t1"))
    g.invoke({"messages": ["b"], "rounds": 3}, RunConfig(thread_id="t2"))


def test_every_threads_checkpoints_newest_first(store):
    _two_threads(store)
    found = store.search(CheckpointQuery())
    assert {f.thread_id for f in found} == {"t1", "t2"}
    assert [f.checkpoint.id for f in found] == sorted(
        (f.checkpoint.id for f in found), reverse=True
    )
    # each thread's own listing, oldest first, is the same checkpoints
    for thread in ("t1", "t2"):
        mine = [f.checkpoint.id for f in found if f.thread_id == thread]
        assert mine == [c.id for c in reversed(store.list(thread, ""))]
    assert found[0].thread_id == "t2"  # saved last


def test_filters_by_thread_source_step_before_and_limit(store):
    _two_threads(store)
    t2 = store.search(CheckpointQuery(thread_id="t2"))
    assert t2 and all(f.thread_id == "t2" for f in t2)
    inputs = store.search(CheckpointQuery(source=CheckpointSource.INPUT))
    assert {f.thread_id for f in inputs} == {"t1", "t2"}
    assert all(f.checkpoint.source is CheckpointSource.INPUT for f in inputs)
    step1 = store.search(CheckpointQuery(step=1))
    assert step1 and all(f.checkpoint.step == 1 for f in step1)
    newest, *older = t2
    before = store.search(CheckpointQuery(thread_id="t2", before=newest.checkpoint.id))
    assert [f.checkpoint.id for f in before] == [f.checkpoint.id for f in older]
    assert store.search(CheckpointQuery(limit=2)) == store.search(CheckpointQuery())[:2]
    assert store.search(CheckpointQuery(thread_id="nobody")) == []


def test_namespaces_none_means_every_namespace(store):
    _two_threads(store)
    top = store.search(CheckpointQuery(ns=""))
    everything = store.search(CheckpointQuery(ns=None))
    assert set(f.checkpoint.id for f in top) <= set(f.checkpoint.id for f in everything)
    assert all(f.ns == "" for f in top)
