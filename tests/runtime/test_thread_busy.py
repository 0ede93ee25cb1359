"""F11, one writer per thread: a second run (or update_state) on a thread another run is
writing is refused with `thread-busy`, in one process (two `ainvoke`s, two OS threads'
`invoke`s) and across processes (SQLite: an OS lock the kernel drops when its holder
dies; PostgreSQL: a session advisory lock the server drops with the holder's
connection). Two overlapping runs used to both succeed, each saving off the head it had
loaded, so the history forked and one run's messages were lost."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from support.cli_kit import agentc, one_paragraph
from support.graphs import END, START, chan, compiled, graph, node
from support.pg import DURABLE, KINDS, checkpointer, durable

from agentc.runtime import MemoryCheckpointer, RunConfig, ThreadBusyError

HANG_GUARD = 60  # seconds: a hang becomes a failure, never a speed bound


def _held_graph(store, gate):
    """A one-node graph whose node, in a run whose input is `a`, waits for `gate` (an
    asyncio or threading Event)."""

    async def wait_async(state):
        if state["log"] == ["a"]:
            await asyncio.wait_for(gate.wait(), HANG_GUARD)
        return {"log": ["held"]}

    def wait_sync(state):
        if state["log"] == ["a"]:
            assert gate.wait(HANG_GUARD)
        return {"log": ["held"]}

    fn = wait_async if isinstance(gate, asyncio.Event) else wait_sync
    g = graph(
        state=[chan("log", "append", default=[])],
        nodes=[node("hold", fn)],
        edges=[(START, "hold"), ("hold", END)],
    )
    return compiled(g, checkpointer=store)


def _heads(store, thread: str) -> list[str]:
    """Checkpoints of the thread (root namespace) that no other checkpoint continues."""
    ckpts = store.list(thread, "")
    parents = {c.parent_id for c in ckpts}
    return [c.id for c in ckpts if c.id not in parents]


@pytest.fixture(params=KINDS)
def store(request, tmp_path):
    s = checkpointer(request.param, request, str(tmp_path / "state.db"))
    yield s
    s.close()


def test_F11_a_second_ainvoke_on_a_busy_thread_is_refused(store):
    async def main():
        gate = asyncio.Event()
        g = _held_graph(store, gate)
        t = RunConfig(thread_id="T")
        first = asyncio.ensure_future(g.ainvoke({"log": ["a"]}, t))
        while not store.list("T", ""):  # the first run has loaded and saved its input
            await asyncio.sleep(0.005)
        with pytest.raises(ThreadBusyError) as info:
            await g.ainvoke({"log": ["b"]}, t)
        # another thread is not blocked, nor is reading the busy one
        assert await g.ainvoke({"log": ["c"]}, RunConfig(thread_id="U")) == {"log": ["c", "held"]}
        assert (await g.aget_state(t)) is not None
        with pytest.raises(ThreadBusyError):
            await g.aupdate_state(t, {"log": ["d"]}, as_node="hold")
        gate.set()
        assert await asyncio.wait_for(first, HANG_GUARD) == {"log": ["a", "held"]}
        return info.value, g

    err, g = asyncio.run(main())
    assert err.code == "thread-busy"
    assert str(err).startswith("error[thread-busy]: thread `T` is being written by another run")
    assert "wait for it to finish or use another thread id (--thread)" in str(err)
    assert len(_heads(store, "T")) == 1  # one history, not two
    # the claim ended with the run: the thread takes the next run and an update
    g.update_state(RunConfig(thread_id="T"), {"log": ["e"]}, as_node="hold")
    assert len(_heads(store, "T")) == 1


def test_F11_sync_invoke_from_two_threads_on_one_thread_id(store):
    gate = threading.Event()
    g = _held_graph(store, gate)
    t = RunConfig(thread_id="T")
    result: dict[str, object] = {}
    worker = threading.Thread(target=lambda: result.update(out=g.invoke({"log": ["a"]}, t)))
    worker.start()
    deadline = time.monotonic() + HANG_GUARD
    while not store.list("T", ""):
        assert time.monotonic() < deadline
        time.sleep(0.005)
    with pytest.raises(ThreadBusyError, match="thread `T` is being written by another run"):
        g.invoke({"log": ["b"]}, t)
    gate.set()
    worker.join(HANG_GUARD)
    assert result["out"] == {"log": ["a", "held"]}
    assert g.invoke({"log": ["c"]}, t) == {"log": ["a", "held", "c", "held"]}
    assert len(_heads(store, "T")) == 1


def test_F11_a_failed_run_frees_its_thread_and_runs_without_a_thread_claim_nothing():
    store = MemoryCheckpointer()

    def boom(state):
        raise RuntimeError("boom")

    g = compiled(
        graph(
            state=[chan("log", "append", default=[])],
            nodes=[node("boom", boom)],
            edges=[(START, "boom"), ("boom", END)],
        ),
        checkpointer=store,
    )
    for _ in range(2):  # the second is not refused: the failure released the claim
        with pytest.raises(RuntimeError, match="boom"):
            g.invoke({"log": ["a"]}, RunConfig(thread_id="T"))

    async def two_without_a_thread():
        gate = asyncio.Event()
        h = _held_graph(None, gate)  # no checkpointer: nothing to claim
        first = asyncio.ensure_future(h.ainvoke({"log": ["a"]}))
        await asyncio.sleep(0.05)
        second = asyncio.ensure_future(h.ainvoke({"log": ["b"]}))
        await asyncio.sleep(0.05)
        gate.set()
        return await asyncio.wait_for(asyncio.gather(first, second), HANG_GUARD)

    assert asyncio.run(two_without_a_thread()) == [{"log": ["a", "held"]}, {"log": ["b", "held"]}]


def test_F11_a_cancelled_run_frees_its_thread(store):
    async def main():
        gate = asyncio.Event()
        g = _held_graph(store, gate)
        t = RunConfig(thread_id="T")
        first = asyncio.ensure_future(g.ainvoke({"log": ["a"]}, t))
        while not store.list("T", ""):
            await asyncio.sleep(0.005)
        first.cancel()  # as a client that stops reading a stream
        with pytest.raises(asyncio.CancelledError):
            await first
        gate.set()
        return await asyncio.wait_for(g.ainvoke(None, t), HANG_GUARD)  # resumes, not busy

    assert asyncio.run(main()) == {"log": ["a", "held"]}
    assert len(_heads(store, "T")) == 1


# ---------------------------------------------------------------- across processes

GRAPH = """
use "./nodes.py" as nodes

