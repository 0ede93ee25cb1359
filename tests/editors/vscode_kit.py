"""What the editor tests share: where the VS Code extension is and the `npm` runner type."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

from support import ROOT

VSCODE = ROOT / "editors" / "vscode"

# `npm ARGS…` run in VSCODE (the `npm` fixture of conftest.py).
Npm = Callable[..., subprocess.CompletedProcess[str]]
