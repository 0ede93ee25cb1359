"""The VS Code extension's own tools (npm), installed once per session from its lock file."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping

import pytest
from vscode_kit import VSCODE, Npm

# npm ci downloads and installs; the rest take seconds. Guards against a hang, not speed.
INSTALL_TIMEOUT = 900
RUN_TIMEOUT = 300


def _run(args: list[str], timeout: int, env: Mapping[str, str] | None = None):
    return subprocess.run(
        args,
        cwd=VSCODE,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
    )


@pytest.fixture(scope="session")
def npm() -> Npm:
    """`npm ARGS…` in editors/vscode after `npm ci`; skips when node or npm is missing."""
    exe = shutil.which("npm")
    if shutil.which("node") is None or exe is None:
        pytest.skip("node and npm are not installed (Debian: apt-get install nodejs npm)")
    version = _run(["node", "--version"], RUN_TIMEOUT).stdout.strip()  # "v20.20.2"
    if int(version.lstrip("v").split(".")[0]) < 20:
        # Installed but too old: a failure that says what to do, not a silent skip.
        pytest.fail(f"node {version} is too old to build the extension: install Node.js 20+")
    done = _run([exe, "ci", "--no-audit", "--no-fund"], INSTALL_TIMEOUT)
    assert done.returncode == 0, f"npm ci failed:\n{done.stdout}\n{done.stderr}"

    def run(*args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return _run([exe, *args], RUN_TIMEOUT, env)

    return run
