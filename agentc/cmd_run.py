"""`agentc run FILE`: run an agent or graph and print a readable transcript.

Input: an `.agent` file and the user's input (`--input`, `--input-file`, or stdin when it is
not a terminal). Output on stdout: who said what, tool calls with their arguments, tool
results, each step's time and token usage where known, then the final answer (or the
structured response); `--json` prints the final state as JSON instead. Exit 0 on success;
1 when the file does not compile or the run fails — with one clear paragraph, no traceback
(`--verbose` adds it). `--thread ID` continues a saved conversation: when the file declares
no checkpointer the CLI keeps threads in the embedded SQLite store `.agentc/state.db` under
the current directory. At a plain `interrupt` the question is printed and, on a terminal,
the answer is read and the run resumed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
import uuid
from pathlib import Path
from typing import Any, TextIO

DEFAULT_STORE = ".agentc/state.db"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the .agent file")
    parser.add_argument("--agent", metavar="NAME", help="which agent or graph (default: the "
                        "only one, else the first agent)")
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--input", metavar="TEXT", help="the user's message")
    src.add_argument("--input-file", metavar="F", help="read the user's message from F")
    parser.add_argument("--thread", metavar="ID", help="continue (or start) this saved thread")
    parser.add_argument("--model", metavar="SPEC", help="run with this model instead "
                        "(e.g. openai:gpt-4o-mini)")
    parser.add_argument("--stream", action="store_true", help="print model text as it arrives")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    parser.add_argument("--decisions", metavar="FILE", help="answer human-review pauses from "
                        "FILE (JSON: one resume value, or a list used in turn)")
    parser.add_argument("--verbose", action="store_true", help="show tracebacks on errors")


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    try:
        return _run(args, out)
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
        return 130
    except Exception as exc:  # every failure is one paragraph, never a traceback
        if args.verbose:
            traceback.print_exc()
        print(f"error: {describe_error(exc)}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from agentc.api import LoadError, compile_program, pick_graph

    try:
        program = compile_program(args.file)
    except LoadError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    base_dir = str(Path(args.file).resolve().parent)
    graph = pick_graph(program, args.agent, args.file)
    if args.model:
        program = with_model(program, graph.name, args.model)
    text = read_input(args)
    compiled, config = bind(program, graph, base_dir, args.thread)
    value = None if text is None else {"messages": [{"role": "user", "content": text}]}
    if text is not None and not args.json:
        print(f"you: {text}", file=out)
    printer = Transcript(out, quiet=args.json, stream=args.stream,
                         decisions=getattr(args, "decisions", None))
    result = drive(compiled, value, config, printer)
    code = finish(result, args, out, config, printer)
    if not args.json:
        print_budgets(compiled, config, out)
    return code


def print_budgets(compiled: Any, config: Any, out: TextIO) -> None:
    """Usage against each budget of the agent's `budgets` middleware (issue 6)."""
    from agentc.stdlib.middleware.binding import bound_middleware
    if getattr(compiled.graph, "agent", None) is None:
        return
    for b in bound_middleware(compiled.graph, compiled.env):
        report = getattr(b.obj, "report", None)
        if callable(report):
            for line in report(config.thread_id):
                print(f"budget {line}", file=out)


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


def read_input(args: argparse.Namespace) -> str | None:
    if args.input is not None:
        return args.input
    if args.input_file:
        return Path(args.input_file).read_text(encoding="utf-8")
    if not sys.stdin.isatty():
        data = sys.stdin.read()
        return data if data.strip() else None
    return None


def bind(program: Any, graph: Any, base_dir: str, thread: str | None) -> tuple[Any, Any]:
    from agentc import runtime
    from agentc.compiler import ir

    spec = graph.checkpoint
    if spec.kind is ir.CheckpointKind.NONE and spec.span is None:
        from agentc.runtime.sqlite import SqliteStore  # the CLI's embedded default (F10)
        Path(DEFAULT_STORE).parent.mkdir(parents=True, exist_ok=True)
        store = SqliteStore(DEFAULT_STORE)
    else:
        store = runtime.store_for(spec, base_dir)
    if store is None and thread:
        raise RuntimeError(f"`--thread` needs saved state, but `{graph.name}` says "
                           "`checkpoint none`; remove that line or drop --thread")
    compiled = runtime.compile(program, graph.name, checkpointer=store, base_dir=base_dir)
    thread_id = thread or (uuid.uuid4().hex[:12] if store is not None else None)
    return compiled, runtime.RunConfig(thread_id=thread_id)


def drive(compiled: Any, value: Any, config: Any, printer: "Transcript") -> dict[str, Any]:
    """Run, printing as it goes; at an interrupt ask on a terminal and resume."""
    from agentc.runtime import Command, StreamMode

    modes = [StreamMode.UPDATES, StreamMode.VALUES] + (
        [StreamMode.MESSAGES] if printer.stream else [])
    while True:
        interrupts: list[Any] = []
        printer.started = time.perf_counter()
        for event in compiled.stream(value, config, mode=modes):
            if hasattr(event, "interrupts"):
                interrupts.extend(event.interrupts)
            else:
                printer.event(event)
        if not interrupts:
            return printer.last
        answer = printer.ask(interrupts)
        if answer is _NO_ANSWER:
            return {"__interrupt__": interrupts}
        value = Command(resume=answer)


