"""shell_tool's sandbox limits (D17): each limit is hit by a real command in a real bwrap,
the model is told which limit, the host is unchanged, and temporary workspaces go away."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from support.mwkit import agent, ask, call, reply

from agentc.stdlib.middleware.binding import MiddlewareSetupError

needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is not installed"
)


def answers(tmp_path: Path, commands: list[str], settings: str = "") -> list[str]:
    """Run an agent whose script runs `commands` in turn; the tool answers."""
    turns = [reply("", call("shell", {"command": c}, f"c{i}")) for i, c in enumerate(commands)]
    a = agent(tmp_path, replies_=[*turns, "done"], middleware=f"shell_tool {{ {settings} }}")
    result = a.invoke(ask())
    return [m.content for m in result["messages"] if m.type == "tool"]


def answer(tmp_path: Path, command: str, settings: str = "") -> str:
    [only] = answers(tmp_path, [command], settings)
    return only


def host_processes(word: str) -> list[str]:
    """Host processes whose command line holds `word` (a sandbox's leftovers)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if word.encode() in cmdline:
            found.append(pid)
    return found


def gone(word: str) -> bool:
    """Whether no host process holds `word` within 30 s (the kernel kills a dead sandbox's
    processes asynchronously; a hang guard, not a speed bound)."""
    deadline = time.monotonic() + 30
    while host_processes(word) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not host_processes(word)


@needs_bwrap
def test_D17_processes_are_bounded(tmp_path):
    text = answer(
        tmp_path,
        "for i in $(seq 100); do sleep 987.5 & done; echo started",
        'workspace_root: "ws", max_processes: 20, timeout: 5s',
    )
    assert "sandbox limit: the sandbox allows 20 processes at once (`max_processes`)" in text
    assert gone("987.5")  # the command and its children are killed with the sandbox


@needs_bwrap
def test_D17_memory_is_bounded(tmp_path):
    text = answer(tmp_path, 'python3 -c "b = bytearray(3 * 1024**3); print(len(b))"')
    assert "MemoryError" in text and "3221225472" not in text
    assert "may use 1024 MB of memory (`max_memory_mb`)" in text


@needs_bwrap
def test_D17_file_size_is_bounded_on_the_host_disk(tmp_path):
    text = answer(
        tmp_path, "head -c 200M /dev/zero > big", 'workspace_root: "ws", max_file_size_mb: 10'
    )
    assert (tmp_path / "ws" / "big").stat().st_size <= 10 * 1024 * 1024
    assert "may not grow past 10 MB (`max_file_size_mb`)" in text


@needs_bwrap
def test_D17_tmp_is_bounded(tmp_path):
    text = answer(
        tmp_path, "head -c 100M /dev/zero > /tmp/fill; du -m /tmp/fill", "tmp_size_mb: 16"
    )
    assert "No space left on device" in text
    assert "/tmp holds 16 MB (`tmp_size_mb`)" in text
    assert int(text.split("\n")[1].split()[0]) <= 16


@pytest.mark.parametrize("where", ["sandbox", "host"])
def test_D17_output_is_streamed_and_the_command_stopped_at_the_cut(tmp_path, where):
    if where == "sandbox" and shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed")
    text = answer(
        tmp_path,
        "head -c 300M /dev/zero | tr '\\0' x; touch finished",
        f'execution: "{where}", workspace_root: "ws", max_output_chars: 1000',
    )
    assert text == "x" * 1000 + "\n[output cut at 1000 characters: the command was stopped there]"
    assert not (tmp_path / "ws" / "finished").exists()  # it never ran to its end


@needs_bwrap
def test_D17_temporary_workspace_is_removed_when_the_agent_ends(tmp_path):
    [mounts] = answers(tmp_path, ["echo hi > note; grep ' /workspace ' /proc/self/mountinfo"])
    host_path = Path(mounts.split()[3])  # mountinfo's 4th field: the folder on its disk
    assert host_path.name.startswith("agentc-") and str(tmp_path) not in mounts
    assert not host_path.exists()


def test_D17_named_workspace_is_never_removed(tmp_path):
    answers(tmp_path, ["echo hi > note"], 'execution: "host", workspace_root: "ws"')
    assert (tmp_path / "ws" / "note").read_text() == "hi\n"


def test_D17_host_temporary_workspace_is_removed_too(tmp_path):
    [where] = answers(tmp_path, ["pwd"], 'execution: "host"')
    assert Path(where.strip()).name.startswith("agentc-")
    assert not Path(where.strip()).exists()


def test_D17_a_limit_below_one_is_refused_where_it_is_set(tmp_path):
    with pytest.raises(MiddlewareSetupError) as caught:
        answer(tmp_path, "true", "max_processes: 0")
    assert "t.agent:7:5" in str(caught.value)
    assert "`max_processes` must be a whole number of at least 1, found 0" in str(caught.value)
