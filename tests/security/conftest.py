"""Fixtures of the sandbox escape suite: a prepared host (`sandbox_attacks.Host`) per run."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sandbox_attacks import Host, Listener

HostFactory = Callable[[int], Host]


def _owned(path: Path, uid: int, mode: int) -> Path:
    os.chown(path, uid, uid)
    os.chmod(path, mode)
    return path


@pytest.fixture
def prepared_host(monkeypatch: pytest.MonkeyPatch) -> Iterator[HostFactory]:
    """`prepared_host(uid)`: targets owned by `uid`, cleaned up (markers too) afterwards."""
    made: list[Host] = []
    sleepers: list[subprocess.Popen[bytes]] = []

    def make(uid: int) -> Host:
        token = secrets.token_hex(8)
        secret = f"agentc-secret-{secrets.token_hex(8)}"
        monkeypatch.setenv("AGENTC_ESCAPE_SECRET", secret)
        base = _owned(Path(tempfile.mkdtemp(prefix="agentc-escape-")), uid, 0o755)
        project, workspace = base / "project", base / "project" / "ws"
        workspace.mkdir(parents=True)
        _owned(project, uid, 0o755), _owned(workspace, uid, 0o755)
        agent_file = project / "agent.agent"
        agent_file.write_text('agent a {\n  model "scripted:x"\n}\n')
        _owned(agent_file, uid, 0o644)
        for where in (base / "secret.txt", project / "secret.txt"):
            where.write_text(secret + "\n")
            _owned(where, uid, 0o600)
        sleeper = subprocess.Popen(
            ["sleep", "600"], user=uid if uid != os.geteuid() else None, start_new_session=True
        )
        sleepers.append(sleeper)
        host = Host(
            base=base,
            workspace=workspace,
            agent_file=agent_file,
            marker=f"agentc-escape-{token}",
            secret=secret,
            secret_file=base / "secret.txt",
            shadow_line=_shadow_line(),
            hostname=socket.gethostname(),
            sleeper_pid=sleeper.pid,
            tcp=Listener.tcp(),
            unix=Listener.abstract(f"agentc-escape-{token}"),
            unix_name=f"agentc-escape-{token}",
        )
        made.append(host)
        return host

    yield make
    for sleeper in sleepers:
        sleeper.kill()
        sleeper.wait()
    for host in made:
        host.tcp.close()
        host.unix.close()
        host.clean()
        shutil.rmtree(host.base, ignore_errors=True)


def _shadow_line() -> str:
    try:
        return Path("/etc/shadow").read_text().splitlines()[0]
    except (OSError, IndexError):
        return ""