graph held {
  state { log: list[str] = [] reduce append }
  node hold = python(nodes.hold)
  edge START -> hold
  edge hold -> END
  checkpoint {line}
}
"""

NODES = textwrap.dedent("""
    import os, time
    HERE = os.path.dirname(__file__)

    def hold(state):
        if state["log"] != ["first"]:
            return {"log": ["held"]}
        open(os.path.join(HERE, "reached"), "w").close()
        deadline = time.monotonic() + 60
        while not os.path.exists(os.path.join(HERE, "release")):
            assert time.monotonic() < deadline, "never released"
            time.sleep(0.02)
        return {"log": ["held"]}
""")

DRIVER = textwrap.dedent("""
    import sys
    from agentc.api import load_agent
    from agentc.runtime import RunConfig
    graph = load_agent(sys.argv[1], "held")
    print(graph.invoke({"log": [sys.argv[2]]}, RunConfig(thread_id="T")))
""")


def _files(tmp: Path, line: str) -> None:
    (tmp / "held.agent").write_text(GRAPH.replace("{line}", line))
    (tmp / "nodes.py").write_text(NODES)
    (tmp / "driver.py").write_text(DRIVER)


def _start_holder(tmp: Path, env: dict[str, str]) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, str(tmp / "driver.py"), str(tmp / "held.agent"), "first"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + HANG_GUARD
    while not (tmp / "reached").exists():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return proc


@pytest.mark.parametrize("kind", DURABLE)
def test_F11_another_process_holding_the_thread_refuses_it_until_it_is_killed(
    tmp_path, request, kind
):
    saved = durable(kind, request, str(tmp_path / ".agentc" / "state.db"))
    _files(tmp_path, saved.line)
    from agentc.api import load_agent

    holder = _start_holder(tmp_path, saved.env())
    try:
        store = saved.open()
        g = load_agent(str(tmp_path / "held.agent"), "held", checkpointer=store)
        with pytest.raises(ThreadBusyError, match="another process or connection holds its lock"):
            g.invoke({"log": ["second"]}, RunConfig(thread_id="T"))
        assert g.invoke({"log": ["x"]}, RunConfig(thread_id="U")) == {"log": ["x", "held"]}
    finally:
        os.kill(holder.pid, signal.SIGKILL)  # the kernel (or server) drops the dead one's lock
        holder.wait(HANG_GUARD)
    (tmp_path / "release").touch()
    _freed(store, "T")
    out = g.invoke(None, RunConfig(thread_id="T"))  # resumes the killed run's step
    assert out == {"log": ["first", "held"]}
    assert len(_heads(store, "T")) == 1
    store.close()


def _freed(store, thread: str) -> None:
    """Wait until a killed holder's claim is gone: at once for SQLite (the kernel drops the
    lock as the process dies); for PostgreSQL when its server process has seen the
    connection close, a moment later."""
    deadline = time.monotonic() + HANG_GUARD
    while True:
        try:
            store.claim(thread).release()
            return
        except ThreadBusyError:
            assert time.monotonic() < deadline, "the killed holder's claim was never dropped"
            time.sleep(0.01)


@pytest.mark.parametrize("kind", DURABLE)
def test_F11_two_checkpointers_on_one_file_share_the_claims(tmp_path, request, kind):
    saved = durable(kind, request, str(tmp_path / "state.db"))
    one, two = saved.open(), saved.open()
    held = one.claim("T")
    with pytest.raises(ThreadBusyError, match="thread `T`"):
        two.claim("T")
    two.claim("U").release()  # another thread of the same file is free
    held.release()
    two.claim("T").release()
    one.close(), two.close()


# ---------------------------------------------------------------- agentc run, twice

KIT = textwrap.dedent("""
    import os, time

    def hold(text: str) -> str:
        \"\"\"Wait until released.\"\"\"
        open("reached", "w").close()
        deadline = time.monotonic() + 60
        while not os.path.exists("release"):
            assert time.monotonic() < deadline, "never released"
            time.sleep(0.02)
        return text
