"""`agentc run FILE`: run an agent or graph and print a readable transcript.

Input: an `.agent` file and the user's input (`--input`, `--input-file`, stdin when it is
not a terminal, else the message typed at a `you> ` prompt; a `--thread` that has nothing to
continue asks or says so too): text is the user's message, a JSON object sets input channels
(agents and graphs alike), as `--set KEY=VALUE` does; `--context '{…}'` is the run context.
Without `--agent`, a file with several agents and graphs runs the one no other uses (and
says so on stderr), else refuses with the names. Output on stdout: who said what, each
node's update (the channels it wrote), tool calls with their arguments, tool results, each
task's own time (measured from the moment its step started to the moment the task finished,
as the runtime reports them) and token usage where known, then the final answer (or the
structured response) and the `-- done` line, which counts every model call of the run (model
nodes, agents, agents as tools, and Python nodes calling a model of their own through
`agentc.models.init_chat_model`) with the tokens the providers reported. `--json`
prints the final state as JSON and nothing else on stdout. `--stream` prints model text
and tool-call arguments as they arrive. `--record FILE` saves every exchange with the
agent's model to a cassette (keys never written), `--replay FILE` serves them back with no
network and no key. With more than one caller (sub-agents, model nodes) each one's calls and
tokens follow the `-- done` line. A provider call that is retried says so as it waits
(`retrying openai:gpt-4.1-mini after HTTP 429 (retry-after 1 s), attempt 2 of 3`); private
bookkeeping channels (`jump_to`, a middleware's private state) are never shown. A `.env`
beside the file and one in the working directory are loaded first (a variable already set
wins; `--verbose` names each file and the variables it set, never a value).

Exit codes: 0 success; 1 the file does not compile, the run fails (one clear paragraph,
no traceback; `--verbose` adds it; a failing node is named by its path, `node `sub` ›
`inner` failed: ValueError: …`, after the `.agent` line that declares it), or it stops
without an answer because the model's last reply held only tool calls whose arguments could
not be read (`-- stopped: …`; create_agent ends such a run normally); 2 usage errors
(unknown or ambiguous `--agent`, input channels the graph does not take or values not of
their type, a `--context` that does not fit the graph's context schema) and unreadable
files, checked before anything runs. `--thread ID` continues a saved conversation: when the
file declares no checkpointer the CLI keeps threads in the embedded SQLite store
`.agentc/state.db` under the current directory; a `checkpoint memory` thread is gone when
the process ends, so the summary says it is not kept (and how to keep it) instead of
offering `--thread`. At an interrupt the question is printed
and, on a terminal (or with `--decisions FILE`), the answer is read and the run resumed.

Input: the parsed command line (`add_arguments`). Output: the exit code of `run(args)` and
the transcript on stdout. Invariants: this module sequences the rooms of `agentc/runner/`
(inputs → given → calls → session → transcript → summary) and owns only the exit codes;
nothing is imported from the runtime until the command line has been checked, except what
the console script preloads for every run (`PRELOAD`, agentc/cli.py).
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .api import LoadError, PickError, choose_graph, compile_cached
from .dotenv import load_and_say
from .runner.calls import CallCount, counting_source
from .runner.cassettes import cassette_source
from .runner.errors import RunSite, UsageError, describe_error
from .runner.given import context_value, input_value, parse_sets, split_input
from .runner.inputs import ask_message, check_files, read_input, with_model
from .runner.lines import input_lines
from .runner.session import bind, drive, has_saved_run, keeps_threads
from .runner.summary import finish, print_budgets, show_endpoints
from .runner.transcript import Transcript, hidden_channels
from .tracing.cli import add_trace_arguments, check_trace_arguments, trace_settings, traced

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.stdlib.models import ModelSource


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the .agent file")
    parser.add_argument(
        "--agent",
        metavar="NAME",
        help="which agent or graph (default: the only one, else the one no other uses)",
    )
    src = parser.add_mutually_exclusive_group()
    src.add_argument(
        "--input",
        metavar="TEXT",
        help='the user\'s message, or a JSON object of input channels (\'{"topic": "cats"}\')',
    )
    src.add_argument("--input-file", metavar="F", help="read --input's text or JSON from F")
    parser.add_argument(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        help="set input channel KEY (VALUE read as JSON when it parses, else text); repeatable",
    )
    parser.add_argument(
        "--context",
        metavar="JSON",
        help='the run context, a JSON object nodes read as ctx.context (\'{"user_id": "u1"}\')',
    )
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
    parser.add_argument(
        "--watch",
        action="store_true",
        help="run again, in a fresh process, each time the file or anything it uses is saved",
    )
    add_trace_arguments(parser)  # --trace WHERE, --trace-content (agentc/tracing/cli.py)


def run(args: argparse.Namespace) -> int:
    if args.watch:  # agentc/watch.py: this run again on each save
        from .watch import watch_command

        extra = (args.input_file, args.decisions, args.replay)
        return watch_command(args, run, [args.file], extra=extra, fresh_process=True)
    site = RunSite()  # where a failing node is declared, once the program is known
    try:
        return _run(args, sys.stdout, site)
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
        _saved_thread(site)
        return 130
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # every failure is one paragraph, never a traceback
        if args.verbose:
            import traceback

            traceback.print_exc()
        print(describe_error(exc, site), file=sys.stderr)
        _saved_thread(site)
        return 1


def _saved_thread(site: RunSite) -> None:
    line = site.saved_thread_line()
    if line is not None:
        print(line, file=sys.stderr)


def _run(args: argparse.Namespace, out: TextIO, site: RunSite) -> int:
    check_files(args)
    _dotenv(args)
    check_trace_arguments(args)  # a bad --trace is a usage error before anything runs
    text, channels = split_input(read_input(args))
    sets = parse_sets(args.set)
    try:
        program = _compiled(args.file)
    except LoadError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    graph = _chosen(program, args)
    site.program, site.graph = program, graph
    site.kept = keeps_threads(graph)
    if text is None and channels is None and not sets and args.thread is None:
        text = ask_message(graph)  # a person at a terminal types the message (else None)
    value = input_value(program, graph, text, channels, sets, resuming=args.thread is not None)
    context = context_value(program, graph, args.context)
    base_dir = str(Path(args.file).resolve().parent)
    if args.model:
        if graph.agent is None:  # a graph block's model nodes each name their own model
            raise UsageError(
                f"--model replaces an agent's model, and `{graph.name}` is a graph block whose "
                "model nodes name their own models: change them in the file"
            )
        program = site.program = with_model(program, graph.name, args.model)
    calls = CallCount()  # every model of the run counts its calls here (`runner/calls.py`)
    source = counting_source(cassette_source(args, graph), calls)
    from agentc.stdlib.models import model_source  # the runtime's import: paid by runs only

    # The whole run sits inside the cassette source and the file's directory, so a model a
    # Python node makes mid-run (`agentc.models.init_chat_model`) is recorded / replayed and
    # finds `scripted:PATH` beside the `.agent` file, as the file's own model strings do.
    with model_source(source, base_dir=base_dir):
        return _bound_run(args, out, site, value, context, base_dir, source, calls)


def _bound_run(
    args: argparse.Namespace,
    out: TextIO,
    site: RunSite,
    value: dict[str, Any] | None,
    context: dict[str, Any] | None,
    base_dir: str,
    source: ModelSource,
    calls: CallCount,
) -> int:
    program, graph = site.program, site.graph
    assert program is not None and graph is not None, "bound after the graph was chosen"
    compiled, config = bind(program, graph, base_dir, args.thread, source, context)
    if value is None and not has_saved_run(compiled, config):
        value = _fresh_input(program, graph, config.thread_id)
    elif value is None and graph.agent is not None and not has_saved_run(compiled, config, True):
        value = _next_message(program, graph, config.thread_id)  # its last run had ended
    if args.thread is None:  # a thread made for this run: the user has no way to know it
        site.thread = config.thread_id
    if not site.kept and args.thread is not None:
        print(
            f"note: `checkpoint memory` keeps no thread between runs, so thread "
            f"{args.thread} starts empty here",
            file=sys.stderr,
        )
    if site.thread and sys.stderr.isatty():
        # a person watching learns the new thread before anything can go wrong (a kill
        # leaves no chance to say it later); piped runs get it in the summary and on failure
        kept = "" if site.kept else " (in memory only: gone when this run ends)"
        print(f"thread: {site.thread}{kept}", file=sys.stderr)
    printer = _printer(args, graph, out, calls)
    if not args.json:
        if args.verbose:
            show_endpoints(graph, out)
        for line in input_lines(value, printer.conversations):
            print(line, file=out)
    durability = args.durability or graph.checkpoint.durability or "sync"
    from agentc.stdlib.providers.retry_events import listening

    with listening(printer.retry), traced(compiled, trace_settings(args, graph.trace)):
        result = drive(compiled, value, config, printer, durability)  # retries told as they wait
    code = finish(result, args, out, config, printer, kept=site.kept)
    if not args.json:
        print_budgets(compiled, config, out)
    return code


def _compiled(path: str) -> ir.Program:
    """`compile_cached`; in the `agentc` process itself (its preload froze what it imported:
    `agentc/cli.py`), what a compile leaves alive is frozen too, as it lives as long as the
    run: the collector's first pass after it would walk the whole compiler once more."""
    if not gc.get_freeze_count():  # `main(argv)` called by a program: its collector as it is
        return compile_cached(path)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return compile_cached(path)
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def _chosen(program: ir.Program, args: argparse.Namespace) -> ir.Graph:
    """`--agent NAME`, else the file's only graph or the one no other uses (said on
    stderr); an unknown or unclear choice is a usage error."""
    try:
        choice = choose_graph(program, args.agent, args.file)
    except PickError as exc:
        raise UsageError(str(exc)) from None
    note = choice.note("running", "run")
    if note:
        print(note, file=sys.stderr)
    return choice.graph


