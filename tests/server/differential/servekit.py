"""Start the two servers the server tests talk to, each as a real subprocess on 127.0.0.1.

`langgraph dev` (the reference, from `langgraph-cli[inmem]`) serves app/langgraph.json;
`python -m agentc serve` serves app/twin.agent. Each side gets its own scripted fake OpenAI
server (agentc.testing.fake_provider) through OPENAI_BASE_URL, so both sides' model calls
are answered from the same script. Nothing leaves the machine: tracing, analytics and the
SaaS checks are switched off by environment, and the servers bind to loopback only.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from support.procs import free_port, stop

from agentc.testing.fake_provider import FakeProviderServer

ROOT = Path(__file__).resolve().parents[3]
APP = Path(__file__).resolve().parent / "app"
CMD_SERVE = ROOT / "agentc" / "cmd_serve.py"
READY_S = 90.0  # hang guard: a server that has not answered /ok by then failed to start
FAKE_KEY = "sk-fake-differential"

# What keeps `langgraph dev` (and LangChain inside either server) offline: no LangSmith
# tracing, no CLI analytics, no SaaS run checks, no license beacon (no key is set).
OFFLINE_ENV = {
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "LANGSMITH_TRACING_V2": "false",
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGSMITH_DISABLE_SAAS_RUNS": "true",
    "LANGCHAIN_CALLBACKS_BACKGROUND": "false",
    "NO_PROXY": "127.0.0.1,localhost",
}


class ServeMissing(RuntimeError):
    """`agentc serve` is not in this tree yet (agentc/cmd_serve.py is absent)."""


@dataclass(frozen=True)
class Served:
    side: str  # "langgraph" or "agentc"
    url: str
    fake: FakeProviderServer
    log: Path


def reference_missing() -> str | None:
    """Why `langgraph dev` with the reference app cannot start here, or None."""
    import importlib.util

    if shutil.which("langgraph", path=str(Path(sys.executable).parent)) is None:
        return 'langgraph dev is not installed (pip install "langgraph-cli[inmem]")'
    for module, package in (
        ("langgraph_api", "langgraph-cli[inmem]"),
        ("langchain_openai", "langchain-openai"),
    ):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install {package!r})"
    return None


def server_env(fake: FakeProviderServer) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_"))}
    env.update(OFFLINE_ENV)
    env["OPENAI_BASE_URL"] = fake.openai_base_url
    env["OPENAI_API_KEY"] = FAKE_KEY
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def _tail(log: Path, lines: int = 40) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@contextmanager
def _process(argv: list[str], cwd: Path, env: dict[str, str], url: str, log: Path):
    with log.open("wb") as out:
        # A session of its own, so stopping it ends the server and only what it started.
        proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + READY_S
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{argv[:3]} exited {proc.returncode}:\n{_tail(log)}")
            try:
                if httpx.get(url + "/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{argv[:3]} did not answer /ok in {READY_S} s:\n{_tail(log)}")
            time.sleep(0.25)
        yield
    finally:
        stop(proc)


@contextmanager
def langgraph_dev(workdir: Path) -> Iterator[Served]:
    """`langgraph dev` over a copy of app/ (it writes its .langgraph_api folder beside it)."""
    exe = shutil.which("langgraph", path=str(Path(sys.executable).parent))
    if exe is None:
        raise RuntimeError('langgraph dev is not installed: pip install "langgraph-cli[inmem]"')
    app = workdir / "langgraph-app"
    shutil.copytree(APP, app, ignore=shutil.ignore_patterns("__pycache__", ".langgraph_api"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    argv = [exe, "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port)]
    argv += ["--config", str(app / "langgraph.json")]
    with FakeProviderServer() as fake:
        log = workdir / "langgraph-dev.log"
        with _process(argv, app, server_env(fake), url, log):
            yield Served("langgraph", url, fake, log)


@contextmanager
def agentc_serve(
    workdir: Path, agent_file: Path | None = None, extra: tuple[str, ...] = ()
) -> Iterator[Served]:
    """`python -m agentc serve FILE --db memory://` on a free port, with its own fake
    provider; in memory, as `langgraph dev` keeps its threads."""
    if not CMD_SERVE.exists():
        raise ServeMissing(f"agentc serve is not built yet ({CMD_SERVE} is absent)")
    app = workdir / "agentc-app"
    shutil.copytree(APP, app, ignore=shutil.ignore_patterns("__pycache__", ".langgraph_api"))
    target = app / (agent_file.name if agent_file else "twin.agent")
    if agent_file is not None and agent_file.parent != APP:
        shutil.copy(agent_file, target)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    argv = [sys.executable, "-m", "agentc", "serve", str(target), "--host", "127.0.0.1"]
    argv += ["--port", str(port), "--db", "memory://", *extra]
    with FakeProviderServer() as fake:
        log = workdir / "agentc-serve.log"
        with _process(argv, app, server_env(fake), url, log):
            yield Served("agentc", url, fake, log)
