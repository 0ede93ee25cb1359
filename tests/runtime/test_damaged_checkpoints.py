"""Damaged saved state (issue 12, items 6 and 19): a checkpoint file or row that is not what
agentc wrote — an edited row, a parent chain that loops, a truncated or garbage database —
is one clear error, `DamagedCheckpointError` (`error[damaged-checkpoint]`), naming the
thread, the file and the checkpoint; never a raw library error, never an endless walk.

The files are real SQLite files, edited with `sqlite3` as a user (or a disk) would. The
tests whose unfixed failure is an endless walk run in a subprocess: its timeout is only a
hang guard (its expiry is the failure)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support.graphs import agent_graph
from support.pg import DURABLE, Durable, durable

from agentc.runtime import (
    DamagedCheckpointError,
    MemoryCheckpointer,
    RunConfig,
    SqliteCheckpointer,
)

T = RunConfig(thread_id="t")
HANG_GUARD = 120  # seconds; a run that walks a looping chain never ends
GRAPHS = Path(__file__).parent / "graphs"
ROOT = Path(__file__).resolve().parents[2]


def _chat(checkpointer):
    return agent_graph("checkpoint", "chat", checkpointer=checkpointer)


def _saved(tmp_path) -> str:
    """A real SQLite file holding one finished conversation on thread `t`."""
    path = str(tmp_path / "state.db")
    store = SqliteCheckpointer(path)
    _chat(store).invoke({"messages": ["hi"], "rounds": 1}, T)
    store.close()
    return path


@pytest.fixture(params=DURABLE)
def saved(request, tmp_path) -> Durable:
    """A SQLite file or a PostgreSQL schema holding one finished conversation on `t`."""
    where = durable(request.param, request, str(tmp_path / "state.db"))
    store = where.open()
    _chat(store).invoke({"messages": ["hi"], "rounds": 1}, T)
    store.close()
    return where


def _edit(path: str, sql: str, *args) -> None:
    conn = sqlite3.connect(path)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


def _rows(saved: Durable | str) -> list[tuple[int, str, str | None, str]]:
    sql = "SELECT seq, id, parent_id, data FROM checkpoints ORDER BY seq"
    return Durable("sqlite", saved).sql(sql) if isinstance(saved, str) else saved.sql(sql)


def _every_reader(saved: Durable) -> list[DamagedCheckpointError]:
    """Resume, read the state and read the history of thread `t`: each must refuse."""
    errors = []
    store = saved.open()
    g = _chat(store)
    try:
        for read in (
            lambda: g.invoke({"messages": ["again"], "n": 0}, T),
            lambda: g.get_state(T),
            lambda: g.get_state_history(T),
        ):
            with pytest.raises(DamagedCheckpointError) as info:
                read()
            errors.append(info.value)
    finally:
        store.close()
    return errors


def _latest_with(saved: Durable, fn) -> str:
    """Rewrite the data of the newest checkpoint row with `fn(decoded JSON)` → new text."""
    seq, cid, _, data = _rows(saved)[-1]
    saved.sql("UPDATE checkpoints SET data=? WHERE seq=?", fn(json.loads(data)), seq)
    return cid


# ---------------------------------------------------------------- item 19: damaged rows


def _bad_json(d):
    return json.dumps(d)[:40]


def _missing_key(d):
    del d["deltas"]
    return json.dumps(d)


def _tuple_without_items(d):
    d["deltas"]["messages"] = ["s", {"__agentc__": "tuple"}]
    return json.dumps(d)


def _deep(d):
    d["deltas"]["messages"] = ["s", "__DEEP__"]
    depth = 100_000
    return json.dumps(d).replace('"__DEEP__"', "[" * depth + "]" * depth)


def _not_an_object(d):
    return "5"


def _bad_source(d):
    d["source"] = "nonsense"
    return json.dumps(d)


@pytest.mark.parametrize(
    "damage,what",
    [
        (_bad_json, "not valid JSON"),
        (_missing_key, "lacks the key 'deltas'"),
        (_tuple_without_items, "lacks the key 'items'"),
        (_deep, "nested too deeply"),
        (_not_an_object, "not what agentc saves"),
        (_bad_source, "not what agentc saves"),
    ],
    ids=["bad-json", "missing-key", "tuple-without-items", "100000-deep", "not-an-object", "enum"],
)
def test_a_damaged_row_is_one_clear_error(saved, damage, what):
    cid = _latest_with(saved, damage)
    for err in _every_reader(saved):
        assert err.code == "damaged-checkpoint"
        text = str(err)
        assert text.startswith("error[damaged-checkpoint]: the saved state of thread `t` in ")
        assert saved.where in text and f"(checkpoint {cid})" in text and what in text, text


def test_a_row_whose_data_names_another_parent_is_damaged(saved):
    _, cid, _, _ = _rows(saved)[-1]
    _latest_with(saved, lambda d: json.dumps({**d, "parent": d["id"]}))
    err = _every_reader(saved)[0]
    assert f"(checkpoint {cid})" in str(err) and "but its data names" in str(err)


def test_a_damaged_pending_write_is_one_clear_error(saved):
    _, cid, _, _ = _rows(saved)[-1]
    saved.sql(
        "INSERT INTO writes (thread_id, ns, checkpoint_id, task_id, kind, data) "
        "VALUES ('t', '', ?, 'x', 'result', '{\"goto\": []}')",
        cid,
    )
    store = saved.open()
    try:
        with pytest.raises(DamagedCheckpointError, match="pending write .* lacks the key 'writes'"):
            _chat(store).get_state(T)
    finally:
        store.close()


def test_a_missing_parent_is_damaged_not_a_key_error(saved):
    rows = _rows(saved)
    saved.sql("DELETE FROM checkpoints WHERE seq=?", rows[-2][0])
    err = _every_reader(saved)[0]
    assert f"its parent checkpoint {rows[-2][1]} is missing" in str(err)


def _garbage_middle(path: str) -> None:
    data = Path(path).read_bytes()
    Path(path).write_bytes(data[:4096] + os.urandom(len(data) - 4096))


def _truncated(path: str) -> None:
    data = Path(path).read_bytes()
    Path(path).write_bytes(data[: len(data) // 3 + 100])


def _all_garbage(path: str) -> None:
    Path(path).write_bytes(b"not a database at all\n" * 500)


@pytest.mark.parametrize("damage", [_garbage_middle, _truncated, _all_garbage])
def test_a_damaged_database_file_is_one_clear_error(tmp_path, damage):
    path = _saved(tmp_path)
    assert not os.path.exists(path + "-wal")  # closed: everything is in the file itself
    damage(path)
    with pytest.raises(DamagedCheckpointError) as info:
        store = SqliteCheckpointer(path)
        try:
            g = _chat(store)
            g.get_state_history(T)
            g.invoke({"messages": ["again"], "n": 0}, T)
        finally:
            store.close()
    text = str(info.value)
    assert text.startswith("error[damaged-checkpoint]: the saved state") and path in text
    assert "database" in text  # SQLite's own words, inside our paragraph


# ---------------------------------------------------------------- item 6: looping parents


def _run_python(code: str, tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


@pytest.mark.parametrize("loop", ["self", "two"])
def test_a_looping_parent_chain_ends_in_a_clear_error_via_the_cli(tmp_path, loop):
    """`agentc run --thread t` on a file whose newest checkpoint is its own parent (or two
    checkpoints that are each other's parents) stops with the error, at once."""
    for name in ("checkpoint.agent", "nodes.py"):
        shutil.copy(GRAPHS / name, tmp_path / name)
    cli = [sys.executable, "-m", "agentc", "run", "checkpoint.agent", "--agent", "chat"]
    first = [*cli, "--input", '{"messages": ["hi"], "rounds": 1}', "--thread", "t", "--json"]
    env = {**os.environ, "AGENTC_NO_IR_CACHE": "1"}
    done = subprocess.run(
        first, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert done.returncode == 0, done.stderr
    path = str(tmp_path / ".agentc" / "state.db")
    rows = _rows(path)
    last, before = rows[-1], rows[-2]
    if loop == "self":
        _edit(path, "UPDATE checkpoints SET parent_id=id WHERE seq=?", last[0])
    else:
        _edit(path, "UPDATE checkpoints SET parent_id=? WHERE seq=?", last[1], before[0])
    again = subprocess.run(
        [*cli, "--input", '{"messages": ["more"], "n": 0}', "--thread", "t"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )
    assert again.returncode == 1
    err = again.stderr.strip()
    assert err.startswith("error[damaged-checkpoint]: the saved state of thread `t` in "), err
    assert "Traceback" not in err and len(err.splitlines()) == 1
    if loop == "self":
        assert f"(checkpoint {last[1]}): it names itself as its parent" in err
    else:
        assert f"its parent chain loops back to checkpoint {last[1]}" in err


def test_a_looping_chain_in_memory_ends_in_a_clear_error(tmp_path):
    """The in-memory checkpointer walks parents too: a checkpoint put as its own parent."""
    done = _run_python(
        """
        from dataclasses import replace
        from support.graphs import agent_graph
        from agentc.runtime import DamagedCheckpointError, MemoryCheckpointer, RunConfig
        T = RunConfig(thread_id="t")
        store = MemoryCheckpointer()
        g = agent_graph("checkpoint", "chat", checkpointer=store)
        g.invoke({"messages": ["hi"], "rounds": 1}, T)
        last = store.list("t", "")[-1]
        store.put("t", "", replace(last, parent_id=last.id))
        for read in (g.get_state, g.get_state_history):
            try:
                read(T)
            except DamagedCheckpointError as e:
                print(e)
            else:
                print("no error")
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2, done.stdout
    for line in lines:
        assert line.startswith("error[damaged-checkpoint]: the saved state of thread `t` in memory")
        assert "it names itself as its parent" in line


def test_history_of_a_sqlite_chain_that_loops_ends(saved, tmp_path):
    """get_state_history over a file with a loop deeper in the chain (not at its head)."""
    rows = _rows(saved)
    saved.sql("UPDATE checkpoints SET parent_id=? WHERE seq=?", rows[-2][1], rows[1][0])
    done = _run_python(
        f"""
        from support.graphs import agent_graph
        from support.pg import Durable
        from agentc.runtime import DamagedCheckpointError, RunConfig
        store = Durable({saved.kind!r}, {saved.target!r}).open()
        g = agent_graph("checkpoint", "chat", checkpointer=store)
        try:
            g.get_state_history(RunConfig(thread_id="t"))
        except DamagedCheckpointError as e:
            print(e)
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "error[damaged-checkpoint]" in done.stdout
    assert "loops back to checkpoint" in done.stdout or "but its data names" in done.stdout


def test_a_good_thread_still_walks_its_whole_chain():
    store = MemoryCheckpointer()
    g = _chat(store)
    g.invoke({"messages": ["hi"], "rounds": 1}, T)
    history = g.get_state_history(T)
    assert len(history) == 5 and history[-1].parent_checkpoint_id is None


# ---------------------------------------------------------------- item 4: a failed save


class _FillsUp(SqliteCheckpointer):
    """A real SQLite file whose disk fills at the 5th checkpoint and is freed right after
    the first save that failed: SQLite's own `max_page_count` makes the insert fail with
    its real "database or disk is full" (SQLITE_FULL)."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.puts = 0
        self.failures = 0

    def put(self, thread_id, ns, checkpoint):
        self.puts += 1
        if self.puts == 5:  # the disk is full from here on
            pages = self._conn.execute("PRAGMA page_count").fetchone()[0]
            self._conn.execute(f"PRAGMA max_page_count={pages}")
        try:
            super().put(thread_id, ns, checkpoint)
        except Exception:
            self.failures += 1
            self._conn.execute("PRAGMA max_page_count=1073741823")  # space is freed again
            raise


@pytest.mark.parametrize("durability", ["async", "sync"])
def test_a_failed_save_stops_saving_and_the_thread_resumes(tmp_path, durability):
    """Issue 12 item 4: under async durability a failed background save was followed by
    later saves, leaving a checkpoint whose parent was never written (every later run of
    the thread failed). Now saving stops at the failure, the run ends with one clear error,
    and the thread resumes from its last good checkpoint."""
    from agentc.runtime import CheckpointWriteError, Durability

    path = str(tmp_path / "state.db")
    store = _FillsUp(path)
    g = _chat(store)
    big = "x" * 2000  # each message once in the file: the pages fill within a few steps
    with pytest.raises(CheckpointWriteError) as info:
        g.invoke({"messages": [big], "rounds": 60}, T, durability=Durability(durability))
    store.close()
    assert store.failures == 1  # the first failure stopped every later save
    text = str(info.value)
    assert info.value.code == "checkpoint-write-failed"
    assert "database or disk is full" in text and "thread `t`" in text and path in text

    # the chain in the file is whole: every parent was written
    rows = _rows(path)
    ids = {r[1] for r in rows}
    assert 4 <= len(rows) < 120 and all(r[2] is None or r[2] in ids for r in rows)

    again = SqliteCheckpointer(path)
    try:
        g2 = _chat(again)
        assert g2.get_state(T).next  # the last good checkpoint, with its step still to run
        out = g2.invoke(None, T)  # resume: the rest of the conversation runs
        assert out["n"] == 60 and out["messages"][0].text == big
        history = g2.get_state_history(T)
        assert history[-1].parent_checkpoint_id is None
    finally:
        again.close()


class _NoSpace(MemoryCheckpointer):
    """A checkpointer whose 5th save fails as a full disk fails (ENOSPC), and whose later
    saves would succeed (space freed): without the fix they left a gap in the chain."""

    def __init__(self) -> None:
        super().__init__()
        self.puts = 0

    def put(self, thread_id, ns, checkpoint):
        self.puts += 1
        if self.puts == 5:
            raise OSError(28, "No space left on device")
        super().put(thread_id, ns, checkpoint)


def test_a_checkpointer_that_fails_with_an_os_error_is_one_clear_error():
    from agentc.runtime import CheckpointWriteError

    store = _NoSpace()
    g = _chat(store)
    with pytest.raises(CheckpointWriteError) as info:
        g.invoke({"messages": ["hi"], "rounds": 10}, T)  # async: the API's default
    text = str(info.value)
    assert text.startswith("error[checkpoint-write-failed]: could not save thread `t`: ")
    assert "No space left on device [OSError]" in text and "resumes from its last saved" in text
    saved = store.list("t", "")
    assert len(saved) == 4  # nothing after the failed save
    out = g.invoke(None, T)
    assert out["n"] == 10 and len(g.get_state_history(T)) > 4
