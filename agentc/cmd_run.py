"""`agentc run FILE`: run an agent or graph and print a readable transcript.

Input: an `.agent` file and the user's input (`--input`, `--input-file`, or stdin when it is
not a terminal). Output on stdout: who said what, tool calls with their arguments, tool
results, each task's own time (measured from the moment its step started to the moment the
task finished, as the runtime reports them) and token usage where known, then the final
answer (or the structured response). `--json` prints the final state as JSON and nothing
else on stdout. `--stream` prints model text and tool-call arguments as they arrive.
`--record FILE` saves every exchange with the agent's model to a cassette (keys never
written), `--replay FILE` serves them back with no network and no key.

Exit codes: 0 success; 1 the file does not compile or the run fails (one clear paragraph,
no traceback; `--verbose` adds it); 2 usage errors and unreadable files. `--thread ID`
continues a saved conversation: when the file declares no checkpointer the CLI keeps
threads in the embedded SQLite store `.agentc/state.db` under the current directory. At an
interrupt the question is printed and, on a terminal (or with `--decisions FILE`), the
answer is read and the run resumed.

Input: the parsed command line (`add_arguments`). Output: the exit code of `run(args)` and
the transcript on stdout. Invariants: this module sequences the rooms of `agentc/runner/`
(inputs → session → transcript → summary) and owns only the exit codes; nothing is
imported from the runtime until the command line has been checked.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from .api import LoadError, compile_cached, pick_graph
from .runner.cassettes import cassette_source
from .runner.errors import UsageError, describe_error
from .runner.inputs import check_files, read_input, run_input, with_model
from .runner.session import bind, drive
from .runner.summary import finish, print_budgets, show_endpoints
from .runner.transcript import Transcript


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the .agent file")
    parser.add_argument(
        "--agent",
        metavar="NAME",
        help="which agent or graph (default: the only one, else the first agent)",
    )
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--input", metavar="TEXT", help="the user's message")
    src.add_argument("--input-file", metavar="F", help="read the user's message from F")
    parser.add_argument("--thread", metavar="ID", help="continue (or start) this saved thread")
    parser.add_argument(
        "--model", metavar="SPEC", help="run with this model instead (e.g. openai:gpt-4o-mini)"
    )
    parser.add_argument(
        "--stream",
        action="store_true",
        help="print model text and tool-call arguments as they arrive",
    )
    parser.add_argument("--json", action="store_true", help="print only the final state, as JSON")
    tape = parser.add_mutually_exclusive_group()
    tape.add_argument("--record", metavar="FILE", help="save every model exchange to FILE")
    tape.add_argument(
        "--replay",
        metavar="FILE",
        help="answer model calls from FILE (recorded with --record): no network, no API key",
    )
    parser.add_argument(
        "--decisions",
        metavar="FILE",
        help="answer human-review pauses from "
        "FILE (JSON: one resume value, or a list used in turn)",
    )
    parser.add_argument(
        "--durability",
        choices=("sync", "async", "exit"),
        help="when each step is saved (F11); default: the file's "
        "`checkpoint …(durability: …)`, else sync, so a crash loses no "
        "completed step",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="show where model calls go, whole tool results, and tracebacks on errors",
    )


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args, sys.stdout)
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
        return 130
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # every failure is one paragraph, never a traceback
        if args.verbose:
            import traceback

            traceback.print_exc()
        print(describe_error(exc), file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, out: TextIO) -> int:
    check_files(args)
    text = read_input(args)
    try:
        program = compile_cached(args.file)
        graph = pick_graph(program, args.agent, args.file)
    except LoadError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    base_dir = str(Path(args.file).resolve().parent)
    if args.model:
        program = with_model(program, graph.name, args.model)
    compiled, config = bind(program, graph, base_dir, args.thread, cassette_source(args, graph))
    value = run_input(graph, text, resuming=args.thread is not None)
    if not args.json:
        if args.verbose:
            show_endpoints(graph, out)
        if text is not None and value is not None and "messages" in value:
            print(f"you: {text}", file=out)
    printer = Transcript(
        out,
        quiet=args.json,
        stream=args.stream and not args.json,
        decisions=args.decisions,
        full=args.verbose,
    )
    durability = args.durability or graph.checkpoint.durability or "sync"
    result = drive(compiled, value, config, printer, durability)
    code = finish(result, args, out, config, printer)
    if not args.json:
        print_budgets(compiled, config, out)
    return code
