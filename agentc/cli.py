"""The `agentc` command line: one module per subcommand, dispatched from here.

Input: the command line (`argv`, else `sys.argv`). Output: the exit code of the chosen
command: 0 clean, 1 errors in the user's files or the run, 2 usage or unreadable input.
Invariants: each subcommand module exposes `add_arguments(parser)` and `run(args) -> int`
and is imported only when chosen, so `agentc check` never pays for the runtime's imports.
From the command line, what a chosen command always imports (`PRELOAD`) is imported first
with the cyclic collector paused, then frozen out of its sight (`_preload`).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys

from .version import __version__

# name → (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("agentc.cmd_check", "check .agent files and report every mistake, located"),
    "ir": ("agentc.cmd_ir", "print the compiled IR of an .agent file as JSON"),
    "run": ("agentc.cmd_run", "run an agent or graph, streaming a readable transcript"),
    "graph": ("agentc.cmd_graph", "draw the compiled graph (mermaid, dot, svg, png, html)"),
    "explain": ("agentc.cmd_explain", "the decision map: who holds each seat in this agent"),
    "chat": ("agentc.cmd_chat", "talk with an agent on one thread, answers streaming"),
    "fmt": ("agentc.cmd_fmt", "rewrite .agent files in the one canonical layout"),
    "lsp": ("agentc.cmd_lsp", "the language server for editors (speaks LSP on stdin/stdout)"),
    "serve": ("agentc.cmd_serve", "serve agents over HTTP with the LangGraph Agent Server API"),
    "worker": ("agentc.cmd_worker", "run served agents' runs as durable workflows on PostgreSQL"),
    "studio": ("agentc.cmd_studio", "a local web page to chat, watch the graph and travel in time"),
    "test": ("agentc.cmd_test", "run the behaviour tests written beside agents (*.test.agent)"),
    "new": ("agentc.cmd_new", "write a ready project: an .agent file, its tools and its tests"),
}


def build_parser(chosen: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agentc", description="Check, draw and run .agent files.")
    parser.add_argument("--version", action="version", version=f"agentc {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        cmd = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            importlib.import_module(module).add_arguments(cmd)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command. `argv` None means this process is `agentc` itself (the console
    script or `python -m agentc`), which will exit as soon as this returns."""
    from_command_line = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in argv if not a.startswith("-")), None)
    chosen = chosen if chosen in COMMANDS else None
    paused = from_command_line and chosen in PRELOAD and gc.isenabled()
    if paused:  # the command's own module imports unwatched too; `_preload` freezes it all
        gc.disable()
    parser = build_parser(chosen)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse: 0 for --help/--version, 2 for usage
        return int(exit_.code or 0)
    if args.command is None:
        parser.print_help()
        return 2
    if from_command_line and args.command in RECORDS_ONLY:
        from .ir.construct import use_records

        use_records()
    if from_command_line:
        try:
            _preload(args.command, paused)
        except KeyboardInterrupt:  # as `agentc run` says it once running (cmd_run.run)
            print("\nstopped", file=sys.stderr)
            return 130
    try:
        code = importlib.import_module(COMMANDS[args.command][0]).run(args)
    except BrokenPipeError:  # `agentc explain f.agent | head`: the reader stopped reading
        if not from_command_line:
            raise
        _silence_stdout()
        return SIGPIPE_EXIT
    if from_command_line and args.command in QUICK_EXIT:
        _before_exit()
    return code


SIGPIPE_EXIT = 141  # what a shell reports for a writer killed by SIGPIPE (128 + 13)

# What every run that gets past its command line imports anyway: the IR, the runtime, the
# message types and the model source (a compile or usage error then pays for them too).
PRELOAD: dict[str, tuple[str, ...]] = {
    "run": ("agentc.ir.program", "agentc.runtime", "agentc.stdlib.models"),
}
# Commands that only check: from the command line the process builds the IR as plain
# records (`ir/records.py`) and never imports pydantic's models, since nothing validates.
RECORDS_ONLY = frozenset({"check"})
# Commands whose first pydantic validator may learn "no plugins" without pydantic's scan of
# every installed distribution (`agentc/runner/plugin_scan.py`).
PLUGIN_SCAN_SKIPPED = frozenset({"run"})


def _preload(command: str, paused: bool = False) -> None:
    """Import the command's big modules with the cyclic collector off, then freeze them.

    Imports allocate objects that live as long as the process; each collection during the
    imports walks all of them again (about a twentieth of a cached `agentc run`). Frozen
    (`gc.freeze`), the collector never walks them again, and everything the run itself
    allocates afterwards is collected as usual. `paused`: the caller turned the collector
    off already (for the command module's own imports), to be turned on here.
    """
    if command in PLUGIN_SCAN_SKIPPED:
        from .ircache import cache_dir
        from .runner.plugin_scan import skip_when_none

        skip_when_none(cache_dir().parent / "pydantic-plugins.json")
    modules = PRELOAD.get(command, ())
    if not modules:
        if paused:
            gc.enable()
        return
    was_enabled = gc.isenabled() or paused
    gc.disable()
    try:
        for module in modules:
            importlib.import_module(module)
    except Exception:  # a broken install: the command imports it again and says so its way
        pass
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush of the unread output
    does not raise (and print) a second BrokenPipeError at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


# Commands after which the process only exits: nothing they made needs a finalizer. A run
# has closed its clients, joined its savers' writer threads (at exit, before this pass)
# and flushed its trace and cassette files itself, so its objects need no last collection.
QUICK_EXIT = frozenset({"check", "ir", "run"})


def _before_exit() -> None:
    """Skip the cyclic collector's last pass over every imported object at exit.

    Interpreter shutdown runs a full collection; after `check` has imported pydantic,
    lark and the compiler that pass alone takes ~40 ms of a ~250 ms cold start, and it
    frees nothing a short-lived process needs freed. `gc.freeze` is the supported way
    to exempt the objects alive now from it.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    gc.freeze()
