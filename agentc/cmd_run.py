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
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

DEFAULT_STORE = ".agentc/state.db"


class UsageError(Exception):
    """A command line that cannot run: an unreadable file, clashing options (exit 2)."""


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
    from agentc.api import LoadError, compile_cached, pick_graph

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
        if text is not None and "messages" in value:
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


# ---------------------------------------------------------------- inputs and files


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
        try:
            with open(args.record, "a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise UsageError(
                f"cannot write the cassette {args.record!r}: {exc.strerror or exc}"
            ) from None


def readable(what: str, path: str) -> None:
    try:
        with open(path, "rb") as f:
            f.read(1)
    except OSError as exc:
        raise UsageError(f"cannot read {what} {path!r}: {exc.strerror or exc}") from None


def run_input(graph: Any, text: str | None, resuming: bool) -> Any:
    """The run's input: a user message for graphs with `messages`; for other graphs the
    text is their input state as a JSON object (or nothing: the channels' defaults)."""
    if any(c.name == "messages" for c in graph.state):
        return None if text is None else {"messages": [{"role": "user", "content": text}]}
    if text is None:
        return None if resuming else {}
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        names = ", ".join(c.name for c in graph.state if c.input) or "none"
        raise UsageError(
            f"`{graph.name}` has no `messages` channel, so its input is a JSON "
            f"object of its state channels ({names}), e.g. --input "
            f"'{{\"{next((c.name for c in graph.state if c.input), 'key')}\": …}}'"
        )
    return value


def show_endpoints(graph: Any, out: TextIO) -> None:
    """A3: where this agent's model calls go (never the key itself)."""
    agent = getattr(graph, "agent", None)
    if agent is None:
        return
    from agentc.stdlib.providers.registry import endpoint_for

    print(f"model {agent.model.spec}: {endpoint_for(agent.model)}", file=out)


