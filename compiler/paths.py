"""Where the stdlib's data files live, found without importing stdlib Python.

Input: a path relative to the stdlib folder, or the parts of an `agentc.…` module name.
Output: the file on disk (or FileNotFoundError / None). Invariant: nothing is imported.

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


# pyproject's package-dir: `agentc.<folder>` lives in `<folder>/` at the root (editable) or
# in `agentc/<folder>/` of site-packages (a regular install, where _ROOT is that folder).
_MAPPED = ("grammar", "dsl", "compiler", "runtime", "stdlib")


def agentc_module_file(parts: list[str]) -> Path | None:
    """The file of an `agentc.…` module (`agentc.stdlib.middleware.pii`), found on disk.

    The folders are mapped into the `agentc` package by pyproject, so walking `sys.path`
    for `agentc/stdlib/…` misses them in an editable install; nothing is imported.
    """
    if not parts or parts[0] != "agentc":
        return None
    rest = parts[1:]
    bases = [_ROOT, _ROOT / "agentc"] if rest and rest[0] in _MAPPED else [_ROOT / "agentc", _ROOT]
    for base in bases:
        target = base.joinpath(*rest) if rest else base
        for candidate in (target.with_suffix(".py") if rest else None, target / "__init__.py"):
            if candidate is not None and candidate.is_file():
                return candidate
    return None
