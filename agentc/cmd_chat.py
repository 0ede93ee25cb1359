"""`agentc chat FILE`: a conversation with an agent or graph on one thread, in the terminal.

Input: an `.agent` file; then, line by line, the user's messages (from a terminal with line
editing, or from a script piped to stdin) and slash commands (`/new`, `/state`, `/undo`,
`/model NAME`, `/help`, `/quit`). Each line is sent on the thread as `agentc run` sends its
input; the answer streams as it is written, tool calls and results shown on a line each,
and a human-review pause is answered at the prompt (approve / edit / reject / respond).
Without `--agent`, the graph is chosen as `agentc run` chooses it. `--thread ID` continues
a saved thread; `--model` answers with another model (as `agentc run --model`);
`--context`, `--record`, `--replay` and `--durability` are `agentc run`'s.

Exit codes: 0 at `/quit` or the end of input; 130 for Ctrl-C at the prompt (Ctrl-C while
an answer streams stops only that answer); 1 the file does not compile; 2 usage errors
(unreadable files, an unknown `--agent`, a bad `--context` or `--model`). A turn that fails
is one paragraph on stderr, and the chat goes on.

Invariants: this module reads the command line and hands a `Chat` to `agentc/chat/`;
nothing is imported from the runtime until the command line has been checked.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .api import LoadError, PickError, choose_graph, compile_cached
from .dotenv import load_and_say
from .runner.errors import RunSite, UsageError, describe_error
from .runner.inputs import readable, writable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the .agent file")
    parser.add_argument(
        "--agent",
        metavar="NAME",
        help="which agent or graph (default: the only one, else the one no other uses)",
    )
    parser.add_argument("--thread", metavar="ID", help="continue (or start) this saved thread")
    parser.add_argument(
        "--model", metavar="SPEC", help="chat with this model instead (e.g. openai:gpt-4o-mini)"
    )
    parser.add_argument(
        "--context",
        metavar="JSON",
        help='the run context, a JSON object nodes read as ctx.context (\'{"user_id": "u1"}\')',
    )
    tape = parser.add_mutually_exclusive_group()
    tape.add_argument("--record", metavar="FILE", help="save every model exchange to FILE")
    tape.add_argument(
        "--replay",
        metavar="FILE",
        help="answer model calls from FILE (recorded with --record): no network, no API key",
    )
    parser.add_argument(
        "--durability",
        choices=("sync", "async", "exit"),
        help="when each step is saved (F11); default: the file's, else sync",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="show whole values, and tracebacks on errors"
    )


def run(args: argparse.Namespace) -> int:
    site = RunSite()
    try:
        return _run(args, site)
    except KeyboardInterrupt:  # before the chat began (compiling, binding)
        print(file=sys.stderr)
        return 130
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # one paragraph, never a traceback
        if args.verbose:
            import traceback

            traceback.print_exc()
        print(describe_error(exc, site), file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, site: RunSite) -> int:
    readable("the .agent file", args.file)
    if args.replay:
        readable("the cassette", args.replay)
    if args.record:
        writable("the cassette", args.record)
    load_and_say(args.file, args.verbose)  # `.env` files, as `agentc run` loads them
    try:
        program = compile_cached(args.file)
    except LoadError as exc:
        if isinstance(exc, PickError):
            raise UsageError(str(exc)) from None
        print(str(exc), file=sys.stderr)
        return 1
    try:
        choice = choose_graph(program, args.agent, args.file, verb="chat with")
    except PickError as exc:
        raise UsageError(str(exc)) from None
    note = choice.note("chatting with", "chat with")
    if note:
        print(note, file=sys.stderr)
    site.program, site.graph = program, choice.graph
    return _chat(args, site)


def _chat(args: argparse.Namespace, site: RunSite) -> int:
    from .chat.commands import Chat, chat
    from .chat.reader import Reader
    from .chat.session import ChatSession, Setup
    from .chat.view import ChatView
    from .runner.calls import CallCount, counting_source
    from .runner.cassettes import cassette_source
    from .runner.given import context_value

    program, graph = site.program, site.graph
    assert program is not None and graph is not None, "chosen before the chat starts"
    context = context_value(program, graph, args.context)
    base_dir = str(Path(args.file).resolve().parent)
    durability = args.durability or graph.checkpoint.durability or "sync"
    setup = Setup(program, graph, base_dir, args.thread, context, durability)
    source = counting_source(cassette_source(args, graph), CallCount())
    from agentc.stdlib.models import model_source  # the runtime's import: paid by chats only

    # as `agentc run`: models are built through the cassette source, and `scripted:PATH`
    # and Python modules are found beside the `.agent` file
    with model_source(source, base_dir=base_dir):
        session = ChatSession(setup)
        if args.model:
            try:
                session.switch_model(args.model)
            except ValueError as exc:  # a model string no provider serves
                raise UsageError(f"--model {args.model}: {exc}") from None
        site.thread = session.thread
        out = sys.stdout
        reader = Reader(sys.stdin, out)
        view = ChatView(out, graph, full=args.verbose)
        return chat(Chat(session, reader, view, out, sys.stderr, args.file, args.verbose))
