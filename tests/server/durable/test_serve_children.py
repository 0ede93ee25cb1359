"""`agentc serve --workers N` killed with -9 (no time to stop anything) leaves no worker
running: each worker it started sees that its server is gone and leaves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kit import APP, ROOT, _answers, wait_for
from serve_kit import free_port

GONE_GUARD_S = 120.0  # hang guard only: the workers leave within a few of their checks


def _children(pid: int) -> list[int]:
    """The `agentc worker` processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid and b"agentc worker" in cmd:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its new parent to reap it has left)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
def test_workers_leave_when_their_server_is_killed(pg_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AGENTC_KILL_DIR": str(tmp_path)}
    argv = [sys.executable, "-m", "agentc", "serve", str(APP), "--db", pg_url,
            "--workers", "2", "--port", str(port)]  # fmt: skip
    with (tmp_path / "serve.log").open("wb") as log:
        server = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    workers: list[int] = []
    try:
        wait_for(lambda: _answers(f"http://127.0.0.1:{port}"))
        wait_for(lambda: (tmp_path / "serve.log").read_text().count("taking runs from") == 2)
        workers = _children(server.pid)
        assert len(workers) == 2
        os.kill(server.pid, signal.SIGKILL)  # the server only, not its process group
        server.wait(timeout=30)
        deadline = time.monotonic() + GONE_GUARD_S
        while any(_alive(w) for w in workers):
            assert time.monotonic() < deadline, "hang guard: a worker outlived its server"
            time.sleep(0.1)
    finally:
        if server.poll() is None:
            server.kill()
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
