"""What `agentc run` is given: the files on its command line and the user's input.

Input: the parsed command line. Output: `check_files` (raises `UsageError` before any work
when a named file cannot be read or the cassette cannot be written), `read_input` (the
user's text from `--input`, `--input-file` or a piped stdin, which is not read with
`--set`; `given.py` reads it as a message or as channel values), `ask_message` (at a
terminal with nothing given: the message typed on a prompt line), `with_model` (the program
with `--model` in place of the agent's model). Invariants: nothing is compiled or run here;
a terminal stdin is read only by `ask_message`, one line, after a prompt.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import UsageError

if TYPE_CHECKING:
    import agentc.ir as ir


def check_files(args: argparse.Namespace) -> None:
    """Exit 2 before any work when a named file cannot be read (or written)."""
    readable("the .agent file", args.file)
    if args.input_file:
        readable("the input file", args.input_file)
    if args.decisions:
        readable("the decisions file", args.decisions)
    if args.replay:
        readable("the cassette", args.replay)
    if args.record:
        writable("the cassette", args.record)


def readable(what: str, path: str) -> None:
    try:
        with open(path, "rb") as f:
            f.read(1)
    except OSError as exc:
        raise UsageError(f"cannot read {what} {path!r}: {exc.strerror or exc}") from None


def writable(what: str, path: str) -> None:
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UsageError(f"cannot write {what} {path!r}: {exc.strerror or exc}") from None


def read_input(args: argparse.Namespace) -> str | None:
    if args.input is not None:
        return args.input
    if args.input_file:
        try:
            return Path(args.input_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read the input file {args.input_file!r}: {exc}") from None
    if not sys.stdin.isatty() and not getattr(args, "set", None):
        # with --set the command line says what the run starts from: a script that runs
        # `agentc run … --set k=v` with an open stdin must not wait on it
        data = sys.stdin.read()
        return data if data.strip() else None
    return None


def ask_message(graph: ir.Graph) -> str | None:
    """At a terminal, with nothing given, an agent's user types the message on a prompt
    line (`you> `); None elsewhere (a graph block starts from its defaults; piped runs get
    `given.py`'s message naming `--input`). An empty line or Ctrl-D is a usage error."""
    takes = graph.agent is not None or any(c.name == "messages" and c.input for c in graph.state)
    if not takes or not sys.stdin.isatty():
        return None
    try:
        text = input("you> ")
    except EOFError:
        text = ""
    if not text.strip():
        raise UsageError(
            f"no message for `{graph.name}`: type one at the prompt, or pass --input TEXT"
        )
    return text


def with_model(program: ir.Program, graph_name: str, spec_text: str) -> ir.Program:
    """The program with `graph_name`'s agent model replaced (A1/A2 read the string)."""
    from agentc.stdlib.agent import model_spec_from_string

    graphs = []
    for g in program.graphs:
        if g.name == graph_name and g.agent is not None:
            model = model_spec_from_string(spec_text, g.agent.model.span)
            g = g.model_copy(update={"agent": g.agent.model_copy(update={"model": model})})
        graphs.append(g)
    return program.model_copy(update={"graphs": graphs})
