"""Where a `use`d Python module lives, found without importing anything.

Input: a `use` target (a file path relative to the `.agent` file, or a dotted module name)
and the `.agent` file's directory. Output: the path of the Python file, or None.

A dotted name is looked up by walking the `.agent` file's directory and then `sys.path`
for `a/b/c.py` or `a/b/c/__init__.py`. We do not call `importlib.util.find_spec("a.b.c")`
because it imports the parent packages `a` and `a.b` — running their `__init__.py` —
before it can answer. The walk misses modules served by custom finders (zip imports,
namespace packages split over several directories, editable installs that use an import
hook); such a module is reported as not found, which is safe. `agentc.…` modules are found
through pyproject's folder mapping (paths.py). Invariant: nothing is imported or run.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from ..paths import agentc_module_file


def is_file_target(target: str) -> bool:
    return target.startswith(("./", "../", "/")) or target.endswith(".py")


def locate(target: str, base_dir: Path) -> Path | None:
    """The file a `use` target names, or None; never imports anything."""
    if is_file_target(target):
        try:
            path = (base_dir / target).resolve()
        except (OSError, RuntimeError):  # a loop of symbolic links: no file is there
            return None
        return path if path.is_file() else None
    parts = target.split(".")
    if not all(p.isidentifier() for p in parts):
        return None
    if parts[0] == "agentc":  # our own package: its folders are mapped by pyproject
        return agentc_module_file(parts)
    for root in _search_roots(base_dir):
        base = root.joinpath(*parts)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def _search_roots(base_dir: Path) -> Iterable[Path]:
    yield base_dir
    for entry in sys.path:
        if entry and Path(entry).is_dir():
            yield Path(entry)
