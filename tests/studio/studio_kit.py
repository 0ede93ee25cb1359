"""Helpers for the studio tests: a real `agentc studio` (or `agentc serve`) subprocess on a
free port of 127.0.0.1, answering `/ok`, and where screenshots go.

`start` runs `python -m agentc COMMAND FILE --db memory://` (default
examples/human_review.agent, whose scripted model keeps a count of its replies, so every
test gets a fresh server and the first reply again); `stop` ends its process group.
Screenshots go to `$AGENTC_ARTIFACTS/studio/` (default `tmp/`). `COUNTING` is an agent
whose scripted model reports token usage and whose tool runs without a review (for the
trace panel). The fixtures that use these are in `conftest.py`; the tests import from here
(a module named `conftest` would be whichever folder's conftest Python loaded first).
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

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "human_review.agent"
CHROMIUM = Path("/usr/bin/chromium")
READY_S = 60.0  # hang guard: a server that has not answered /ok by then failed
COUNTING = """agentc 1
use "./tools.py" as tools

agent counting {
  model "scripted" {
    replies: [
      { tool_calls: [{ name: "add", args: { a: 2, b: 3 }, id: "c1" }],
        usage: { input_tokens: 12, output_tokens: 3 } },
      { content: "The answer is 5.", usage: { input_tokens: 20, output_tokens: 4 } },
    ],
  }
  tools [tools.add]
  checkpoint memory
}
"""


@dataclass(frozen=True)
class Studio:
    url: str  # the server's root; the page is at url + "/studio/"
    log: Path

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-40:])


def artifacts() -> Path:
    out = Path(os.environ.get("AGENTC_ARTIFACTS") or (ROOT / "tmp")) / "studio"
    out.mkdir(parents=True, exist_ok=True)
    return out


def _wait_ready(proc: subprocess.Popen[bytes], studio: Studio) -> None:
    deadline = time.monotonic() + READY_S
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"agentc studio exited {proc.returncode}:\n{studio.tail()}")
        try:
            if httpx.get(studio.url + "/ok", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"agentc studio did not answer /ok in {READY_S} s:\n{studio.tail()}")
        time.sleep(0.2)


def start(
    workdir: Path,
    command: str,
    file: Path = EXAMPLE,
    extra: tuple[str, ...] = (),
    more_env: dict[str, str] | None = None,
) -> tuple[subprocess.Popen[bytes], Studio]:
    """`agentc COMMAND FILE [EXTRA…]` (examples/human_review.agent) on a free port,
    answering /ok (`more_env`: variables added to the server's environment)."""
    pytest.importorskip("starlette", reason="agentc studio needs starlette (the serve extra)")
    pytest.importorskip("uvicorn", reason="agentc studio needs uvicorn (the serve extra)")
    port = free_port()
    log = workdir / f"{command}.log"
    argv = [sys.executable, "-m", "agentc", command, str(file), "--port", str(port), *extra]
    env = {**os.environ, **(more_env or {})}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*argv, "--db", "memory://"],
            cwd=workdir,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    info = Studio(f"http://127.0.0.1:{port}", log)
    try:
        _wait_ready(proc, info)
    except BaseException:
        stop(proc)
        raise
    return proc, info
