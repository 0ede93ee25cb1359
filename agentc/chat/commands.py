"""The chat's prompt loop: each line a message on the thread, or a slash command.

Input: a `ChatSession`, the `Reader` of the user's lines, the `ChatView` a turn prints
through, and where to write. Output: the chat's exit code — 0 at `/quit` or the end of
input (Ctrl-D, or the end of a piped script), 130 for Ctrl-C at the prompt. Invariants: a
line is read as `agentc run` reads its input (text is the user's message; a JSON object
sets input channels, the only input a graph without a `messages` channel takes); a turn
that fails prints one paragraph and the chat goes on; Ctrl-C while an answer streams stops
that answer, not the chat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from agentc.runner.errors import RunSite, UsageError, describe_error

from .session import Ending
from .view import state_lines

if TYPE_CHECKING:
    from .reader import Reader
    from .session import ChatSession
    from .view import ChatView

PROMPT = "> "
INTERRUPTED = 130  # what a shell reports for a command ended by Ctrl-C (128 + SIGINT)

HELP = """\
type a message and press Enter; the answer streams as it is written
  /new          start a new thread: a fresh conversation
  /state        show the thread's current state
  /undo         take back your last message and everything after it
  /model NAME   answer with another model from the next message on (e.g. /model openai:gpt-4o)
  /help         this list
  /quit         leave (Ctrl-D too)
Ctrl-C stops an answer while it streams; at the prompt it leaves the chat"""


@dataclass(frozen=True, slots=True)
class Chat:
    """The chat's parts, as the loop and its commands use them."""

    session: ChatSession
    reader: Reader
    view: ChatView
    out: TextIO
    err: TextIO
    file: str  # the `.agent` file, as the user named it (for the `--thread` hint)
    verbose: bool = False


def chat(c: Chat) -> int:
    """Read and answer lines until `/quit`, the end of input or Ctrl-C at the prompt."""
    introduce(c)
    try:
        waiting = c.session.resume(c.view, c.reader, c.out)  # a review the thread waits at
    except Exception as exc:  # the resumed turn failed: said, and the chat goes on
        c.view.stop()
        _failed(c, exc)
        waiting = None
    if waiting is not None:
        tell(c, waiting)
    code = converse(c) if waiting is not Ending.CLOSED else 0
    farewell(c)
    return code


def converse(c: Chat) -> int:
    """The prompt loop; its exit code."""
    while True:
        try:
            line = c.reader.line(PROMPT)
        except KeyboardInterrupt:
            print(file=c.out)
            return INTERRUPTED
        if line is None:
            return 0
        text = line.strip()
        if not text:
            continue
        if text.startswith("/"):
            if command(c, text):
                return 0
        elif send(c, text) is Ending.CLOSED:
            return 0


def introduce(c: Chat) -> None:
    s = c.session
    graph, keeping = s.setup.graph, s.keeping
    model = f" (model {_model(c)})" if graph.agent is not None else ""
    kept = f" · saved in {keeping.where}" if keeping.kept else ""
    print(f"chat with `{graph.name}`{model} · thread {s.thread}{kept}", file=c.out)
    if not keeping.kept:
        print("this thread is kept in memory only: it is gone when the chat ends", file=c.out)
    snap = s.state()
    if snap is not None and snap.values:
        lines = state_lines(snap.values, graph, c.verbose)
        print(f"continuing the thread: {lines[0]}", file=c.out)
    print("type a message, or /help for commands", file=c.out)


def farewell(c: Chat) -> None:
    s = c.session
    if not s.keeping.kept or s.state() is None:  # nothing saved: nothing to come back to
        return
    if s.fork is not None:
        print(
            "the undo was not used: the saved thread still ends with the turn it took back",
            file=c.out,
        )
    print(f"continue later with: agentc chat {c.file} --thread {s.thread}", file=c.out)


def send(c: Chat, text: str) -> Ending | None:
    """One message as a turn; None when it could not be sent (said on stderr)."""
    try:
        value = chat_input(c.session, text)
        ending = c.session.turn(value, c.view, c.reader, c.out)
    except UsageError as exc:
        print(f"error: {exc}", file=c.err)
        return None
    except Exception as exc:  # a failed turn is one paragraph; the chat goes on
        c.view.stop()
        _failed(c, exc)
        return None
    tell(c, ending)
    return ending


