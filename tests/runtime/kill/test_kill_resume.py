"""F11 kill-and-resume: a subprocess runs a graph with megabytes of state per step on SQLite
or PostgreSQL (the same suite, parametrised) and is SIGKILLed at a random point (seeded); a
second process resumes the thread to its end. Every node appends a line to a side file when
it starts (what ran), so a step is known to have completed before the kill when a later step
started.

The bound checked (and stated in docs): under `sync` no completed step runs again; under
`async` at most one does, the last one completed before the kill (its checkpoint may still
have been in the writer's hands: a run keeps at most one save in flight); the step that was
running at the kill runs again in either mode. The resumed run's final state equals an
uninterrupted run's. Two graphs: a chain of one task per step with a 4 MB value (the writer
lags behind the steps), and a loop whose every other step has three parallel tasks.

A handful of trials run by default; `pytest -m slow` runs many more (CI does).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.pg import DURABLE, Durable, sql

HANG_GUARD = 60  # seconds per process: a hang becomes a failure, never a speed bound
STEPS = 16  # chain: steps of `work`
ROUNDS = 6  # wide: rounds of plan + three parts
PARTS = 3

GRAPH = """
use "./nodes.py" as nodes

graph chain {
  state {
    n: int = 0
    blob: str = ""
    log: list[int] = [] reduce append
  }
  node work = python(nodes.work)
  edge START -> work
  edge work -> work when nodes.more
  edge work -> END otherwise
  limits { steps: 1000 }
  checkpoint {line}
}

