"""`agentc fmt [--check] [--diff] FILE…`: rewrite `.agent` files in the canonical layout.

Input: `.agent` paths and folders (a folder stands for every `.agent` file under it, hidden
folders skipped, in sorted order; `-` reads standard input and writes the result to
standard output).
Output: files rewritten in place; with `--check` only the names of files that would change,
with `--diff` a unified diff of each, nothing written. Exit 0 when every file is (or now
is) formatted, 1 when `--check`/`--diff` found a file to change or a file has a syntax
error, 2 when a file cannot be read. Invariants: a file the parser refuses is never
written (its located diagnostics are printed instead); nothing in the file is executed.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from .cmd_check import read_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help=".agent files or folders (`-`: stdin)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 and name each file that would change",
    )
    parser.add_argument(
        "--diff", action="store_true", help="write nothing; print what would change as a diff"
    )


def run(args: argparse.Namespace) -> int:
    from .dsl import report
    from .dsl.source import SourceFile
    from .fmt import format_source

    changed, broken, unreadable, unchanged = 0, 0, False, 0
    for path in expand(args.files):
        text = sys.stdin.read() if path == "-" else read_text(path)
        if text is None:
            unreadable = True
            continue
        result = format_source(text, path)
        if result.text is None:
            broken += 1
            rendered = report.render_human(result.diagnostics, {path: SourceFile(path, text)})
            print(rendered.rstrip("\n"), file=sys.stderr)
            continue
        if path == "-":
            sys.stdout.write(result.text)
            continue
        if result.text == text:
            unchanged += 1
            continue
        changed += 1
        _report_change(path, text, result.text, args)
    _summary(changed, unchanged, broken, args)
    if unreadable:
        return 2
    if broken or (changed and (args.check or args.diff)):
        return 1
    return 0


def expand(paths: list[str]) -> list[str]:
    """Each folder as the `.agent` files under it (as `ruff format DIR` does); files and
    `-` as given, so a missing file is still reported by name."""
    out: list[str] = []
    for path in paths:
        folder = Path(path)
        if path == "-" or not folder.is_dir():
            out.append(path)
            continue
        found = (p for p in folder.rglob("*.agent") if p.is_file())
        out += sorted(str(p) for p in found if not _hidden(p.relative_to(folder)))
    return out


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") or part == "node_modules" for part in relative.parts[:-1])


def _report_change(path: str, old: str, new: str, args: argparse.Namespace) -> None:
    if args.diff:
        diff = difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            path,
            f"{path} (formatted)",
        )
        sys.stdout.writelines(line if line.endswith("\n") else line + "\n" for line in diff)
    if args.check:
        print(f"would reformat {path}")
    if not (args.check or args.diff):
        Path(path).write_text(new, encoding="utf-8", newline="")
        print(f"reformatted {path}", file=sys.stderr)


def _summary(changed: int, unchanged: int, broken: int, args: argparse.Namespace) -> None:
    def files(n: int) -> str:
        return f"{n} file{'s' if n != 1 else ''}"

    verb = "would be reformatted" if args.check or args.diff else "reformatted"
    parts = [f"{files(changed)} {verb}"] if changed else []
    if unchanged:
        parts.append(f"{files(unchanged)} already formatted")
    if broken:
        parts.append(f"{files(broken)} not formatted: fix the syntax errors first")
    if parts:
        print(", ".join(parts), file=sys.stderr)
