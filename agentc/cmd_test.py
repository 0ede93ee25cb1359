"""`agentc test [FILE|DIR…] [--update] [--junit FILE] [-k PATTERN] [--watch]`: run behaviour tests.

Input: test files or folders (default: the current folder; a folder gives every
`*.test.agent` under it). Output: each failure, located, then one summary line
(`3 passed, 1 failed in 0.4 s`); `--junit FILE` also writes JUnit XML. Exit 0 when every
test passed, 1 when one failed, a test file has errors or there was no test, 2 for a
path that is not there.
Invariants: offline — models are the file's scripted ones, the test's own, or a cassette
(`--update` records the cassettes again, with the real models: that alone goes online).
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time
from collections.abc import Callable
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="FILE|DIR", help="test files or folders (default: .)"
    )
    parser.add_argument(
        "--update", action="store_true", help="record every `replay` cassette again (online)"
    )
    parser.add_argument("--junit", metavar="FILE", help="also write the results as JUnit XML")
    parser.add_argument(
        "-k",
        dest="pattern",
        metavar="PATTERN",
        help="only tests whose name contains PATTERN (or matches it as a glob)",
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="test again, in a fresh process, each time a test file, the file it tests or "
        "anything that uses is saved (Ctrl-C stops)",
    )


def selector(pattern: str | None) -> Callable[[str], bool] | None:
    """`-k`: a test name's predicate (a part of the name, or a glob), or None for all."""
    if pattern is None:
        return None
    low = pattern.lower()
    return lambda name: low in name.lower() or fnmatch.fnmatch(name.lower(), low)


def watched(files: list[Path]) -> list[str]:
    """Each test file and the file it tests (`x.test.agent` → `x.agent`): the roots whose
    `use`d files are watched too."""
    from .compiler.testblocks import tested_path

    out: list[str] = []
    for path in files:
        target = tested_path(path.resolve())
        out += [str(path)] + ([str(target)] if target is not None else [])
    return out


def run(args: argparse.Namespace) -> int:
    from .agenttest.discover import MissingPath, test_files
    from .agenttest.report import counts, file_failures, junit_xml, summary
    from .agenttest.run import run_file

    start = time.perf_counter()
    try:
        files = test_files(args.paths)
    except MissingPath as exc:
        print(f"agentc test: {exc}", file=sys.stderr)
        return 2
    if args.watch:  # agentc/watch.py; tests import the user's Python anew
        from .watch import watch_command

        return watch_command(args, run, watched(files), fresh_process=True)
    results = []
    for path in files:
        result = run_file(path, update=args.update, select=selector(args.pattern))
        results.append(result)
        for text in file_failures(result):
            print(text)
    seconds = time.perf_counter() - start
    print(summary(results, seconds))
    if args.junit:
        Path(args.junit).write_text(junit_xml(results, seconds), encoding="utf-8")
    passed, failed, broken = counts(results)
    if not (passed or failed or broken):
        where = " ".join(args.paths) or "."
        print(
            f"agentc test: no tests found in {where} (they live in NAME.test.agent files)",
            file=sys.stderr,
        )
        return 1
    return 1 if failed or broken else 0
