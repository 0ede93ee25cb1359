"""Starting and stopping the real `agentc serve` for the server tests (a subprocess on 127.0.0.1).

`served` is `python -m agentc serve tests/server/app/serve_app.agent` on a free port with
its threads in a SQLite file of the session's temp dir; `guarded` is the same file served
with an API key, one CORS origin and a small body limit. Each is started once per session
and stopped at its end (SIGTERM to its own process group, then SIGKILL). The scripted
models cycle, so every thread gets the same answers — as long as each test that pauses
a run resumes it, and cancels only `looping` (whose script is one reply).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from support.procs import free_port, stop

APP = Path(__file__).resolve().parent / "app" / "serve_app.agent"
ROOT = Path(__file__).resolve().parents[2]
READY_S = 60.0  # hang guard: a server that has not answered /ok by then failed
KEY = "test-key-0123456789"
ORIGIN = "http://ui.example"
MAX_BODY = 4096


def needs_serve() -> None:
    """Skip, naming what is missing, when the server's packages are not installed."""
    pytest.importorskip("starlette", reason="agentc serve needs starlette (the serve extra)")
    pytest.importorskip("uvicorn", reason="agentc serve needs uvicorn (the serve extra)")


@dataclass(frozen=True)
class Served:
    url: str
    log: Path

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-40:])


def start(
    workdir: Path, *extra: str, name: str = "serve"
) -> tuple[subprocess.Popen[bytes], Served]:
    workdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = workdir / f"{name}.log"
    argv = [sys.executable, "-m", "agentc", "serve", str(APP), "--port", str(port), *extra]
    env = {k: v for k, v in os.environ.items() if k != "AGENTC_API_KEY"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            argv, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    served = Served(url, log)
    deadline = time.monotonic() + READY_S
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"agentc serve exited {proc.returncode}:\n{served.tail()}")
        try:
            if httpx.get(url + "/ok", timeout=2).status_code == 200:
                return proc, served
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            stop(proc)
            raise RuntimeError(f"agentc serve did not answer /ok in {READY_S} s:\n{served.tail()}")
        time.sleep(0.2)
