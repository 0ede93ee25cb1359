"""Where the stdlib's data files live, found without importing stdlib Python.

`agentc.stdlib` ships `prelude.agent` and `data/*.json` as package data. In both regular and
editable installs the stdlib folder sits beside the compiler's folder (pyproject maps
`agentc.compiler` → `compiler/` and `agentc.stdlib` → `stdlib/`), so a path relative to this
package's parent finds it; `importlib.resources` would import `agentc.stdlib` first.
"""

from __future__ import annotations

from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
PRELUDE_NAME = "agentc/stdlib/prelude.agent"  # the stable name prelude spans carry


def stdlib_file(relative: str) -> Path:
    for base in (_ROOT / "stdlib", _ROOT / "agentc" / "stdlib"):
        candidate = base / relative
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"agentc stdlib file {relative!r} is missing from the installation")