def _printer(
    args: argparse.Namespace, graph: ir.Graph, out: TextIO, calls: CallCount
) -> Transcript:
    return Transcript(
        out,
        quiet=args.json,
        stream=args.stream and not args.json,
        decisions=args.decisions,
        full=args.verbose,
        graph_block=graph.agent is None,  # a `graph` block, not an agent's template
        conversations=frozenset(c.name for c in graph.state if c.type.display == "messages"),
        calls=calls,
        hidden=hidden_channels(graph),
    )


def _fresh_input(program: ir.Program, graph: ir.Graph, thread: str | None) -> dict[str, Any]:
    """`--thread ID` with no input, on a thread with nothing saved: nothing to continue, so
    the run starts; an agent's message is asked for at a terminal, else named as --input."""
    text = ask_message(graph)
    if text is None and graph.agent is not None:
        raise UsageError(
            f"thread {thread} has no saved run to continue; give `{graph.name}` the user's "
            "message with --input TEXT (or pipe it to stdin)"
        )
    return input_value(program, graph, text, None, {}, resuming=False) or {}


def _next_message(program: ir.Program, graph: ir.Graph, thread: str | None) -> dict[str, Any]:
    """`--thread ID` with no input, on an agent's thread whose last run ended: the next
    message, typed at a terminal, else named as --input (nothing would run without it)."""
    text = ask_message(graph)
    if text is None:
        raise UsageError(
            f"thread {thread} has finished its last run, so there is nothing to continue; "
            f"give `{graph.name}` the next message with --input TEXT"
        )
    return input_value(program, graph, text, None, {}, resuming=False) or {}


def _dotenv(args: argparse.Namespace) -> None:
    """`.env` beside the file and in the working directory (`agentc/dotenv.py`); with
    `--verbose` each file and the names it set are said on stderr, never a value."""
    load_and_say(args.file, args.verbose)
