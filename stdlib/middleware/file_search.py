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
skipped unless `include_hidden: true`, judged on the real path (a link to `.git` is hidden).

Bounds: model-supplied patterns cannot make a search run long. Folders are walked without
recursion and links to folders are not followed (as LangChain's `**` and ripgrep); a search
stops after `max_entries` entries, `max_results` results or `time_limit` seconds (each file
at most `file_time_limit`) and says so; regular expressions with nested or repeated
open-ended quantifiers (`(a+)+`, `.*.*.*x`) are refused, and lines are matched on their first
`MAX_LINE` characters. Bad input (a NUL, an empty pattern, an overlong path, an unreadable
or looping link) is an `Error: …` answer, never an exception that ends the run.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
import time
from collections.abc import Iterator
from dataclasses import field
from pathlib import Path
from typing import Literal

from ...runtime.records import dataclass
from ..tools import make_tool
from .base import AgentMiddleware
from .binding import BindInfo
from .file_search_regex import SlowPattern, check_regex

NO_FILES = "No files found"
NO_MATCHES = "No matches found"
MAX_TEXT = 4096  # longest path or pattern accepted (PATH_MAX)
MAX_LINE = 500  # characters of a line the regex sees


class PathRefused(ValueError):
    """A path or pattern the model gave that cannot be searched (D20, bounds)."""


@dataclass(slots=True)
class Budget:
    """The work one search may do; `cut` says why it stopped early."""

    deadline: float
    entries_left: int
    results_left: int
    file_time: float
    cut: str = ""
    notes: dict[str, int] = field(default_factory=dict)

    def out_of_time(self) -> bool:
        if time.monotonic() > self.deadline:
            self.cut = self.cut or "time"
        return bool(self.cut)

    def note(self, what: str) -> None:
        self.notes[what] = self.notes.get(what, 0) + 1


class FileSearch(AgentMiddleware):
    def __init__(
        self,
        *,
        root_path: str,
        max_file_size_mb: float = 10,
        include_hidden: bool = False,
        max_entries: int = 50_000,
        max_results: int = 1_000,
        time_limit: float = 10.0,
        file_time_limit: float = 2.0,
    ) -> None:
        if max_file_size_mb <= 0:
            raise ValueError("max_file_size_mb must be greater than zero")
        self.root_text = root_path
        self.root = Path(root_path).resolve()
        self.max_bytes = int(max_file_size_mb * 1024 * 1024)
        self.include_hidden = include_hidden
        self.max_entries = max_entries
        self.max_results = max_results
        self.time_limit = time_limit
        self.file_time_limit = file_time_limit
        self.tools = [
            make_tool(self.glob_search, name="glob_search"),
            make_tool(self.grep_search, name="grep_search"),
        ]

    def agentc_bind(self, info: BindInfo) -> None:
        """A relative `root_path` is relative to the `.agent` file's folder."""
        if not Path(self.root_text).is_absolute():
            self.root = (Path(info.base_dir) / self.root_text).resolve()

    def _budget(self) -> Budget:
        return Budget(
            time.monotonic() + self.time_limit,
            self.max_entries,
            self.max_results,
            self.file_time_limit,
        )

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
            self.check_text("pattern", pattern)
            self.check_pattern(pattern)
            base = self.resolve(path)
            if not base.is_dir():
                return f"Error: `{_short(path)}` is not a directory"
            segs = _glob_segments(pattern)
            budget = self._budget()
            found: list[tuple[float, str]] = []
            for p, st in self._walk(base, budget, segs):
                found.append((st.st_mtime, self.virtual(p)))
                budget.results_left -= 1
                if budget.results_left <= 0:
                    budget.cut = "results"
                    break
        except PathRefused as exc:
            return f"Error: {exc}"
        except OSError as exc:
            return f"Error: path `{_short(path)}` cannot be searched: {exc.strerror or exc}"
        except (ValueError, RuntimeError) as exc:
            return f"Error: the search failed: {_short(str(exc))}"
        found.sort(key=lambda f: f[0], reverse=True)
        return self._answer([v for _, v in found], budget, NO_FILES)

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
            self.check_text("pattern", pattern)
            if include is not None:
                self.check_text("include", include)
            regex = re.compile(pattern)
        except PathRefused as exc:
            return f"Error: {exc}"
        except (re.error, RecursionError, OverflowError) as exc:
            return f"Invalid regex pattern: {exc}"
        try:
            check_regex(pattern)
            base = self.resolve(path)
            if not base.is_dir():
                return NO_MATCHES  # as LangChain: a missing folder has no matches
            patterns = _expand_braces(include) if include else None
            budget = self._budget()
            lines: list[str] = []
            for p, st in self._walk(base, budget, None):
                if patterns is not None and not any(fnmatch.fnmatch(p.name, g) for g in patterns):
                    continue
                if st.st_size > self.max_bytes:
                    continue
                lines += self._grep(p, regex, output_mode, budget)
                if budget.cut:
                    break
        except (PathRefused, SlowPattern) as exc:
            return f"Error: {exc}"
        except OSError as exc:
            return f"Error: path `{_short(path)}` cannot be searched: {exc.strerror or exc}"
        except (ValueError, RuntimeError) as exc:
            return f"Error: the search failed: {_short(str(exc))}"
        return self._answer(lines, budget, NO_MATCHES)

    # ------------------------------------------------------------ D20: confinement

    @staticmethod
    def check_text(what: str, text: str) -> None:
        if not isinstance(text, str) or not text:
            raise PathRefused(f"the {what} is empty: give a non-empty {what}")
        if "\x00" in text:
            raise PathRefused(f"the {what} contains a NUL character")
        if len(text) > MAX_TEXT:
            raise PathRefused(f"the {what} is {len(text)} characters long (at most {MAX_TEXT})")

    def resolve(self, path: str) -> Path:
        """The real folder a virtual path names; `PathRefused` when it is not inside."""
        path = path or "/"
        self.check_text("path", path)
        parts = Path(path).parts
        if ".." in parts or any(p.startswith("~") for p in parts):
            raise PathRefused(f"path `{path}` is refused: `..` and `~` may not be used")
        full = Path(os.path.realpath(self.root / path.lstrip("/")))
        if not _within(full, self.root):
            raise PathRefused(f"path `{path}` is refused: it is outside the searchable folder")
        if not self.include_hidden and self._hidden(full):
            raise PathRefused(f"path `{path}` is refused: it leads to a hidden folder")
        return full

    @staticmethod
    def check_pattern(pattern: str) -> None:
        if pattern.startswith(("/", "~")) or ".." in pattern.split("/"):
            raise PathRefused(
                f"pattern `{pattern}` is refused: it would leave the searchable folder"
            )

    def _hidden(self, real: Path) -> bool:
        """Whether a real path (links resolved) inside the root has a hidden part."""
        return any(part.startswith(".") for part in real.relative_to(self.root).parts)

    def virtual(self, p: Path) -> str:
        return "/" + p.relative_to(self.root).as_posix()

    def _walk(
        self, base: Path, budget: Budget, segs: list[str] | None
    ) -> Iterator[tuple[Path, os.stat_result]]:
        """Regular files under `base` (glob segments `segs` prune and match), with a stack,
        never following a link to a folder; each file's real path is checked (D20, D21)."""
        start = frozenset(_closure(segs, {0})) if segs is not None else frozenset()
        stack: list[tuple[Path, frozenset[int]]] = [(base, start)]
        while stack:
            folder, states = stack.pop()
            if budget.out_of_time():
                return
            try:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name, reverse=True)
            except OSError:
                budget.note("unreadable folder(s) skipped")
                continue
            subdirs: list[tuple[Path, frozenset[int]]] = []
            for entry in reversed(entries):
                budget.entries_left -= 1
                if budget.entries_left < 0:
                    budget.cut = "entries"
                    return
                if not self.include_hidden and entry.name.startswith("."):
                    continue
                nxt = frozenset(_step(segs, states, entry.name)) if segs is not None else states
                if segs is not None and not nxt:
                    continue
                p = Path(entry.path)
                try:
                    if entry.is_dir(follow_symlinks=False):
                        subdirs.append((p, nxt))
                        continue
                    link = entry.is_symlink()
                    st = p.stat() if link else entry.stat(follow_symlinks=False)
                except (OSError, ValueError):
                    budget.note("unreadable link(s) or file(s) skipped")
                    continue
                if link:
                    real = Path(os.path.realpath(p))
                    if not _within(real, self.root):
                        folder_link = stat.S_ISDIR(st.st_mode)
                        if (folder_link and segs is not None) or (
                            not folder_link and (segs is None or len(segs) in nxt)
                        ):
                            budget.note("match(es) outside the searchable folder were refused")
                        continue
                    if not self.include_hidden and self._hidden(real):
                        continue
                if not stat.S_ISREG(st.st_mode):
                    continue
                if segs is None or len(segs) in nxt:
                    yield p, st
                    if budget.cut:
                        return
            stack.extend(reversed(subdirs))

    def _answer(self, lines: list[str], budget: Budget, empty: str) -> str:
        text = "\n".join(lines) if lines else empty
        for what, n in budget.notes.items():
            text += f"\n({n} {what} and left out)" if "refused" in what else f"\n({n} {what})"
        if budget.cut:
            why = {
                "time": f"after {self.time_limit:g} s",
                "entries": f"after {self.max_entries} files and folders",
                "results": f"after {self.max_results} results",
            }[budget.cut]
            text += f"\n(search stopped {why}: the results are incomplete; narrow the pattern)"
        return text

    # ------------------------------------------------------------ D21: which files

    def _grep(self, p: Path, regex: re.Pattern[str], mode: str, budget: Budget) -> list[str]:
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError):
            return []
        file_deadline = min(budget.deadline, time.monotonic() + budget.file_time)
        hits: list[tuple[int, str]] = []
        for n, line in enumerate(text.splitlines(), 1):
            if time.monotonic() > file_deadline:
                if time.monotonic() > budget.deadline:
                    budget.cut = "time"
                else:
                    budget.note(f"file(s) searched only for {budget.file_time:g} s")
                break
            line = line[:MAX_LINE]
            if regex.search(line):
                hits.append((n, line))
                if mode == "content":
                    budget.results_left -= 1
                    if budget.results_left <= 0:
                        budget.cut = "results"
                        break
        if not hits:
            return []
        if mode != "content":
            budget.results_left -= 1
            if budget.results_left <= 0:
                budget.cut = "results"
        if mode == "content":
            return [f"{self.virtual(p)}:{n}:{line}" for n, line in hits]
        if mode == "count":
            return [f"{self.virtual(p)}:{len(hits)}"]
        return [self.virtual(p)]


