"""`agentc check FILE…`: every diagnostic of every file, located.

Input: `.agent` paths and the output options. Output: every diagnostic on stdout (`human`
snippets with carets, `short` one line each, or `json` with byte offsets for editors); exit
0 when no file has an error (warnings allowed), 1 when any has, 2 when a file cannot be
read. Invariants: nothing in a checked file is executed (used Python modules are read, not
imported); the compiler is imported only once the command runs, with the cyclic collector
paused (the cold start is most of a check).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .dsl.diagnostics import Diagnostic
    from .dsl.source import SourceFile


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE", help=".agent files to check")
    parser.add_argument(
        "--explain",
        metavar="CODE",
        help="print what a diagnostic or run-time error code means (e.g. unknown-param)",
    )
    parser.add_argument(
        "--format",
        choices=("human", "short", "json"),
        default="human",
        help="human (default): source snippets with carets; short: one line "
        "each; json: the same data with byte offsets, for editors",
    )
    parser.add_argument(
        "--fix",
        action="store_true",
        help="apply the exact replacements errors suggest (`did you mean …?`), then check again",
    )
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="print nothing for files without diagnostics"
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="check again each time a file, or anything it uses, is saved (Ctrl-C stops)",
    )


@dataclass(frozen=True)
class FileOutcome:
    path: str
    diagnostics: tuple[Diagnostic, ...]
    sources: Mapping[str, SourceFile]


def read_text(path: str) -> str | None:
    """The file's text, or None after printing why it cannot be read."""
    try:
        # bytes, decoded without newline translation: `\r\n` stays, so byte offsets are real
        return Path(path).read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"error[unreadable-file]: cannot read `{path}`: {reason}", file=sys.stderr)
        return None


def check_one(path: str, text: str) -> FileOutcome:
    from .compiler.pipeline import compile_source

    base_dir = str(Path(path).resolve().parent)
    result = compile_source(text, path, base_dir=base_dir)
    return FileOutcome(path, tuple(result.diagnostics), dict(result.sources))


def use_color(choice: str) -> bool:
    if choice == "auto":
        return sys.stdout.isatty() and "NO_COLOR" not in os.environ
    return choice == "always"


def run(args: argparse.Namespace) -> int:
    if args.watch and args.files:  # agentc/watch.py: this run again on each save
        from .watch import watch_command

        return watch_command(args, run, args.files)
    # A check allocates mostly acyclic data (imports, AST, IR); the cyclic collector's
    # passes over the freshly imported modules cost ~15 ms of a ~250 ms cold start and
    # free nothing, so it waits until the files are checked.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(args)
    finally:
        if was_enabled:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    if args.explain is not None:
        return explain(args.explain)
    if not args.files:
        print("error: name the .agent files to check, or `--explain CODE`", file=sys.stderr)
        return 2
    if args.fix:
        from .fmt.fixes import fix_files

        fix_files(args.files)
    outcomes: list[FileOutcome] = []
    unreadable = False
    for path in args.files:
        text = read_text(path)
        if text is None:
            unreadable = True
            continue
        outcomes.append(check_one(path, text))
    emit(outcomes, args)
    if unreadable:
        return 2
    return 1 if any(d.is_error for o in outcomes for d in o.diagnostics) else 0


# ---------------------------------------------------------------- --explain CODE, as rustc's

# An installed agentc ships docs/ as `agentc/docs/` (pyproject's package-data); a checkout
# has it beside the `agentc` folder.
_DOCS = (Path(__file__).resolve().parent / "docs", Path(__file__).resolve().parent.parent / "docs")
_DIAGNOSTICS_HEADING = re.compile(r"^### `([a-z0-9-]+)`\s*$", re.M)  # docs/diagnostics.md
_ERRORS_HEADING = re.compile(r"^### ([a-z0-9-]+)\s*$", re.M)  # docs/errors.md


def doc_sections() -> dict[str, str]:
    """code → its section (heading included): the checker's codes, then the run-time ones."""
    out: dict[str, str] = {}
    for name, heading in (("diagnostics.md", _DIAGNOSTICS_HEADING), ("errors.md", _ERRORS_HEADING)):
        path = next((d / name for d in _DOCS if (d / name).is_file()), None)
        if path is None:
            continue
        text = path.read_text(encoding="utf-8")
        marks = list(heading.finditer(text))
        for m, after in zip(marks, [*marks[1:], None], strict=True):
            end = after.start() if after else len(text)
            end = min(end, _next_chapter(text, m.end(), end))
            out.setdefault(m.group(1), text[m.start() : end].strip() + "\n")
    return out


def _next_chapter(text: str, start: int, end: int) -> int:
    """Where a `## ` heading ends a section before the next `### ` one."""
    found = re.compile(r"^## ", re.M).search(text, start, end)
    return found.start() if found else end


def explain(code: str) -> int:
    """Print the documentation of `code` (exit 0), or say it is unknown (exit 2)."""
    from .dsl.suggest import suggest

    sections = doc_sections()
    section = sections.get(code.strip().strip("[]`"))
    if section is not None:
        print(section.rstrip("\n"))
        return 0
    near = suggest(code, sections)
    hint = f"; did you mean `{near}`?" if near else ""
    print(f"error: `{code}` is not a diagnostic or run-time error code{hint}", file=sys.stderr)
    if not sections:
        print("error: agentc's docs are not installed with this copy", file=sys.stderr)
    return 2


def emit(outcomes: list[FileOutcome], args: argparse.Namespace) -> None:
    from .dsl import report

    if args.format == "json":
        diagnostics = [d for o in outcomes for d in o.diagnostics]
        sources = {name: src for o in outcomes for name, src in o.sources.items()}
        print(json.dumps(report.render_json(diagnostics, sources), indent=2))
        return
    for o in outcomes:
        if args.format == "short":
            text = report.render_short(o.diagnostics)
        else:
            text = report.render_human(o.diagnostics, o.sources, color=use_color(args.color))
        if text.strip():
            print(text.rstrip("\n"))
        elif not args.quiet and args.format == "human":
            print(f"{o.path}: ok")
