"""Which files `agentc test` runs.

Input: the paths on the command line (files or folders; none: the current folder).
Output: test files in a stable order — a folder gives every `*.test.agent` under it
(hidden folders and `.venv`-like ones skipped), a file is taken as it is (a `NAME.agent`
with a `NAME.test.agent` beside it gives that test file). `MissingPath` names a path that
is not there.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from agentc.compiler.testblocks import TEST_SUFFIX


class MissingPath(Exception):
    """A path on the command line that does not exist."""


def test_files(paths: Sequence[str]) -> list[Path]:
    found: list[Path] = []
    for raw in paths or ["."]:
        path = Path(raw)
        if path.is_dir():
            found += sorted(p for p in path.rglob(f"*{TEST_SUFFIX}") if not _hidden(p, path))
        elif path.is_file():
            found.append(_test_file_for(path))
        else:
            raise MissingPath(f"{raw}: no such file or folder")
    return list(dict.fromkeys(found))


def _test_file_for(path: Path) -> Path:
    if path.name.endswith(TEST_SUFFIX):
        return path
    beside = path.with_name(path.name.removesuffix(".agent") + TEST_SUFFIX)
    return beside if beside.is_file() else path


def _hidden(path: Path, root: Path) -> bool:
    parts = path.relative_to(root).parts[:-1]
    return any(p.startswith(".") or p in ("node_modules", "__pycache__") for p in parts)