def _glob_segments(pattern: str) -> list[str]:
    """A glob's segments with runs of `**` made one (`**/**/x` means `**/x`)."""
    segs: list[str] = []
    for seg in pattern.split("/"):
        if seg in ("", "."):
            continue
        if seg == "**" and segs and segs[-1] == "**":
            continue
        segs.append(seg)
    if not segs or segs[-1] == "**":  # as pathlib: `**` alone names folders, never files
        segs.append("\x00")  # matches no name
    return segs


def _closure(segs: list[str], states: set[int]) -> set[int]:
    out = set(states)
    for i in sorted(states):
        j = i
        while j < len(segs) and segs[j] == "**":
            j += 1
            out.add(j)
    return out


def _step(segs: list[str], states: frozenset[int], name: str) -> set[int]:
    """The glob states after one more path part (`**` matches any number of parts)."""
    nxt: set[int] = set()
    for i in states:
        if i >= len(segs):
            continue
        if segs[i] == "**":
            nxt.add(i)
        elif fnmatch.fnmatchcase(name, segs[i]):
            nxt.add(i + 1)
    return _closure(segs, nxt)


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _short(text: str, n: int = 200) -> str:
    return text if len(text) <= n else text[:n] + "…"


def _expand_braces(pattern: str) -> list[str]:
    """`*.{ts,tsx}` → [`*.ts`, `*.tsx`] (one level, as LangChain's include filter)."""
    m = re.search(r"\{([^{}]*)\}", pattern)
    if m is None:
        return [pattern]
    return [pattern[: m.start()] + alt + pattern[m.end() :] for alt in m.group(1).split(",")]


FilesystemFileSearchMiddleware = FileSearch
