"""Two workers on one PostgreSQL; `kill -9` of the one in the middle of a superstep of three
parallel tool calls; the other recovers its workflow and finishes the run: the calls that
finished (recorded in the run's journal, their superstep not yet saved) are not run again, no
superstep is saved twice, and the final state equals an uninterrupted run's."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from kit import Proc, api, wait_for, worker
from langgraph_sdk import get_sync_client
from serve_kit import free_port
from support.pg import sql

FANOUT = "fanout"
ASKING = "asking"
INPUT = {"messages": [{"role": "user", "content": "go"}]}


def _calls(records: Path, thread: str) -> Counter[str]:
    log = records / "calls.log"
    lines = log.read_text().splitlines() if log.exists() else []
    return Counter(" ".join(line.split()[1:]) for line in lines if line.split()[0] == thread)


def _recorded(db: str, run_id: str) -> list[tuple[str, Any]]:
    """The run's journal: each task and save recorded, (name, output), in order."""
    rows = sql(db, "SELECT name, output FROM serve_journal WHERE run_id = ? ORDER BY seq",
               run_id)  # fmt: skip
    return [(str(name), json.loads(str(out))) for name, out in rows]


def _finished_calls(db: str, run_id: str) -> int:
    return sum(1 for name, _ in _recorded(db, run_id) if name == "agentc_task:call")


def _checkpoint_ids(db: str, thread: str) -> list[str]:
    rows = sql(db, "SELECT id FROM checkpoints WHERE thread_id = ? AND ns = '' ORDER BY seq",
               thread)  # fmt: skip
    return [str(r[0]) for r in rows]


def _normal(values: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    return [(m["type"], m["content"], [c["name"] for c in m.get("tool_calls") or []])
            for m in values["messages"]]  # fmt: skip


def _steps(db: str, thread: str) -> list[int]:
    rows = sql(db, "SELECT step FROM checkpoints WHERE thread_id = ? AND ns = '' ORDER BY seq",
               thread)  # fmt: skip
    return [int(r[0]) for r in rows]  # type: ignore[call-overload]


@contextmanager
def _two_workers(db: str, records: Path) -> Iterator[tuple[Any, dict[int, Proc]]]:
    """Two workers and an API process on `db`: an SDK client, and the workers by pid."""
    procs: list[Proc] = []
    try:
        procs += [worker(db, records, "worker-a"), worker(db, records, "worker-b")]
        procs.append(api(db, records, "api", free_port()))
        yield get_sync_client(url=procs[-1].url), {p.proc.pid: p for p in procs[:2]}
    finally:
        for p in procs:
            p.stop()


@pytest.mark.slow
@pytest.mark.parametrize("how", ["kill -9", "SIGTERM"])
def test_a_worker_killed_mid_superstep_is_finished_by_another(
    how: str, pg_url: str, tmp_path: Path
) -> None:
    records = tmp_path
    with _two_workers(pg_url, records) as (client, by_pid):
        # the killed run: wait for gate to block and for both siblings' results to be
        # recorded (steps of the workflow; the superstep is not saved yet)
        killed = client.threads.create()["thread_id"]
        run = client.runs.create(killed, FANOUT, input=INPUT)
        pid = int(wait_for(lambda: (records / f"arrived.{killed}").exists()
                           and (records / f"arrived.{killed}").read_text()))  # fmt: skip
        wait_for(lambda: _finished_calls(pg_url, run["run_id"]) >= 2)
        steps_before = _steps(pg_url, killed)
        assert steps_before == [-1, 0, 1]  # up to `plan`: the fan-out step is not saved
        if how == "kill -9":
            by_pid[pid].kill9()
        else:  # a worker told to stop leaves at once, its run still in its fan-out step
            by_pid[pid].stop()
            assert by_pid[pid].proc.returncode == 0
        (records / "release").write_text("")
        final = client.runs.join(killed, run["run_id"])

        # the same run without a kill
        calm = client.threads.create()["thread_id"]
        calm_final = client.runs.wait(calm, FANOUT, input=INPUT)

        calls = _calls(records, killed)
        assert calls["count_a end"] == 1 and calls["count_b end"] == 1  # not run again
        assert calls["gate start"] == 2 and calls["gate end"] == 1  # killed once, then done
        assert _normal(final) == _normal(calm_final)
        assert _normal(client.threads.get_state(killed)["values"]) == _normal(calm_final)
        steps = _steps(pg_url, killed)
        assert steps[: len(steps_before)] == steps_before and steps == sorted(set(steps))
        assert steps == _steps(pg_url, calm)
        assert client.runs.get(killed, run["run_id"])["status"] == "success"
        # each task and save recorded once; every save is one checkpoint, none saved twice
        recorded = _recorded(pg_url, run["run_id"])
        assert _finished_calls(pg_url, run["run_id"]) == 3
        saved = [out["saved"] for name, out in recorded if name == "agentc_checkpoint"]
        assert saved == _checkpoint_ids(pg_url, killed)


def _ask(client: Any, thread: str) -> tuple[str, dict[str, Any]]:
    """Run `asking` on the thread until it pauses (count_a and count_b done, `ask` waiting
    for its answer), then resume it with "yes"; the resumed run's id and its input."""
    paused = client.runs.wait(thread, ASKING, input=INPUT)
    assert paused["__interrupt__"][0]["value"] == {"question": "may I use 2?"}
    assert client.threads.get(thread)["status"] == "interrupted"
    run = client.runs.create(thread, ASKING, command={"resume": "yes"})
    return run["run_id"], run


@pytest.mark.slow
def test_a_worker_killed_in_a_resumed_superstep_is_finished_by_another(
    pg_url: str, tmp_path: Path
) -> None:
    """The interrupt path: a superstep of three calls pauses on the third (a person's
    review) after the other two finished; the answer resumes it, and the worker is killed
    while the resumed call runs. The other worker finishes it with the same answer, the two
    calls that finished before the pause are not run again, and the end is an undisturbed
    resume's."""
    records = tmp_path
    with _two_workers(pg_url, records) as (client, by_pid):
        killed = client.threads.create()["thread_id"]
        run_id, _ = _ask(client, killed)
        arrived = records / f"arrived.{killed}"
        pid = int(wait_for(lambda: arrived.exists() and arrived.read_text()))
        steps_before = _steps(pg_url, killed)
        by_pid[pid].kill9()
        (records / "release").write_text("")
        final = client.runs.join(killed, run_id)

        calm = client.threads.create()["thread_id"]
        calm_run, _ = _ask(client, calm)
        calm_final = client.runs.join(calm, calm_run)

        calls = _calls(records, killed)
        assert calls["count_a end"] == 1 and calls["count_b end"] == 1  # not run again
        # asked (paused), answered and killed, answered again on the other worker, done
        assert calls["ask start"] == 3 and calls["ask answered yes"] == 2
        assert calls["ask end"] == 1 and sum(calls.values()) == 4 + 3 + 2 + 1
        assert _calls(records, calm)["ask answered yes"] == 1
        assert (
            final["messages"][-1]["content"] == "done: ,a0,ask2:yes,b1"
        )  # the plan reply is empty
        assert _normal(final) == _normal(calm_final)
        assert _normal(client.threads.get_state(killed)["values"]) == _normal(calm_final)
        steps = _steps(pg_url, killed)
        assert steps[: len(steps_before)] == steps_before and steps == sorted(set(steps))
        assert steps == _steps(pg_url, calm)
        assert client.runs.get(killed, run_id)["status"] == "success"
        assert client.threads.get(killed)["status"] == "idle"
