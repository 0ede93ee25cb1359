"""`file_search` (D20, D21): `glob_search` and `grep_search` over one folder.

Input: `root_path` (resolved against the `.agent` file's folder), `max_file_size_mb`,
`include_hidden`. Output: two tools, as LangChain's FilesystemFileSearchMiddleware names
and shapes them; the model sees paths as virtual absolute paths under `/` (the root).

D20, confinement: a requested path with a `..` or `~` part, a glob pattern that is absolute
or has a `..` part, or a path that resolves outside the root is REFUSED, and the answer
says so ("Error: path … is refused: …") instead of LangChain's plain "No files found", so
the model can tell a refusal from no match. Every match is re-checked with links resolved;
matches leading outside the root are left out and the answer counts them.

D21, which files: always this Python search (never an installed `rg`, so the answer does
not depend on the machine); regular files only, at most `max_file_size_mb`, text that
decodes as UTF-8; hidden files and folders (a name starting with `.`: `.env`, `.git`) are
skipped unless `include_hidden: true`.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..tools import make_tool
from .base import AgentMiddleware
from .binding import BindInfo

NO_FILES = "No files found"
NO_MATCHES = "No matches found"


class PathRefused(ValueError):
    """A path the model asked for that lies outside the search root (D20)."""


@dataclass(frozen=True, slots=True)
class Found:
    paths: list[Path]
    outside: int = 0  # matches dropped because they resolve outside the root


class FileSearch(AgentMiddleware):
    def __init__(
        self, *, root_path: str, max_file_size_mb: float = 10, include_hidden: bool = False
    ) -> None:
        if max_file_size_mb <= 0:
            raise ValueError("max_file_size_mb must be greater than zero")
        self.root_text = root_path
        self.root = Path(root_path).resolve()
        self.max_bytes = int(max_file_size_mb * 1024 * 1024)
        self.include_hidden = include_hidden
        self.tools = [
            make_tool(self.glob_search, name="glob_search"),
            make_tool(self.grep_search, name="grep_search"),
        ]

    def agentc_bind(self, info: BindInfo) -> None:
        """A relative `root_path` is relative to the `.agent` file's folder."""
        if not Path(self.root_text).is_absolute():
            self.root = (Path(info.base_dir) / self.root_text).resolve()

    # ------------------------------------------------------------ the tools

    def glob_search(self, pattern: str, path: str = "/") -> str:
        """Find files by name with a glob pattern such as `**/*.py` or `src/**/*.ts`.

        Returns matching file paths, most recently modified first, or `No files found`.
        A path outside the searchable folder is refused with an error.

        Args:
            pattern: The glob pattern to match files against.
            path: The directory to search in; `/` is the root of the searchable folder.
        """
        try:
            base = self.resolve(path)
            self.check_pattern(pattern)
        except PathRefused as exc:
            return f"Error: {exc}"
        if not base.is_dir():
            return f"Error: `{path}` is not a directory"
        found = self._confined(p for p in base.glob(pattern) if p.is_file())
        files = sorted(found.paths, key=lambda p: p.stat().st_mtime, reverse=True)
        return self._answer([self.virtual(p) for p in files], found.outside, NO_FILES)

    def grep_search(
        self,
        pattern: str,
        path: str = "/",
        include: str | None = None,
        output_mode: Literal["files_with_matches", "content", "count"] = "files_with_matches",
    ) -> str:
        """Search file contents with a regular expression.

        Args:
            pattern: The regular expression to search for.
            path: The directory to search in; `/` is the root of the searchable folder.
            include: A file name pattern to filter by, e.g. `*.py` or `*.{ts,tsx}`.
            output_mode: `files_with_matches` (paths), `content` (`path:line:text`) or
                `count` (`path:count`).
        """
        try:
            regex = re.compile(pattern)
        except re.error as exc:
            return f"Invalid regex pattern: {exc}"
        try:
            base = self.resolve(path)
        except PathRefused as exc:
            return f"Error: {exc}"
        found = self._confined(self._files(base, include))
        lines = [line for p in found.paths for line in self._grep(p, regex, output_mode)]
        return self._answer(lines, found.outside, NO_MATCHES)

    # ------------------------------------------------------------ D20: confinement

    def resolve(self, path: str) -> Path:
        """The real folder a virtual path names; `PathRefused` when it is not inside."""
        parts = Path(path or "/").parts
        if ".." in parts or any(p.startswith("~") for p in parts):
            raise PathRefused(f"path `{path}` is refused: `..` and `~` may not be used")
        full = (self.root / path.lstrip("/")).resolve()
        if not _within(full, self.root):
            raise PathRefused(f"path `{path}` is refused: it is outside the searchable folder")
        return full

    @staticmethod
    def check_pattern(pattern: str) -> None:
        if pattern.startswith(("/", "~")) or ".." in pattern.split("/"):
            raise PathRefused(
                f"pattern `{pattern}` is refused: it would leave the searchable folder"
            )

    def _confined(self, paths: Iterable[Path]) -> Found:
        kept: list[Path] = []
        outside = 0
        for p in paths:
            if not _within(p.resolve(), self.root):
                outside += 1
            elif self.include_hidden or not self._hidden(p):
                kept.append(p)
        return Found(kept, outside)

    def _hidden(self, p: Path) -> bool:
        return any(part.startswith(".") for part in p.relative_to(self.root).parts)

    def virtual(self, p: Path) -> str:
        return "/" + p.relative_to(self.root).as_posix()

    @staticmethod
    def _answer(lines: list[str], outside: int, empty: str) -> str:
        text = "\n".join(lines) if lines else empty
        if outside:
            text += (
                f"\n({outside} match(es) outside the searchable folder were refused and left out)"
            )
        return text

    # ------------------------------------------------------------ D21: which files

    def _files(self, base: Path, include: str | None) -> Iterator[Path]:
        patterns = _expand_braces(include) if include else None
        for folder, dirs, files in os.walk(base, followlinks=False):
            if not self.include_hidden:
                dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in sorted(files):
                if patterns is None or any(fnmatch.fnmatch(name, p) for p in patterns):
                    yield Path(folder) / name
            dirs.sort()

    def _grep(self, p: Path, regex: re.Pattern[str], mode: str) -> list[str]:
        try:
            if not p.is_file() or p.stat().st_size > self.max_bytes:
                return []
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return []
        hits = [(n, line) for n, line in enumerate(text.splitlines(), 1) if regex.search(line)]
        if not hits:
            return []
        if mode == "content":
            return [f"{self.virtual(p)}:{n}:{line}" for n, line in hits]
        if mode == "count":
            return [f"{self.virtual(p)}:{len(hits)}"]
        return [self.virtual(p)]


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _expand_braces(pattern: str) -> list[str]:
    """`*.{ts,tsx}` → [`*.ts`, `*.tsx`] (one level, as LangChain's include filter)."""
    m = re.search(r"\{([^{}]*)\}", pattern)
    if m is None:
        return [pattern]
    return [pattern[: m.start()] + alt + pattern[m.end() :] for alt in m.group(1).split(",")]


FilesystemFileSearchMiddleware = FileSearch
