"""How the SQLite checkpointer saves (F11): on the run's own thread in both modes (a store
over the network through its writer thread); the write-ahead log is checkpointed while the run
pauses between steps, so it stays small during the run, not only after `close`."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest
from support.graphs import END, START, chan, cmp, compiled, field, graph, node, when

from agentc.runtime import Durability, MemoryCheckpointer, RunConfig, SqliteCheckpointer
from agentc.stdlib.messages import AIMessage, ToolMessage


class SeenThreads(SqliteCheckpointer):
    """The real store, noting which thread made each save."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.saved_on: list[int] = []

    def put(self, thread_id, ns, checkpoint):
        self.saved_on.append(threading.get_ident())
        super().put(thread_id, ns, checkpoint)


class FarStore(MemoryCheckpointer):
    """A store whose every call blocks, as a database over the network does."""

    blocking = True

    def __init__(self) -> None:
        super().__init__()
        self.saved_on: list[int] = []

    def put(self, thread_id, ns, checkpoint):
        self.saved_on.append(threading.get_ident())
        super().put(thread_id, ns, checkpoint)


def _loop(n: int, store, on_model=None):
    async def model(s):
        if on_model is not None:
            await on_model()
        return {"messages": [AIMessage(content="m")]}

    async def tools(s):
        return {"messages": [ToolMessage(content="t", tool_call_id="c")], "k": s["k"] + 1}

    return compiled(
        graph(
            state=[chan("messages", "messages"), chan("k", default=0)],
            nodes=[node("model", model), node("tools", tools)],
            edges=[(START, "model"), ("tools", "model")],
            branches=[when("model", (cmp(field("k"), "<", n), "tools"), (None, END))],
            steps=2 * n + 10,
        ),
        checkpointer=store,
    )


def _saved_on_the_runs_thread(store, durability: Durability) -> list[bool]:
    loop_thread: list[int] = []

    async def run():
        loop_thread.append(threading.get_ident())
        cfg = RunConfig(thread_id="t")
        return await _loop(5, store).ainvoke({"messages": ["hi"]}, cfg, durability=durability)

    assert asyncio.run(asyncio.wait_for(run(), 60))["k"] == 5
    assert len(store.saved_on) == 13  # input, START, 11 steps
    return [t == loop_thread[0] for t in store.saved_on]


@pytest.mark.parametrize("durability", [Durability.SYNC, Durability.ASYNC])
def test_F11_a_sqlite_file_is_saved_on_the_runs_own_thread(tmp_path, durability):
    store = SeenThreads(str(tmp_path / "state.db"))
    on_loop = _saved_on_the_runs_thread(store, durability)
    store.close()
    assert all(on_loop)  # no hop to the writer thread and back: it cost more than a commit


@pytest.mark.parametrize("durability", [Durability.SYNC, Durability.ASYNC])
def test_F11_a_store_over_the_network_is_saved_by_the_writer_thread(durability):
    assert not any(_saved_on_the_runs_thread(FarStore(), durability))


def test_the_wal_is_checkpointed_while_a_run_waits_for_its_model(tmp_path):
    path = str(tmp_path / "state.db")
    store = SqliteCheckpointer(path)
    largest = [0]

    async def model_thinks():
        await asyncio.sleep(0.03)  # a model's reply takes a while; the writer is idle
        if os.path.exists(path + "-wal"):
            largest[0] = max(largest[0], os.path.getsize(path + "-wal"))

    cfg = RunConfig(thread_id="t")
    run = _loop(50, store, model_thinks).ainvoke({"messages": ["hi"]}, cfg)
    assert asyncio.run(asyncio.wait_for(run, 60))["k"] == 50
    store.close()
    # about 100 commits: without checkpoints while the run goes, the log holds them all
    # (over 1 MiB with 4 KiB pages); checkpointed in the pauses, a few steps at most
    assert 0 < largest[0] < 100 * 1024, largest[0]
    assert not os.path.exists(path + "-wal") or os.path.getsize(path + "-wal") == 0
