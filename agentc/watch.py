"""`--watch`: run a command again each time its file, or anything the file uses, is saved.

Input: `run_once()` (one check, run or test; its exit code) and the `.agent` files it reads
(`roots`), plus any other file it reads (`extra`: `--input-file`, `--decisions`, …). Output:
exit 0 once the person presses Ctrl-C: watching ends only that way, so no run's code is
kept. Between runs the files are polled (their stat: modification time, size, inode) every
`poll` seconds; a change is acted on once the files have held still for `settle` seconds (an
editor's save is often several writes, or a write and a rename). Each run again is preceded
by one header line on stderr naming what changed; nothing on the screen is cleared.

The watched set is recomputed after every run from the compiler's own `use` resolution
(`compiler.resolve.Loader`): each root, every `.agent` file it uses (recursively), every
Python module it uses, and every `scripted:PATH` reply file the compiled program names.
A watched file that disappears stays watched until it comes back; a root that is gone is
waited for rather than run. Invariants: nothing is imported or executed to find the files
(the checker's rule); a file that does not parse is the run's diagnostic, never the
watcher's failure; Ctrl-C during a run or a wait ends the watch with no traceback.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from .compiler.symbols import FileUnit

POLL_S = 0.25  # between two looks at the files
SETTLE_S = 0.1  # the files must hold still this long before a run
CHILD_GRACE_S = 2.0  # after Ctrl-C, a run in its own process gets this long, twice, to stop

Stamp = tuple[int, int, int] | None  # (mtime_ns, size, inode); None: no file there
Snapshot = dict[Path, Stamp]


def watch(
    run_once: Callable[[], object],
    roots: Sequence[str | Path],
    *,
    title: str,
    extra: Iterable[str | Path | None] = (),
    out: TextIO | None = None,
    poll: float = POLL_S,
    settle: float = SETTLE_S,
) -> int:
    """Run `run_once`, then again after each change to `roots` or what they use, until
    Ctrl-C (exit 0). `title` names the command in each header (`agentc check`)."""
    say = _sayer(out)
    try:
        _loop(run_once, _Plan(tuple(map(Path, roots)), _paths(extra), title), say, poll, settle)
    except KeyboardInterrupt:
        say("stopped watching")
    return 0


@dataclass(frozen=True)
class _Plan:
    roots: tuple[Path, ...]
    extra: frozenset[Path]
    title: str


def _loop(
    run_once: Callable[[], object],
    plan: _Plan,
    say: Callable[[str], None],
    poll: float,
    settle: float,
) -> None:
    watched: set[Path] = set()
    while True:
        run_once()
        _flush()
        watched = next_watched(plan.roots, plan.extra, watched)
        before = snapshot(watched)
        say(f"watching {_count(len(watched))}; Ctrl-C stops")
        what = _next_change(before, plan.roots, say, poll, settle)
        say(f"{_names(what)} changed: {plan.title} again ({time.strftime('%X')})")


def _next_change(
    before: Snapshot, roots: Sequence[Path], say: Callable[[str], None], poll: float, settle: float
) -> list[Path]:
    """The files that changed since `before`, once every root is there (a root that is gone
    is said once per change and waited for)."""
    start = before
    while True:
        after = wait_for_change(before, poll, settle)
        missing = [r for r in roots if after.get(r.resolve()) is None]
        if missing:
            gone = "is gone; waiting for it" if len(missing) == 1 else "are gone; waiting for them"
            say(f"{_names(missing)} {gone} to come back")
        elif what := changed(start, after):
            return what
        before = after


def wait_for_change(before: Snapshot, poll: float = POLL_S, settle: float = SETTLE_S) -> Snapshot:
    """Poll until some file of `before` differs, then until the files hold still; the
    snapshot they settled in."""
    while (now := snapshot(before)) == before:
        time.sleep(poll)
    while True:
        time.sleep(settle)
        later = snapshot(before)
        if later == now:
            return later
        now = later


def snapshot(paths: Iterable[Path]) -> Snapshot:
    return {p: stamp(p) for p in paths}


def stamp(path: Path) -> Stamp:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def changed(before: Mapping[Path, Stamp], after: Mapping[Path, Stamp]) -> list[Path]:
    return sorted(p for p in after if before.get(p) != after[p])


# ---------------------------------------------------------------- which files a program reads


@dataclass(frozen=True)
class Dependencies:
    """The files a root reads; `complete` is False when the compile stopped early (a syntax
    or other error), so reply files the program would name are not all known."""

    files: frozenset[Path]
    complete: bool


def next_watched(roots: Iterable[Path], extra: Iterable[Path], old: set[Path]) -> set[Path]:
    """What to watch after a run: the roots' dependencies and `extra`, plus every file of
    `old` that is missing now (it is waited for) or may still matter (the compile stopped
    before naming it)."""
    found = [dependencies(r) for r in roots]
    now = set(extra).union(*(d.files for d in found))
    complete = all(d.complete for d in found)
    return now | {p for p in old if not complete or stamp(p) is None}


def dependencies(root: str | Path) -> Dependencies:
    """The files `root` reads, resolved: itself, the `.agent` files it uses (recursively),
    the Python modules it uses (where they would be, when a file target is missing), and
    the `scripted:PATH` reply files of its compiled program. Nothing is imported."""
    from .compiler.pipeline import compile_source
    from .compiler.resolve import Loader
    from .dsl.parse import parse

    path = Path(root).resolve()
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return Dependencies(frozenset({path}), complete=False)
    parsed = parse(text, str(root))
    if parsed.module is None:
        return Dependencies(frozenset({path}), complete=False)
    loader = Loader.new()
    files = _used_files(loader.load_root(parsed.module, parsed.source, path))
    program = compile_source(text, str(root), base_dir=path.parent).program
    if program is None:
        return Dependencies(frozenset(files | {path}), complete=False)
    replies = _reply_files(program.model_dump(mode="json"), path.parent)
    return Dependencies(frozenset(files | replies | {path}), complete=True)


def _used_files(root: FileUnit) -> set[Path]:
    """Every file the loaded units name: each unit's own path, its Python modules as the
    loader found them, and the place of each file target (`./x.py`, `y.agent`) even when
    nothing is there yet."""
    from .compiler.pyscan import is_file_target
    from .dsl import ast

    out: set[Path] = set()
    todo: list[FileUnit] = [root]
    seen: set[int] = set()
    while todo:
        unit = todo.pop()
        if id(unit) in seen:
            continue
        seen.add(id(unit))
        if unit.path is not None:
            out.add(unit.path.resolve())
        for use in unit.items(ast.UseDecl):
            target = use.target.value
            if "://" not in target and (target.endswith(".agent") or is_file_target(target)):
                out.add((unit.base_dir / target).resolve())
        out |= {Path(m.path).resolve() for m in unit.python.values() if m is not None}
        todo += [u for u in unit.agent_files.values() if u is not None]
    return out


def _reply_files(value: Any, base: Path) -> set[Path]:
    """`scripted:PATH` model strings anywhere in the dumped program (a model node's spec,
    a middleware's `model:` option), as files beside the root."""
    out: set[Path] = set()
    todo = [value]  # a loop, not recursion: configuration may nest deeply
    while todo:
        item = todo.pop()
        if isinstance(item, str) and item.startswith("scripted:") and len(item) > 9:
            out.add((base / item.removeprefix("scripted:")).resolve())
        elif isinstance(item, dict):
            todo += item.values()
        elif isinstance(item, list):
            todo += item
    return out


# ---------------------------------------------------------------- the commands' entry point


def watch_command(
    args: argparse.Namespace,
    run: Callable[[argparse.Namespace], int],
    roots: Sequence[str],
    *,
    extra: Iterable[str | None] = (),
    fresh_process: bool = False,
) -> int:
    """`agentc COMMAND --watch`: `run(args)` without `--watch`, again on each save.

    `fresh_process`: each run is a new `agentc` process with the same command line (so an
    edited Python module is imported anew, and nothing a run left behind leaks into the
    next); when this process is not `agentc` itself (`main(argv)` called from Python) the
    runs stay in this process."""
    once = argparse.Namespace(**{**vars(args), "watch": False})
    argv = _own_command_line(args.command) if fresh_process else None
    run_once = in_fresh_process(argv) if argv is not None else (lambda: run(once))
    return watch(run_once, roots, title=f"agentc {args.command}", extra=extra)


def in_fresh_process(argv: Sequence[str]) -> Callable[[], int]:
    """A `run_once` that runs `agentc *argv` as a child process (stdio inherited)."""

    def once() -> int:
        child = subprocess.Popen([sys.executable, "-m", "agentc", *argv])
        try:
            return child.wait()
        except KeyboardInterrupt:
            _stop(child)
            raise

    return once


def _stop(child: subprocess.Popen[bytes]) -> None:
    """After Ctrl-C: a terminal sent it to the child too, so it is given a moment to stop on
    its own (a second SIGINT could land in its own clean-up); else it is sent one, then killed."""
    for nudge in (None, signal.SIGINT, signal.SIGKILL):
        if nudge is not None:
            child.send_signal(nudge)
        try:
            child.wait(timeout=CHILD_GRACE_S)
            return
        except subprocess.TimeoutExpired:
            continue


def _own_command_line(command: str) -> list[str] | None:
    """This process's `agentc` arguments without `--watch` (or an abbreviation argparse
    took for it), or None when `sys.argv` is not an `agentc COMMAND … --watch` line."""
    argv = sys.argv[1:]
    flag = [a for a in argv if len(a) > 3 and "--watch".startswith(a)]
    if command not in argv or not flag:
        return None
    return [a for a in argv if a not in flag]


def _paths(items: Iterable[str | Path | None]) -> frozenset[Path]:
    return frozenset(Path(i).resolve() for i in items if i is not None)


def _sayer(out: TextIO | None) -> Callable[[str], None]:
    def say(line: str) -> None:
        print(f"-- {line}", file=out or sys.stderr, flush=True)

    return say


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: nothing more to say there
            pass


def _count(n: int) -> str:
    return f"{n} file" if n == 1 else f"{n} files"


def _names(paths: Sequence[Path]) -> str:
    shown = [_shown(p) for p in paths]
    if len(shown) <= 2:
        return " and ".join(shown)
    return f"{shown[0]}, {shown[1]} and {len(shown) - 2} more"


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