""")

AGENT = """agentc 1
use "./kit.py" as kit

agent chat {
  model "scripted" { replies: [
    { tool_calls: [{ name: "hold", args: { text: "x" }, id: "c1" }] },
    "done", "done", "done"
  ] }
  tools [kit.hold]
}
"""


def _cli_heads(db: Path, thread: str) -> int:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT id, parent_id FROM checkpoints WHERE thread_id=? AND ns=''", (thread,)
        ).fetchall()
    parents = {p for _, p in rows}
    return sum(1 for i, _ in rows if i not in parents)


def test_F11_two_agentc_runs_on_one_thread_the_second_is_refused(tmp_path):
    (tmp_path / "kit.py").write_text(KIT)
    (tmp_path / "chat.agent").write_text(AGENT)
    first = subprocess.Popen(
        [sys.executable, "-m", "agentc", "run", "chat.agent", "--input", "hi", "--thread", "T"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not (tmp_path / "reached").exists():
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        second = agentc("run", "chat.agent", "--input", "hello", "--thread", "T", cwd=tmp_path)
        assert second.returncode == 1, (second.stdout, second.stderr)
        assert one_paragraph(second.stderr), second.stderr
        assert "error[thread-busy]: thread `T` is being written by another run" in second.stderr
        assert "wait for it to finish or use another thread id (--thread)" in second.stderr
    finally:
        (tmp_path / "release").touch()
        out, err = first.communicate(timeout=HANG_GUARD)
    assert first.returncode == 0, err
    assert _cli_heads(tmp_path / ".agentc" / "state.db", "T") == 1


def test_F11_a_killed_agentc_run_never_blocks_its_thread(tmp_path):
    (tmp_path / "kit.py").write_text(KIT)
    (tmp_path / "chat.agent").write_text(AGENT)
    first = subprocess.Popen(
        [sys.executable, "-m", "agentc", "run", "chat.agent", "--input", "hi", "--thread", "T"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + HANG_GUARD
    while not (tmp_path / "reached").exists():
        assert first.poll() is None
        assert time.monotonic() < deadline
        time.sleep(0.02)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(HANG_GUARD)
    (tmp_path / "release").touch()
    again = agentc("run", "chat.agent", "--thread", "T", cwd=tmp_path)  # resume
    assert again.returncode == 0, (again.stdout, again.stderr)
    assert "thread-busy" not in again.stderr
    assert _cli_heads(tmp_path / ".agentc" / "state.db", "T") == 1
