"""The Python side of a document, read as `agentc check` reads it: never imported, never run.

Input: an analysed document and a `use` alias (and a name in that module). Output: the
module's file and its static scan (`compiler.pyscan`: functions with parameters, docstrings
and lines; classes), and a one-line signature of a function for hovers and completions.
Scans are cached by path and modification time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..compiler.pyscan import PyClass, PyFunction, PyModule, locate, scan_source
from ..dsl import ast

_CACHE: dict[Path, tuple[float, PyModule | None]] = {}


@dataclass(frozen=True)
class PyTarget:
    path: Path
    line: int  # 1-based; 1 for the module itself
    function: PyFunction | None = None
    cls: PyClass | None = None


def use_of(module: ast.Module | None, alias: str) -> ast.UseDecl | None:
    for item in module.items if module is not None else ():
        if isinstance(item, ast.UseDecl) and item.alias is not None and item.alias.text == alias:
            return item
    return None


def module_file(use: ast.UseDecl, base_dir: Path) -> Path | None:
    return locate(use.target.value, base_dir)


def scan(path: Path) -> PyModule | None:
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return None
    cached = _CACHE.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        found: PyModule | None = scan_source(path.read_text(encoding="utf-8"), str(path))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        found = None
    _CACHE[path] = (stamp, found)
    return found


def target(
    module: ast.Module | None, base_dir: Path, alias: str, name: str | None
) -> PyTarget | None:
    """Where `alias.name` (or the module `alias`) is defined in Python."""
    use = use_of(module, alias)
    path = module_file(use, base_dir) if use is not None else None
    if path is None or path.suffix != ".py":
        return None
    if name is None:
        return PyTarget(path, 1)
    scanned = scan(path)
    if scanned is None:
        return None
    if name in scanned.functions:
        fn = scanned.functions[name]
        return PyTarget(path, fn.line, function=fn)
    if name in scanned.classes:
        cls = scanned.classes[name]
        return PyTarget(path, cls.line, cls=cls)
    return None


def signature(fn: PyFunction) -> str:
    params = []
    for p in fn.params:
        text = p.name if p.annotation is None else f"{p.name}: {p.annotation}"
        if not p.required:
            text += f" = {p.default!r}"
        params.append(text)
    prefix = "async def" if fn.is_async else "def"
    return f"{prefix} {fn.name}({', '.join(params)})"


def names(module: ast.Module | None, base_dir: Path, alias: str) -> list[tuple[str, str]]:
    """(name, signature or class line) of what a `use`d Python module defines."""
    use = use_of(module, alias)
    path = module_file(use, base_dir) if use is not None else None
    scanned = scan(path) if path is not None and path.suffix == ".py" else None
    if scanned is None:
        return []
    out = [(n, signature(f)) for n, f in scanned.functions.items()]
    out += [(n, f"class {n}") for n in scanned.classes]
    return out
