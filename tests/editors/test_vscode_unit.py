"""The extension's logic that needs no editor, under node's test runner: which program it
runs for each `agentc.path` (real folders and files), its runs of the real agentc for
"Show graph" and "Explain" (this interpreter's agentc; Graphviz draws the SVG), and the
language server as the extension starts it (`agentc lsp` over stdio)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile

from vscode_kit import Npm


def has_lsp() -> bool:
    done = subprocess.run(
        [sys.executable, "-m", "agentc", "lsp", "--help"],
        cwd=tempfile.gettempdir(),
        capture_output=True,
        timeout=60,
    )
    return done.returncode == 0


def test_finding_and_running_agentc(npm: Npm):
    env = {}
    # Without Graphviz the runs of agentc are skipped, the rest still run.
    if shutil.which("dot"):
        env["AGENTC_TEST_PYTHON"] = sys.executable
        if has_lsp():
            env["AGENTC_TEST_LSP"] = "1"
    done = npm("run", "--silent", "test:unit", env=env)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "# fail 0" in out
    if "AGENTC_TEST_LSP" in env:
        assert "# skipped 0" in out, out
