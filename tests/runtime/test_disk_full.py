"""A real full disk: the SQLite checkpointer on a small tmpfs that fills up mid-run.

The run ends with one clear error (`checkpoint-write-failed`), the saved chain has no
checkpoint whose parent is missing (in both durability modes: under `async` a failed
background save once let later saves through), and once space is freed the thread resumes
from its last good checkpoint and finishes. Needs a filesystem that really fills up:
mounting a tmpfs needs root (CI runs as root); elsewhere the test says why it is skipped.
"""

from __future__ import annotations

import sqlite3
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.graphs import agent_graph

from agentc.runtime import CheckpointWriteError, Durability, RunConfig, SqliteCheckpointer

T = RunConfig(thread_id="t")


def _mount(where: Path, size: str, *options: str) -> subprocess.CompletedProcess[bytes]:
    opts = ",".join((*options, f"size={size}"))
    return subprocess.run(
        ["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(where)], capture_output=True
    )


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    where.mkdir()
    done = _mount(where, "160k")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _grow(where: Path) -> None:
    """Free space: the same filesystem, remounted larger (the file stays where it is)."""
    done = _mount(where, "64m", "remount")
    assert done.returncode == 0, done.stderr


def _chain_is_whole(path: str) -> int:
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT id, parent_id FROM checkpoints").fetchall()
    conn.close()
    ids = {r[0] for r in rows}
    assert all(parent is None or parent in ids for _, parent in rows), "a parent is missing"
    return len(rows)


@pytest.mark.parametrize("durability", ["sync", "async"])
def test_a_full_disk_ends_the_run_cleanly_and_the_thread_resumes(small_disk, durability):
    path = str(small_disk / "state.db")
    store = SqliteCheckpointer(path)
    big = "x" * 6000  # each step's new message fills pages: the 160 KB disk fills quickly
    with pytest.raises(CheckpointWriteError) as info:
        agent_graph("checkpoint", "chat", checkpointer=store).invoke(
            {"messages": [big], "rounds": 60}, T, durability=Durability(durability)
        )
    store.close()
    assert info.value.code == "checkpoint-write-failed"
    assert "thread `t`" in str(info.value) and "full" in str(info.value)
    saved = _chain_is_whole(path)
    assert saved >= 2  # some steps were saved before the disk filled

    _grow(small_disk)
    again = SqliteCheckpointer(path)
    try:
        g = agent_graph("checkpoint", "chat", checkpointer=again)
        assert g.get_state(T).next  # the last good checkpoint, its next step still to run
        out = g.invoke(None, T)
        assert out["n"] == 60 and out["messages"][0].text == big
    finally:
        again.close()
    assert _chain_is_whole(path) > saved