_NO_ANSWER = object()


class Transcript:
    """Prints each update as it arrives: messages once each, with timings and tokens."""

    def __init__(self, out: TextIO, *, quiet: bool, stream: bool,
                 decisions: str | None = None) -> None:
        from agentc.terminal_review import DecisionsFile
        self.out, self.quiet, self.stream = out, quiet, stream
        self.decisions = DecisionsFile(decisions) if decisions else None
        self.seen: set[int] = set()
        self.started = time.perf_counter()
        self.model_calls = 0
        self.tokens_in = self.tokens_out = 0
        self.last: dict[str, Any] = {}
        self.streaming = False

    def event(self, event: Any) -> None:
        payload = getattr(event, "payload", None)
        if payload is not None and hasattr(payload, "tool_call_chunks"):
            if not self.quiet and payload.text:
                if not self.streaming:
                    self.out.write("ai: ")
                self.streaming = True
                self.out.write(payload.text)
                self.out.flush()
            return
        values = getattr(event, "values", None)
        if isinstance(values, dict):
            self.last = values
        update = getattr(event, "update", None)
        if isinstance(update, dict):
            self.update(event.node, update)

    def update(self, node: str, update: dict[str, Any]) -> None:
        elapsed = (time.perf_counter() - self.started) * 1000
        for m in update.get("messages") or []:
            if id(m) in self.seen or getattr(m, "type", None) in (None, "remove", "human"):
                continue
            self.seen.add(id(m))
            self.message(m, node, elapsed)

    def message(self, m: Any, node: str, elapsed: float) -> None:
        if m.type == "ai":
            self.model_calls += 1
            usage = m.usage_metadata
            if usage:
                self.tokens_in += usage.input_tokens
                self.tokens_out += usage.output_tokens
        if self.quiet:
            return
        if self.streaming:
            self.out.write("\n")
            self.streaming = False
        for line in render_message(m):
            print(line, file=self.out)
        print(f"  [{node} · {elapsed:.0f} ms{_usage(m)}]", file=self.out)

    def ask(self, interrupts: list[Any]) -> Any:
        """D10: a review pause lists its calls; the answer comes from --decisions, else
        the terminal (approve / edit / reject / respond per call)."""
        from agentc import terminal_review
        if self.decisions is not None:
            for i in interrupts:
                print(f"paused: {_show(i.value)}", file=self.out)
            answer = self.decisions.next()
            print(f"answered from file: {_show(answer)}", file=self.out)
            return answer
        if not sys.stdin.isatty():
            for i in interrupts:
                print(f"paused: {_show(i.value)}", file=self.out)
            return _NO_ANSWER
        return terminal_review.answer(interrupts, self.out, input)


def render_message(m: Any) -> list[str]:
    if m.type == "ai":
        lines = [f"ai: {m.text}"] if m.text else []
        lines += [f"ai → {c.name}({_args(c.args)})  id={c.id}" for c in m.tool_calls]
        lines += [f"ai → {c.name} (malformed arguments: {c.args!r})" for c in
                  m.invalid_tool_calls]
        return lines or ["ai: (empty reply)"]
    if m.type == "tool":
        mark = " (error)" if m.status == "error" else ""
        return [f"tool {m.name or ''}{mark}: {_show(m.content)}"]
    return [f"{m.type}: {_show(m.content)}"]


def _args(args: dict[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items())


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False,
                                                            default=str)


def _usage(m: Any) -> str:
    usage = getattr(m, "usage_metadata", None)
    return f" · {usage.input_tokens}→{usage.output_tokens} tokens" if usage else ""


def finish(result: dict[str, Any], args: argparse.Namespace, out: TextIO, config: Any,
           printer: Transcript) -> int:
    if args.json:
        print(json.dumps(to_json(result), indent=2, ensure_ascii=False), file=out)
        return 0
    elapsed = (time.perf_counter() - printer.started) * 1000
    tokens = (f" · tokens {printer.tokens_in} in, {printer.tokens_out} out"
              if printer.tokens_in or printer.tokens_out else "")
    print(f"-- done in {elapsed:.0f} ms · {printer.model_calls} model "
          f"call{'s' if printer.model_calls != 1 else ''}{tokens}", file=out)
    if result.get("__interrupt__"):
        print(f"paused; answer it with: agentc run {args.file} --thread {config.thread_id} "
              "[--decisions FILE]", file=out)
    elif result.get("structured_response") is not None:
        print(f"structured response: {result['structured_response']!r}", file=out)
    if config.thread_id:
        print(f"thread: {config.thread_id} (continue with --thread {config.thread_id})",
              file=out)
    return 0


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
    """One paragraph: what failed and, where we know it, what to do."""
    name = type(exc).__name__
    text = " ".join((str(exc).strip() or name).split())
    return f"{text} [{name}]"