graph wide {
  state {
    n: int = 0
    parts: map[str] = {} reduce merge
    log: list[str] = [] reduce append
  }
  node plan = python(nodes.plan)
  node part = python(nodes.part)
  edge START -> plan
  route plan by nodes.fan { none -> END }
  edge part -> plan
  limits { steps: 1000 }
  checkpoint {line}
}
"""

NODES = textwrap.dedent(f"""
    import os, time
    from agentc.runtime import Send
    HERE = os.path.dirname(__file__)
    STEPS, ROUNDS, PARTS = {STEPS}, {ROUNDS}, {PARTS}

    def ran(ordinal, what):
        # one write() of one line, before the work: a SIGKILL right after it still leaves
        # the line in the file (the page cache outlives the process)
        fd = os.open(os.path.join(HERE, "ran.txt"), os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, f"{{ordinal}} {{what}}\\n".encode())
        finally:
            os.close(fd)

    def blob(tag, size):
        return f"{{tag:>15}}|" * (size // 16)

    def work(state):
        n = state["n"]
        ran(n, f"work{{n}}")
        time.sleep(0.003)
        return {{"n": n + 1, "blob": blob(n, 4 << 20), "log": [n]}}

    def more(state):
        return state["n"] < STEPS

    def plan(state):
        ran(2 * state["n"], f"plan{{state['n']}}")
        return None

    def fan(state):
        r = state["n"]
        return [Send("part", [r, i]) for i in range(PARTS)] if r < ROUNDS else []

    def part(arg):
        r, i = arg
        ran(2 * r + 1, f"part{{r}}.{{i}}")
        time.sleep(0.003 * (i + 1))
        out = {{"parts": {{str(i): blob(f"{{r}}.{{i}}", 1 << 20)}}, "log": [f"{{r}}.{{i}}"]}}
        return {{**out, "n": r + 1}} if i == 0 else out
""")

DRIVER = textwrap.dedent("""
    import hashlib, json, sys
    from agentc.api import load_agent
    from agentc.runtime import Durability, RunConfig
    name, durability, path = sys.argv[1], sys.argv[2], sys.argv[3]
    graph = load_agent(path, name)
    config = RunConfig(thread_id="T")
    state = graph.get_state(config)
    if state is not None and not state.next:  # killed after its end: nothing to resume
        out = state.values
    else:
        out = graph.invoke({} if state is None else None, config,
                           durability=Durability(durability))
    big = out.get("blob") or json.dumps(out.get("parts"), sort_keys=True)
    print(json.dumps({"n": out["n"], "log": out["log"],
                      "big": hashlib.sha256(big.encode()).hexdigest()}))
""")


@dataclass(frozen=True)
class Trial:
    killed: bool
    completed: int  # steps that completed before the kill
    rerun_completed: tuple[int, ...]  # of those, the ones that ran again after resume
    in_flight: int  # the step running at the kill (its ordinal)


def _setup(tmp: Path, line: str) -> None:
    (tmp / "graph.agent").write_text(GRAPH.replace("{line}", line))
    (tmp / "nodes.py").write_text(NODES)
    (tmp / "driver.py").write_text(DRIVER)


def _cmd(tmp: Path, name: str, durability: str) -> list[str]:
    return [sys.executable, str(tmp / "driver.py"), name, durability, str(tmp / "graph.agent")]


def _ran(tmp: Path) -> list[tuple[int, str]]:
    path = tmp / "ran.txt"
    if not path.exists():
        return []
    lines = [line.split() for line in path.read_text().splitlines()]
    return [(int(o), w) for o, w in lines]


def _expected(name: str) -> dict:
    """An uninterrupted run's result, computed here (not by agentc)."""
    import hashlib

    def blob(tag, size):
        return f"{tag:>15}|" * (size // 16)

    if name == "chain":
        log: list = list(range(STEPS))
        big = blob(STEPS - 1, 4 << 20)
        n = STEPS
    else:
        log = [f"{r}.{i}" for r in range(ROUNDS) for i in range(PARTS)]
        big = json.dumps(
            {str(i): blob(f"{ROUNDS - 1}.{i}", 1 << 20) for i in range(PARTS)}, sort_keys=True
        )
        n = ROUNDS
    return {"n": n, "log": log, "big": hashlib.sha256(big.encode()).hexdigest()}


def _trial(tmp: Path, name: str, durability: str, rng: random.Random, env: dict) -> Trial:
    """One run killed after a random number of started tasks plus a random delay, then
    resumed; returns what ran twice."""
    total = STEPS if name == "chain" else ROUNDS * (PARTS + 1)
    kill_after = rng.randint(1, total - 1)
    delay = rng.uniform(0, 0.03)
    proc = subprocess.Popen(
        _cmd(tmp, name, durability), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    deadline = time.monotonic() + HANG_GUARD
    while len(_ran(tmp)) < kill_after and proc.poll() is None:
        assert time.monotonic() < deadline, "the first run hung"
        time.sleep(0.002)
    time.sleep(delay)
    killed = proc.poll() is None
    if killed:
        os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=HANG_GUARD)
    assert killed or proc.returncode == 0, proc.returncode
    before = _ran(tmp)
    if "AGENTC_TEST_DB" in env:  # PostgreSQL drops the dead run's claim a moment later
        _no_claims_left(env["AGENTC_TEST_DB"])

    resumed = subprocess.run(
        _cmd(tmp, name, durability), capture_output=True, text=True, timeout=HANG_GUARD, env=env
    )
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout) == _expected(name)  # the final state is right
    after = _ran(tmp)[len(before) :]
    assert len({w for _, w in after}) == len(after)  # the resumed run ran each task once
    ran = {w for _, w in before} | {w for _, w in after}
    assert len(ran) == (STEPS if name == "chain" else total + 1)  # every task ran (plan+1)

    in_flight = max(o for o, _ in before) if before else -1
    rerun = tuple(sorted({o for o, _ in after if o < in_flight}))
    return Trial(killed, len({o for o, _ in before if o < in_flight}), rerun, in_flight)


def _no_claims_left(url: str) -> None:
    """Wait until the server has seen the killed process's connections close (its thread
    claim, an advisory lock, goes with them)."""
    deadline = time.monotonic() + HANG_GUARD
    held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
    while sql(url, held) != [(0,)]:
        assert time.monotonic() < deadline, "the killed run's claim was never dropped"
        time.sleep(0.01)


def _trials(
    tmp_path: Path, name: str, durability: str, count: int, kind: str, request
) -> list[Trial]:
    rng = random.Random(f"{name}-{durability}-{count}")
    out = []
    for k in range(count):
        where = tmp_path / f"trial{k}"
        where.mkdir()
        saved = (  # each trial on a fresh file or schema
            Durable(kind, str(where / ".agentc" / "state.db"))
            if kind == "sqlite"
            else Durable(kind, request.getfixturevalue("pg_cluster").fresh_url())
        )
        _setup(where, saved.line)
        out.append(_trial(where, name, durability, rng, saved.env()))
    killed = [t for t in out if t.killed]
    print(
        f"\n{kind} {name}/{durability}: {len(killed)} of {count} killed; completed steps "
        f"before the kill {sum(t.completed for t in killed)}; completed steps run again "
        f"{sum(len(t.rerun_completed) for t in killed)} "
        f"(per trial {[len(t.rerun_completed) for t in killed]})"
    )
    return out


def _check(trials: list[Trial], durability: str) -> None:
    assert any(t.killed for t in trials)  # the suite killed something
    for t in trials:
        if durability == "sync":
            assert t.rerun_completed == (), t  # F11 sync: no completed step runs again
        else:  # F11 async: at most the last completed step (its save was in flight)
            assert t.rerun_completed in ((), (t.in_flight - 1,)), t


CASES = [(g, d) for g in ("chain", "wide") for d in ("sync", "async")]


@pytest.mark.parametrize("kind", DURABLE)  # a killed process keeps nothing in memory
@pytest.mark.parametrize(("name", "durability"), CASES)
def test_F11_kill_at_random_points_and_resume(tmp_path, request, name, durability, kind):
    _check(_trials(tmp_path, name, durability, 2, kind, request), durability)


@pytest.mark.slow
@pytest.mark.parametrize("kind", DURABLE)
@pytest.mark.parametrize(("name", "durability"), CASES)
def test_F11_kill_at_random_points_and_resume_many(tmp_path, request, name, durability, kind):
    _check(_trials(tmp_path, name, durability, 15, kind, request), durability)