def read_input(args: argparse.Namespace) -> str | None:
    if args.input is not None:
        return args.input
    if args.input_file:
        try:
            return Path(args.input_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read the input file {args.input_file!r}: {exc}") from None
    if not sys.stdin.isatty():
        data = sys.stdin.read()
        return data if data.strip() else None
    return None


def with_model(program: Any, graph_name: str, spec_text: str) -> Any:
    """The program with `graph_name`'s agent model replaced (A1/A2 read the string)."""
    from agentc.stdlib.agent import model_spec_from_string

    graphs = []
    for g in program.graphs:
        if g.name == graph_name and g.agent is not None:
            model = model_spec_from_string(spec_text, g.agent.model.span)
            g = g.model_copy(update={"agent": g.agent.model_copy(update={"model": model})})
        graphs.append(g)
    return program.model_copy(update={"graphs": graphs})


# ---------------------------------------------------------------- cassettes


def cassette_source(args: argparse.Namespace, root: Any) -> Callable[..., Any] | None:
    """`--record`/`--replay`: the run's agent model saved to, or served from, a cassette.
    The agent run here uses FILE; another agent it calls as a tool (H1) uses FILE with the
    agent's name before the suffix (`run.jsonl` → `run.helper.jsonl`)."""
    path = args.record or args.replay
    if path is None:
        return None

    def where(graph: str) -> Path:
        p = Path(path)
        return p if graph == root.name else p.with_name(f"{p.stem}.{graph}{p.suffix}")

    def source(graph: str, spec: Any, make: Callable[[], Any]) -> Any:
        from agentc.stdlib.providers.cassette import Recording, Replaying

        if args.record:
            return Recording(make(), where(graph))
        return Replaying(where(graph))

    return source


# ---------------------------------------------------------------- binding and driving


def bind(
    program: Any,
    graph: Any,
    base_dir: str,
    thread: str | None,
    source: Callable[..., Any] | None = None,
) -> tuple[Any, Any]:
    import agentc.ir as ir
    import agentc.runtime as runtime

    spec = graph.checkpoint
    if spec.kind is ir.CheckpointKind.NONE and spec.span is None:
        from agentc.runtime.checkpoint.sqlite import (
            SqliteCheckpointer,  # the CLI's embedded default (F10)
        )

        Path(DEFAULT_STORE).parent.mkdir(parents=True, exist_ok=True)
        store = SqliteCheckpointer(DEFAULT_STORE)
    else:
        store = runtime.checkpointer_for(spec, base_dir)
    if store is None and thread:
        raise UsageError(
            f"`--thread` needs saved state, but `{graph.name}` says "
            "`checkpoint none`; remove that line or drop --thread"
        )
    memory = runtime.open_store(graph.store, base_dir)  # I1: none unless the file says so
    if source is None:
        compiled = runtime.compile(
            program, graph.name, checkpointer=store, store=memory, base_dir=base_dir
        )
    else:
        from agentc.stdlib.agent import model_source

        with model_source(source):
            compiled = runtime.compile(
                program, graph.name, checkpointer=store, store=memory, base_dir=base_dir
            )
    thread_id = thread or (uuid.uuid4().hex[:12] if store is not None else None)
    return compiled, runtime.RunConfig(thread_id=thread_id)


def drive(
    compiled: Any, value: Any, config: Any, printer: Transcript, durability: str = "sync"
) -> dict[str, Any]:
    """Run, printing as the runtime reports; at an interrupt ask and resume."""
    import asyncio

    return asyncio.run(_drive(compiled, value, config, printer, durability))


async def _drive(
    compiled: Any, value: Any, config: Any, printer: Transcript, durability: str
) -> dict:
    from agentc.runtime import Command, StreamMode

    modes = {StreamMode.UPDATES, StreamMode.VALUES, StreamMode.DEBUG}
    if printer.stream:
        modes.add(StreamMode.MESSAGES)
    try:
        while True:
            spec = compiled.spec(
                config,
                modes=frozenset(modes),
                sink=printer.sink,
                inline_sync=True,
                durability=durability,
            )
            outcome = await compiled.run(value, spec)
            if not outcome.paused:
                return outcome.values
            if not outcome.interrupts:  # a breakpoint (D7): the thread holds the run
                return {**outcome.values, "__interrupt__": []}
            answer = printer.ask(list(outcome.interrupts))
            if answer is _NO_ANSWER:
                return {**outcome.values, "__interrupt__": list(outcome.interrupts)}
            value = Command(resume=answer)
    finally:
        await close_provider_clients()


async def close_provider_clients() -> None:
    """Close pooled HTTP clients if a network provider was used (no import otherwise)."""
    http = sys.modules.get("agentc.stdlib.providers._http")
    if http is not None:
        await http.close_clients()


_NO_ANSWER = object()


# ---------------------------------------------------------------- the transcript


class Transcript:
    """Prints each event as the runtime emits it: messages once each, each task's time
    (its step's start to its own finish, from the runtime's `debug` task events), tokens,
    and with `stream` the model's text and tool-call arguments as they arrive."""

    def __init__(
        self,
        out: TextIO,
        *,
        quiet: bool,
        stream: bool,
        decisions: str | None = None,
        full: bool = False,
    ) -> None:
        from agentc.terminal_review import DecisionsFile

        self.out, self.quiet, self.stream, self.full = out, quiet, stream, full
        try:
            self.decisions = DecisionsFile(decisions) if decisions else None
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        self.lock = threading.Lock()  # sync nodes emit from worker threads
        self.seen: set[str] = set()
        self.started = time.perf_counter()
        self.step_started: dict[int, float] = {}
        self.tasks: dict[tuple[int, str], list[str]] = {}  # (step, node) → task ids, in order
        self.finished: dict[str, float] = {}
        self.model_calls = 0
        self.tokens_in = self.tokens_out = 0
        self.last: dict[str, Any] = {}
        self.live = LiveMessage(out)

    def sink(self, event: Any) -> None:
        now = time.perf_counter()
        with self.lock:
            self.handle(event, now)

    def handle(self, event: Any, now: float) -> None:
        from agentc.runtime.events import (
            DebugEvent,
            DebugKind,
            MessagesEvent,
            UpdatesEvent,
            ValuesEvent,
        )

        if isinstance(event, DebugEvent):
            if event.kind is DebugKind.TASK:
                self.step_started[event.step] = now
                for t in event.payload.get("tasks", ()):
                    self.tasks.setdefault((event.step, t["node"]), []).append(t["id"])
            elif event.kind is DebugKind.TASK_RESULT:
                self.finished[event.payload["id"]] = now
        elif isinstance(event, MessagesEvent):
            if not event.ns and not self.quiet:  # the agent's own model, not a child's
                self.live.delta(event.payload)
        elif isinstance(event, ValuesEvent):
            self.last = event.values
        elif isinstance(event, UpdatesEvent) and isinstance(event.update, dict):
            self.update(event.step, event.node, event.update)

    def took_ms(self, step: int, node: str) -> float | None:
        """The next unreported task of `node` in `step`: its own time, in ms."""
        ids = self.tasks.get((step, node))
        if not ids:
            return None
        done, start = self.finished.get(ids.pop(0)), self.step_started.get(step)
        return None if done is None or start is None else (done - start) * 1000

    def update(self, step: int, node: str, update: dict[str, Any]) -> None:
        took = self.took_ms(step, node)
        self.state_writes(node, update, took)
        for m in update.get("messages") or []:
            key = getattr(m, "id", None) or str(id(m))
            if key in self.seen or getattr(m, "type", None) in (None, "remove", "human"):
                continue
            self.seen.add(key)
            self.message(m, node, took)

    def state_writes(self, node: str, update: dict[str, Any], took: float | None) -> None:
        """Writes to channels other than `messages` (a graph block's state), one line each."""
        writes = {
            k: v
            for k, v in update.items()
            if k not in ("messages", "structured_response") and not k.startswith("_")
        }
        if self.quiet or not writes:
            return
        for key, value in writes.items():
            print(f"{node} → {key} = {clip(_show(value), self.full)}", file=self.out)
        if "messages" not in update:
            timing = f" · {took:.1f} ms" if took is not None else ""
            print(f"  [{node}{timing}]", file=self.out)

    def message(self, m: Any, node: str, took: float | None) -> None:
        if m.type == "ai":
            self.model_calls += 1
            usage = m.usage_metadata
            if usage:
                self.tokens_in += usage.input_tokens
                self.tokens_out += usage.output_tokens
        if self.quiet:
            return
        shown = self.live.end() if m.type == "ai" else LiveShown()
        for line in render_message(m, shown):
            print(clip(line, self.full), file=self.out)
        timing = f" · {took:.1f} ms" if took is not None else ""
        print(f"  [{node}{timing}{_usage(m)}]", file=self.out)

    def say(self, text: str) -> None:
        """An informational line: stdout in a transcript, stderr under --json."""
        print(text, file=sys.stderr if self.quiet else self.out)

    def ask(self, interrupts: list[Any]) -> Any:
        """D10: a review pause lists its calls; the answer comes from --decisions, else
        the terminal (approve / edit / reject / respond per call)."""
        import agentc.terminal_review as terminal_review

        if self.decisions is not None:
            for i in interrupts:
                self.say(f"paused: {_show(i.value)}")
            try:
                answer = self.decisions.next()
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            self.say(f"answered from file: {_show(answer)}")
            return answer
        if not sys.stdin.isatty():
            for i in interrupts:
                self.say(f"paused: {_show(i.value)}")
            return _NO_ANSWER
        return terminal_review.answer(interrupts, sys.stderr if self.quiet else self.out, input)


class LiveShown:
    """What of one AI message was already printed while it streamed."""

    def __init__(self, text: bool = False, calls: int = 0) -> None:
        self.text, self.calls = text, calls


class LiveMessage:
    """The AI message being streamed: `ai: ` text, then `ai → name(` argument fragments."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.text = False
        self.call: int | None = None  # index of the call whose arguments are printing
        self.call_id: str | None = None
        self.calls = 0

    def delta(self, d: Any) -> None:
        if getattr(d, "text", ""):
            if self.call is not None:
                self._close_call()
            if not self.text:
                self.out.write("ai: ")
                self.text = True
            self.out.write(d.text)
        for chunk in getattr(d, "tool_call_chunks", ()):
            if chunk.index != self.call:
                if self.call is not None:
                    self._close_call()
                elif self.text:
                    self.out.write("\n")
                self.out.write(f"ai → {chunk.name or '?'}(")
                self.call, self.call_id, self.calls = chunk.index, chunk.id, self.calls + 1
            self.out.write(chunk.args)
        self.out.flush()

    def _close_call(self) -> None:
        self.out.write(f")  id={self.call_id}\n" if self.call_id else ")\n")
        self.call = self.call_id = None

    def end(self) -> LiveShown:
        """Close what is open; say what was shown (the message is not printed twice)."""
        shown = LiveShown(self.text, self.calls)
        if self.call is not None:
            self._close_call()
        elif self.text:
            self.out.write("\n")
        self.text, self.call, self.calls = False, None, 0
        return shown


def render_message(m: Any, shown: LiveShown | None = None) -> list[str]:
    shown = shown or LiveShown()
    if m.type == "ai":
        lines = [f"ai: {m.text}"] if m.text and not shown.text else []
        if shown.calls < len(m.tool_calls):
            lines += [f"ai → {c.name}({_args(c.args)})  id={c.id}" for c in m.tool_calls]
        lines += [f"ai → {c.name} (malformed arguments: {c.args!r})" for c in m.invalid_tool_calls]
        return lines or ([] if shown.text or shown.calls else ["ai: (empty reply)"])
    if m.type == "tool":
        mark = " (error)" if m.status == "error" else ""
        return [f"tool {m.name or ''}{mark}: {_show(m.content)}"]
    return [f"{m.type}: {_show(m.content)}"]


CLIP = 300  # characters of a message or value shown unless --verbose


def clip(text: str, full: bool = False) -> str:
    if full or len(text) <= CLIP:
        return text
    return f"{text[:CLIP]}… (+{len(text) - CLIP} characters; --verbose shows all)"


def _args(args: dict[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items())


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _usage(m: Any) -> str:
    usage = getattr(m, "usage_metadata", None)
    return f" · {usage.input_tokens}→{usage.output_tokens} tokens" if usage else ""


# ---------------------------------------------------------------- the end of a run


def finish(
    result: dict[str, Any], args: argparse.Namespace, out: TextIO, config: Any, printer: Transcript
) -> int:
    if args.json:
        print(json.dumps(to_json(result), indent=2, ensure_ascii=False), file=out)
        return 0
    elapsed = (time.perf_counter() - printer.started) * 1000
    tokens = (
        f" · tokens {printer.tokens_in} in, {printer.tokens_out} out"
        if printer.tokens_in or printer.tokens_out
        else ""
    )
    print(
        f"-- done in {elapsed:.0f} ms · {printer.model_calls} model "
        f"call{'s' if printer.model_calls != 1 else ''}{tokens}",
        file=out,
    )
    if "__interrupt__" in result:
        print(
            f"paused; answer it with: agentc run {args.file} --thread {config.thread_id} "
            "[--decisions FILE]",
            file=out,
        )
    elif result.get("structured_response") is not None:
        print(f"structured response: {result['structured_response']!r}", file=out)
    if config.thread_id:
        print(f"thread: {config.thread_id} (continue with --thread {config.thread_id})", file=out)
    return 0


def print_budgets(compiled: Any, config: Any, out: TextIO) -> None:
    """Usage against each budget of the agent's `budgets` middleware (issue 6)."""
    agent = getattr(compiled.graph, "agent", None)
    if agent is None or not agent.middleware:
        return
    from agentc.stdlib.middleware.binding import bound_middleware

    for b in bound_middleware(compiled.graph, compiled.env):
        report = getattr(b.obj, "report", None)
        if callable(report):
            for line in report(config.thread_id):
                print(f"budget {line}", file=out)


def to_json(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_none=True)
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        import dataclasses

        return to_json(dataclasses.asdict(value))
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)


def describe_error(exc: BaseException) -> str:
    """One paragraph: what failed and, where we know it, what to do. Runtime errors render
    as their diagnostics (`error[recursion-limit]: …`); others name their kind."""
    text = " ".join((str(exc).strip() or type(exc).__name__).split())
    if isinstance(getattr(exc, "code", None), str) and hasattr(exc, "message"):
        return text  # an AgentcRuntimeError: `[where: ]error[code]: message (help: …)`
    return f"error: {text} [{type(exc).__name__}]"
