"""Real processes for the durable-run tests: `agentc worker` and `agentc serve --durable`
on one PostgreSQL schema, each in its own process group (so `kill -9` reaches only it),
with the tools' record folder in `AGENTC_KILL_DIR`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

APP = Path(__file__).resolve().parent / "app" / "fanout.agent"
ROOT = Path(__file__).resolve().parents[3]
READY_S = 90.0  # hang guard only
HEARTBEAT_S = "0.3"  # a killed worker's runs move after 5 silent beats


@dataclass
class Proc:
    proc: subprocess.Popen[bytes]
    log: Path
    url: str = ""

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])

    def kill9(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill9()


def _env(db: str, records: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "AGENTC_API_KEY"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return {**env, "AGENTC_DB": db, "AGENTC_KILL_DIR": str(records)}


def _spawn(argv: list[str], db: str, records: Path, name: str) -> Proc:
    log = records / f"{name}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "agentc", *argv], cwd=records, env=_env(db, records),
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    return Proc(proc, log)


def worker(db: str, records: Path, name: str) -> Proc:
    p = _spawn(["worker", str(APP), "--heartbeat", HEARTBEAT_S], db, records, name)
    _until(p, lambda: "taking runs from" in p.log.read_text(errors="replace"))
    return p


def api(db: str, records: Path, name: str, port: int) -> Proc:
    argv = ["serve", str(APP), "--durable", "--db", db, "--port", str(port)]
    p = _spawn(argv, db, records, name)
    p.url = f"http://127.0.0.1:{port}"
    _until(p, lambda: _answers(p.url))
    return p


def _answers(url: str) -> bool:
    try:
        return httpx.get(url + "/ok", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _until(p: Proc, ready) -> None:  # noqa: ANN001
    deadline = time.monotonic() + READY_S
    while not ready():
        if p.proc.poll() is not None:
            raise RuntimeError(f"exited {p.proc.returncode}:\n{p.tail()}")
        if time.monotonic() > deadline:
            p.stop()
            raise RuntimeError(f"not ready in {READY_S} s:\n{p.tail()}")
        time.sleep(0.1)


def wait_for(what, guard_s: float = READY_S):  # noqa: ANN001, ANN201
    """Poll until `what()` is truthy (an event in a file or a table); the guard turns a hang
    into a failure and is not what the test waits for."""
    deadline = time.monotonic() + guard_s
    while not (got := what()):
        assert time.monotonic() < deadline, "hang guard: the awaited event never came"
        time.sleep(0.02)
    return got
