"""Fixtures for the JS SDK run: node, the installed @langchain/langgraph-sdk, and a server.

The servers are started by the differential test's kit (tests/server/differential), put on
the import path here so the server folders share one way of starting them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "differential"))

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def node() -> str:
    exe = shutil.which("node")
    if exe is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs npm)")
    if not (HERE / "node_modules" / "@langchain" / "langgraph-sdk").is_dir():
        if shutil.which("npm") is None:
            pytest.skip("npm is not installed (Debian: apt-get install npm)")
        # The lockfile pins the SDK; `npm ci` installs exactly it.
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True, timeout=300)
    return exe
