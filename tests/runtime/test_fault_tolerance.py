"""F11 fault tolerance: a run under SQLite with durability `sync` is killed with SIGKILL in
the middle of a step; a second process resumes the thread. Every completed step is kept,
none runs twice, and the result equals an uninterrupted run's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

NODES = textwrap.dedent('''
    import os, time
    HERE = os.path.dirname(__file__)

    def work(state):
        n = state["n"]
        if n == 4 and os.path.exists(os.path.join(HERE, "block")):
            open(os.path.join(HERE, "reached"), "w").close()
            while True:           # the parent kills us here, mid-step
                time.sleep(0.05)
        with open(os.path.join(HERE, "effects.txt"), "a") as f:
            f.write(f"{n}\\n")    # a side effect per executed step
        return {"n": n + 1, "messages": [{"role": "ai", "content": f"step {n}", "id": f"m{n}"}]}

    def more(state):
        return state["n"] < 8
''')

DRIVER = textwrap.dedent('''
    import json, sys
    from agentc.compiler import ir
    from agentc.runtime import compile, RunConfig, Durability, SqliteStore
    span = ir.SourceSpan(file="t.agent", line=1, col=1, end_line=1, end_col=1, offset=0, end_offset=0)
    ref = lambda a: ir.ImportRef(module="./nodes.py", attr=a, is_file=True)
    g = ir.Graph(name="g", kind="graph", span=span,
        state=[ir.ChannelSpec(name="n", type=ir.TypeSpec(display="int", json_schema={}), default=0,
                              has_default=True, span=span),
               ir.ChannelSpec(name="messages", type=ir.TypeSpec(display="messages", json_schema={}),
                              reducer=ir.ImportRef(module="agentc.stdlib.messages", attr="add_messages"),
                              span=span)],
        nodes=[ir.NodeSpec(name="work", kind="python", impl=ref("work"), span=span)],
        edges=[ir.EdgeSpec(source="__start__", target="work", span=span)],
        branches=[ir.BranchSpec(source="work", kind="when", span=span, cases=[
            ir.BranchCase(condition=ir.PredicateCond(ref=ref("more")), target="work", span=span),
            ir.BranchCase(condition=None, target="__end__", span=span)])],
        limits=ir.Limits(steps=ir.Bound(value=100)), checkpoint=ir.CheckpointSpec(kind="sqlite"))
    prog = ir.Program(source=ir.SourceRef(file="t.agent", sha256="0"), graphs=[g])
    graph = compile(prog, "g", checkpointer=SqliteStore(sys.argv[1]), base_dir=sys.argv[2])
    value = None if sys.argv[3] == "resume" else {"messages": [{"role": "human", "content": "go", "id": "h"}]}
    out = graph.invoke(value, RunConfig(thread_id=sys.argv[4]), durability=Durability.SYNC)
    print(json.dumps({"n": out["n"], "messages": [[m.id, m.text] for m in out["messages"]]}))
''')


def _run(tmp, *args):
    proc = subprocess.run([sys.executable, str(tmp / "driver.py"), *args], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_F11_kill_and_resume(tmp_path):
    (tmp_path / "nodes.py").write_text(NODES)
    (tmp_path / "driver.py").write_text(DRIVER)
    db = str(tmp_path / ".agentc" / "state.db")
    (tmp_path / "block").touch()
    proc = subprocess.Popen([sys.executable, str(tmp_path / "driver.py"), db, str(tmp_path),
                             "start", "t1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not (tmp_path / "reached").exists():
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert (tmp_path / "effects.txt").read_text().split() == ["0", "1", "2", "3"]

    (tmp_path / "block").unlink()
    resumed = _run(tmp_path, db, str(tmp_path), "resume", "t1")
    effects = (tmp_path / "effects.txt").read_text().split()
    assert effects == [str(i) for i in range(8)]  # each step ran exactly once

    (tmp_path / "effects.txt").unlink()
    fresh = _run(tmp_path, db, str(tmp_path), "start", "t2")
    assert resumed == fresh and resumed["n"] == 8
