"""F11 fault tolerance: a run under SQLite with durability `sync` is killed with SIGKILL in
the middle of a step; a second process resumes the thread. Every completed step is kept,
no task that finished runs twice — a lone step's task, or a parallel step's finished
sibling — and the result equals an uninterrupted run's."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

GRAPH = """
use "./nodes.py" as nodes

graph loop {
  state {
    n: int = 0
    messages: messages
  }
  node work = python(nodes.work)
  edge START -> work
  edge work -> work when nodes.more
  edge work -> END otherwise
  limits { steps: 100 }
  checkpoint sqlite(".agentc/state.db")
}

graph fan {
  state { done: list[int] = [] reduce append }
  node plan = python(nodes.noop)
  node part = python(nodes.part)
  edge START -> plan
  route plan by nodes.two_parts { none -> END }
  edge part -> END
  checkpoint sqlite(".agentc/state.db")
}
"""

NODES = textwrap.dedent("""
    import os, time
    from agentc.runtime import Send
    HERE = os.path.dirname(__file__)

    def effect(text):
        with open(os.path.join(HERE, "effects.txt"), "a") as f:
            f.write(f"{text}\\n")    # a side effect per executed task

    def block_here():
        open(os.path.join(HERE, "reached"), "w").close()
        while True:               # the parent kills us here, mid-step
            time.sleep(0.05)

    def work(state):
        n = state["n"]
        if n == 4 and os.path.exists(os.path.join(HERE, "block")):
            block_here()
        effect(n)
        return {"n": n + 1, "messages": [{"role": "ai", "content": f"step {n}", "id": f"m{n}"}]}

    def more(state):
        return state["n"] < 8

    def noop(state):
        return None

    def two_parts(state):
        return [Send("part", 0), Send("part", 1)]

    def part(i):
        if i == 1:
            time.sleep(0.2)       # part 0 finishes (and is saved) first
            if os.path.exists(os.path.join(HERE, "block")):
                block_here()
        effect(f"part{i}")
        return {"done": [i]}
""")

DRIVER = textwrap.dedent("""
    import json, sys
    from agentc.api import load_agent
    from agentc.runtime import RunConfig, Durability
    graph_name, mode, thread = sys.argv[1], sys.argv[2], sys.argv[3]
    graph = load_agent(sys.argv[4], graph_name)
    start = {"loop": {"messages": [{"role": "human", "content": "go", "id": "h"}]},
             "fan": {}}[graph_name]
    out = graph.invoke(None if mode == "resume" else start, RunConfig(thread_id=thread),
                       durability=Durability.SYNC)
    print(json.dumps({k: ([[m.id, m.text] for m in v] if k == "messages" else v)
                      for k, v in out.items()}))
""")


def _setup(tmp: Path) -> None:
    (tmp / "graph.agent").write_text(GRAPH)
    (tmp / "nodes.py").write_text(NODES)
    (tmp / "driver.py").write_text(DRIVER)


def _cmd(tmp: Path, graph: str, mode: str, thread: str) -> list[str]:
    return [sys.executable, str(tmp / "driver.py"), graph, mode, thread, str(tmp / "graph.agent")]


def _run(tmp: Path, *args: str) -> dict:
    proc = subprocess.run(_cmd(tmp, *args), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _kill_when(tmp: Path, proc: subprocess.Popen, ready) -> None:
    deadline = time.monotonic() + 30
    while not ready():
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


def _effects(tmp: Path) -> list[str]:
    return (tmp / "effects.txt").read_text().split()


def test_F11_kill_and_resume(tmp_path):
    _setup(tmp_path)
    (tmp_path / "block").touch()
    proc = subprocess.Popen(
        _cmd(tmp_path, "loop", "start", "t1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    _kill_when(tmp_path, proc, (tmp_path / "reached").exists)
    assert _effects(tmp_path) == ["0", "1", "2", "3"]

    (tmp_path / "block").unlink()
    resumed = _run(tmp_path, "loop", "resume", "t1")
    assert _effects(tmp_path) == [str(i) for i in range(8)]  # each step ran exactly once

    (tmp_path / "effects.txt").unlink()
    fresh = _run(tmp_path, "loop", "start", "t2")
    assert resumed == fresh and resumed["n"] == 8


def test_F11_kill_mid_parallel_step_keeps_the_finished_sibling(tmp_path):
    _setup(tmp_path)
    (tmp_path / "block").touch()
    db = tmp_path / ".agentc" / "state.db"

    def sibling_saved() -> bool:
        if not (tmp_path / "reached").exists():
            return False
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT count(*) FROM writes WHERE kind='result'").fetchone()[0] > 0

    proc = subprocess.Popen(
        _cmd(tmp_path, "fan", "start", "f1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    _kill_when(tmp_path, proc, sibling_saved)
    assert _effects(tmp_path) == ["part0"]

    (tmp_path / "block").unlink()
    resumed = _run(tmp_path, "fan", "resume", "f1")
    assert _effects(tmp_path) == ["part0", "part1"]  # part 0 did not run again
    assert resumed == {"done": [0, 1]}


# ---------------------------------------------------------------- F11 async back-pressure


def test_F11_async_keeps_at_most_one_save_in_flight(tmp_path):
    """Under `async` a run hands the writer its next checkpoint only when the previous one
    is saved, so however slow the disk, each step starts with every checkpoint but the
    last one saved (a crash loses at most the last completed step). The writer's queue
    used to grow without bound: a killed run lost every step still queued."""
    from support.graphs import END, START, chan, compiled, graph, node, router

    from agentc.runtime import Durability, RunConfig, SqliteCheckpointer

    path = str(tmp_path / "state.db")

    class SlowDisk(SqliteCheckpointer):
        def put(self, thread_id, ns, checkpoint):
            time.sleep(0.02)  # a disk slower than the steps: the writer lags behind
            super().put(thread_id, ns, checkpoint)

    seen: list[tuple[int, int]] = []  # (step of `work`, checkpoints in the file then)

    def work(state):
        with sqlite3.connect(path) as conn:
            seen.append(
                (state["n"], conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0])
            )
        return {"n": state["n"] + 1}

    store = SlowDisk(path)
    g = compiled(
        graph(
            state=[chan("n", default=0)],
            nodes=[node("work", work)],
            edges=[(START, "work")],
            branches=[router("work", lambda s: "work" if s["n"] < 8 else END)],
        ),
        checkpointer=store,
    )
    assert g.invoke({"n": 0}, RunConfig(thread_id="t"), durability=Durability.ASYNC) == {"n": 8}
    store.close()
    # when `work` runs with n = k, the run has made k + 2 checkpoints (input, START, k
    # steps): all but the last are in the file
    assert [n for n, _ in seen] == list(range(8))
    assert all(saved >= n + 1 for n, saved in seen), seen