def tell(c: Chat, ending: Ending) -> None:
    """What a turn that did not finish left behind."""
    if ending is Ending.CLOSED:
        print("the input ended before the review was answered; it stays open", file=c.err)
    elif ending is Ending.STOPPED:
        print("stopped; what was saved stays on the thread (/undo takes it back)", file=c.out)
    elif ending is Ending.UNANSWERED:
        print("the review is left unanswered (/undo takes the turn back)", file=c.out)
    elif ending is Ending.HELD:
        print(
            "left paused; your next message starts a new turn (/undo takes this one back)",
            file=c.out,
        )


def chat_input(session: ChatSession, text: str) -> dict[str, Any] | None:
    """The turn's input from one line, as `agentc run` reads `--input`."""
    from agentc.runner.given import accepted, input_value, split_input

    setup = session.setup
    message, channels = split_input(text)
    if message is not None and not any(c.name == "messages" for c in setup.graph.state):
        names = accepted(setup.graph)
        listed = ", ".join(f"`{n}`" for n in names) or "none"
        first = names[0] if names else "key"
        raise UsageError(
            f"`{setup.graph.name}` has no conversation (no `messages` channel): type its "
            f'input channels as a JSON object ({listed}), e.g. {{"{first}": …}}'
        )
    return input_value(setup.program, setup.graph, message, channels, {}, resuming=False)


def _failed(c: Chat, exc: Exception) -> None:
    if c.verbose:
        import traceback

        traceback.print_exception(exc, file=c.err)
    site = RunSite(c.session.setup.program, c.session.setup.graph, c.session.thread)
    print(describe_error(exc, site), file=c.err)


# ---------------------------------------------------------------- slash commands


def command(c: Chat, text: str) -> bool:
    """Run one slash command; True when it ends the chat."""
    name, _, arg = text.partition(" ")
    if name in ("/quit", "/exit"):
        return True
    run = COMMANDS.get(name)
    if run is None:
        from agentc.dsl.suggest import suggest

        near = suggest(name, list(COMMANDS))
        guess = f" (did you mean {near}?)" if near else ""
        print(f"unknown command {name}{guess}; /help lists them", file=c.err)
        return False
    try:
        run(c, arg.strip())
    except UsageError as exc:
        print(f"error: {exc}", file=c.err)
    except Exception as exc:
        _failed(c, exc)
    return False


def show_help(c: Chat, arg: str) -> None:
    print(HELP, file=c.out)


def new_thread(c: Chat, arg: str) -> None:
    print(f"new thread {c.session.new_thread()}", file=c.out)


def show_state(c: Chat, arg: str) -> None:
    snap = c.session.state()
    values = snap.values if snap is not None else {}
    for line in state_lines(values, c.session.setup.graph, c.verbose):
        print(line, file=c.out)
    if snap is not None and snap.interrupts:
        print("paused: waiting for an answer to a review", file=c.out)


def undo(c: Chat, arg: str) -> None:
    target = c.session.undo()
    if target is None:
        print("nothing to undo: the thread has no message of yours", file=c.out)
        return
    what = f'your message "{target.said}"' if target.said is not None else "the last turn"
    print(
        f"took back {what} and what followed; the next message continues from before it", file=c.out
    )


def switch_model(c: Chat, arg: str) -> None:
    if not arg:
        print(f"the model is {_model(c)}; switch with /model NAME", file=c.out)
        return
    c.session.switch_model(arg)
    print(f"the next turns use {arg}", file=c.out)


def _model(c: Chat) -> str:
    agent = c.session.setup.graph.agent
    return c.session.model or (agent.model.spec if agent is not None else "(per model node)")


COMMANDS: dict[str, Callable[[Chat, str], None]] = {
    "/help": show_help,
    "/new": new_thread,
    "/state": show_state,
    "/undo": undo,
    "/model": switch_model,
}
