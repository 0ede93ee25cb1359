"""The lines around a run: where its model calls go, and how it ended.

Input: the graph, the final state, the command line, the run's config and its
`Transcript`. Output: `show_endpoints` (`--verbose`: each model's endpoint, never a key);
`finish` (the final state as JSON under `--json`, else the `-- done` line with model calls
and tokens, then each caller's share when more than one model called (sub-agents, model
nodes), why a run stopped without an answer, how to resume a pause, the structured
response, the thread, or that a `checkpoint memory` thread is not kept); `print_budgets`
(usage against each budget of the agent's `budgets` middleware, and `over budget: …` for
each one spent past its limit). Invariants: under `--json`
stdout holds one JSON document and nothing else; `to_json` turns any state value (pydantic
models, dataclasses, containers) into JSON data, falling back to `str`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol, TextIO, runtime_checkable

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.runtime import CompiledGraph, RunConfig

    from .calls import CallCount
    from .transcript import Transcript


@runtime_checkable
class ReportsUsage(Protocol):
    """A middleware that reports usage against its budgets (`budgets`, or the user's own)."""

    def report(self, thread_id: str | None) -> Iterable[str]: ...


@runtime_checkable
class FlagsOverspend(Protocol):
    """A middleware that says which budgets were spent past their limits."""

    def overspends(self, thread_id: str | None) -> Iterable[str]: ...


def show_endpoints(graph: ir.Graph, out: TextIO) -> None:
    """A3: where this agent's model calls go (never the key itself)."""
    if graph.agent is None:
        return
    from agentc.stdlib.providers.registry import endpoint_for

    print(f"model {graph.agent.model.spec}: {endpoint_for(graph.agent.model)}", file=out)


def finish(
    result: dict[str, Any],
    args: argparse.Namespace,
    out: TextIO,
    config: RunConfig,
    printer: Transcript,
    kept: bool = True,
) -> int:
    """The closing lines; the exit code (1 when the run stopped on a reply it could not
    act on). `kept`: the thread outlives this process (False for `checkpoint memory`)."""
    stopped = stopped_on(result)
    if args.json:
        print(json.dumps(to_json(result), indent=2, ensure_ascii=False), file=out)
        if stopped is not None:
            print(f"error: {stopped}", file=sys.stderr)
        return 0 if stopped is None else 1
    print(done_line(printer), file=out)
    for line in per_caller_lines(printer.calls):
        print(line, file=out)
    if stopped is not None:
        print(f"-- stopped: {stopped}", file=out)
    if "__interrupt__" in result:
        print(paused_line(args.file, config.thread_id, kept), file=out)
    elif result.get("structured_response") is not None:
        print(f"structured response: {result['structured_response']!r}", file=out)
    if config.thread_id:
        print(thread_line(config.thread_id, kept), file=out)
    return 0 if stopped is None else 1


def thread_line(thread: str, kept: bool) -> str:
    if kept:
        return f"thread: {thread} (continue with --thread {thread})"
    return (
        f"thread: {thread} is not kept: `checkpoint memory` forgets it when this run ends "
        f"(to continue it later, write `{KEEP}` in the file)"
    )


def paused_line(file: str, thread: str | None, kept: bool) -> str:
    if kept:
        return f"paused; answer it with: agentc run {file} --thread {thread} [--decisions FILE]"
    return (
        "paused, and the pause ends with this run (`checkpoint memory`): answer it when "
        f"asked, in a terminal or with --decisions FILE, or write `{KEEP}` to answer it later"
    )


KEEP = 'checkpoint sqlite(".agentc/state.db")'  # how a file keeps its threads between runs


def stopped_on(result: dict[str, Any]) -> str | None:
    """Why a run that ended normally has no answer: its last reply asked only for tool
    calls whose arguments could not be read. create_agent runs no such call and routes
    to the end (its tool node takes only well-formed calls), so the run just stops."""
    from agentc.stdlib.messages import AIMessage  # the run has imported it already

    messages = result.get("messages")
    last = messages[-1] if isinstance(messages, list) and messages else None
    if not isinstance(last, AIMessage) or not last.invalid_tool_calls or last.tool_calls:
        return None
    calls = ", ".join(
        f"`{c.name or '?'}` ({c.error or 'arguments not valid JSON'})"
        for c in last.invalid_tool_calls
    )
    return (
        f"the model's last reply asked for {calls} with arguments that could not be read, "
        "so no tool ran and the agent ended without an answer"
    )


def done_line(printer: Transcript) -> str:
    """`-- done in 26 ms · 2 model calls · tokens 11 in, 7 out`."""
    elapsed = (time.perf_counter() - printer.started) * 1000
    count = printer.calls  # every model call of the run, whichever node made it
    return f"-- done in {elapsed:.0f} ms · {_calls(count.calls, count.tokens_in, count.tokens_out)}"


def per_caller_lines(count: CallCount) -> list[str]:
    """With sub-agents, model nodes or Python nodes' models: each one's calls and tokens
    (`   helper: 1 model call · tokens 5 in, 1 out`), in the order they first called."""
    if len(count.by) < 2:
        return []
    return [
        f"   {who or '(other)'}: {_calls(t.calls, t.tokens_in, t.tokens_out)}"
        for who, t in count.by.items()
    ]


def _calls(calls: int, tokens_in: int, tokens_out: int) -> str:
    tokens = f" · tokens {tokens_in} in, {tokens_out} out" if tokens_in or tokens_out else ""
    return f"{calls} model call{'s' if calls != 1 else ''}{tokens}"


def print_budgets(compiled: CompiledGraph, config: RunConfig, out: TextIO) -> None:
    """Usage against each budget of the agent's `budgets` middleware."""
    agent = compiled.graph.agent
    if agent is None or not agent.middleware:
        return
    from agentc.stdlib.middleware.binding import bound_middleware

    for b in bound_middleware(compiled.graph, compiled.env):
        if isinstance(b.obj, ReportsUsage):
            for line in b.obj.report(config.thread_id):
                print(f"budget {line}", file=out)
        if isinstance(b.obj, FlagsOverspend):
            for line in b.obj.overspends(config.thread_id):
                print(f"over budget: {line}", file=out)


def to_json(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_none=True)
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(dataclasses.asdict(value))
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)
