"""Where files live: the stdlib's data files (found without importing stdlib Python), and
the project root that a file's `use`d files must stay inside.

Input: a path relative to the stdlib folder, the parts of an `agentc.…` module name, or the
folder of the file being compiled. Output: the file on disk (or FileNotFoundError / None);
`project_root(folder)` and `inside(path, root)`; the loader's diagnostics about a used
file, which never quote a file that is not agent text. Invariant: nothing is imported.

`agentc.stdlib` ships `prelude.agent` and `data/*.json` as package data. In both regular and
editable installs the stdlib folder sits beside the compiler's folder (pyproject maps
`agentc.compiler` → `compiler/` and `agentc.stdlib` → `stdlib/`), so a path relative to this
package's parent finds it; `importlib.resources` would import `agentc.stdlib` first.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..dsl import ast
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error

if TYPE_CHECKING:
    from ..dsl.parse import ParseResult

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


# ---------------------------------------------------------------- the project root

# A folder holding one of these is a project's root; `agentc.toml` (empty will do) marks one
# where no pyproject.toml or .git does, or a wider one to share files between projects.
PROJECT_MARKERS = ("agentc.toml", "pyproject.toml", ".git")


def project_root(folder: Path) -> Path:
    """The folder `use`d files must resolve inside: the nearest folder from `folder` upward
    holding a project marker, else `folder` itself.

    The home folder and the filesystem root never count: a `.git` there is a dotfiles
    repository, not a project, and would let a file in a downloaded folder reach every
    file of the user. The caller's own folder is always inside, so checking a file never
    loses access to the files beside it.
    """
    start = Path(os.path.realpath(folder))
    stop = {Path(start.anchor), _home()}
    for candidate in (start, *start.parents):
        if candidate in stop:
            break
        if any(os.path.lexists(candidate / marker) for marker in PROJECT_MARKERS):
            return candidate
    return start


def _home() -> Path | None:
    try:
        return Path(os.path.realpath(Path.home()))
    except (RuntimeError, KeyError):  # no HOME and no password entry: no home folder
        return None


def inside(path: Path, root: Path) -> bool:
    """Whether `path` (already resolved, symbolic links followed) lies within `root`."""
    return path == root or root in path.parents


def resolved(path: Path) -> Path | None:
    """`path` with every symbolic link followed; None for a loop of links."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop (RuntimeError before Python 3.13)
        return None


# ---------------------------------------------------------------- what is said about a used file


def outside_project(use: ast.UseDecl, root: Path) -> Diagnostic:
    return error(
        Code.USE_OUTSIDE_PROJECT,
        f"`{use.target.value}` is outside the project",
        use.target.span,
        "outside the project root",
        notes=(
            f"the project root here is `{root}`",
            "it is the nearest folder upward holding `agentc.toml`, `pyproject.toml` or "
            "`.git`, else the checked file's folder; a used file must lie inside it once "
            "symbolic links are followed",
        ),
        help="move the file into the project, or put an `agentc.toml` in a folder holding "
        "both (the project then starts there)",
    )


_GAP = re.compile(r"(?:[ \t\f\r\n\ufeff]+|#[^\n]*)*")  # the grammar's GAP: space, comments


def starts_like_agent_text(result: ParseResult) -> bool:
    """False when the first error is at the file's first token: nothing in it is agent text
    (a password file, a binary, a Python file), so no line of it may be shown."""
    errors = [d for d in result.diagnostics if d.is_error]
    if not errors:
        return True
    first = _GAP.match(result.source.text)
    return min(d.span.start.offset for d in errors) > (first.end() if first else 0)


def not_agent_text(use: ast.UseDecl) -> Diagnostic:
    return error(
        Code.NOT_AGENT_TEXT,
        f"`{use.target.value}` is not an agent file",
        use.target.span,
        "its first word starts no declaration",
        notes=(
            "an agent file starts with `agentc`, `use`, `schema`, `agent`, `graph`, "
            "`middleware`, `router` or `template`; no text of a file that does not is shown",
        ),
        help="check the path, or fix the file's first declaration",
    )


def unreadable(use: ast.UseDecl, reason: str) -> Diagnostic:
    return error(
        Code.UNREADABLE,
        f"cannot read `{use.target.value}`",
        use.target.span,
        reason,
        help="check the path; it is relative to this .agent file",
    )


def python_unreadable(use: ast.UseDecl, exc: Exception) -> Diagnostic:
    """A used Python file that cannot be read or parsed; only the line number and Python's
    own short reason are said, never its text."""
    target, span = use.target.value, use.target.span
    if isinstance(exc, (RecursionError, MemoryError)):  # Python's parser gave up on nesting
        return error(
            Code.PYTHON_SYNTAX,
            f"`{target}` nests an expression too deeply to be read",
            span,
            "Python's parser gave up on this file",
            notes=(
                "an expression of thousands of terms, or brackets nested "
                "hundreds deep, is more than Python's parser can read",
            ),
            help="split the long expression (build a long default in the function)",
        )
    if isinstance(exc, SyntaxError):
        return error(
            Code.PYTHON_SYNTAX,
            f"`{target}` is not valid Python",
            span,
            f"line {exc.lineno}: {exc.msg}",
            help="fix the Python file; agentc reads it without running it",
        )
    return error(Code.MODULE_NOT_FOUND, f"cannot read `{target}`", span, str(exc))
