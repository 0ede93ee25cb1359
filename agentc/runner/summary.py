"""The lines around a run: where its model calls go, and how it ended.

Input: the graph, the final state, the command line, the run's config and its
`Transcript`. Output: `show_endpoints` (`--verbose`: each model's endpoint, never a key);
`finish` (the final state as JSON under `--json`, else the `-- done` line with model calls
and tokens, how to resume a pause, the structured response, the thread); `print_budgets`
(usage against each budget of the agent's `budgets` middleware). Invariants: under `--json`
stdout holds one JSON document and nothing else; `to_json` turns any state value (pydantic
models, dataclasses, containers) into JSON data, falling back to `str`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol, TextIO, runtime_checkable

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.runtime import CompiledGraph, RunConfig

    from .transcript import Transcript


@runtime_checkable
class ReportsUsage(Protocol):
    """A middleware that reports usage against its budgets (`budgets`, or the user's own)."""

    def report(self, thread_id: str | None) -> Iterable[str]: ...


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
) -> int:
    if args.json:
        print(json.dumps(to_json(result), indent=2, ensure_ascii=False), file=out)
        return 0
    print(done_line(printer), file=out)
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


def done_line(printer: Transcript) -> str:
    """`-- done in 26 ms · 2 model calls · tokens 11 in, 7 out`."""
    elapsed = (time.perf_counter() - printer.started) * 1000
    count = printer.calls  # every model call of the run, whichever node made it
    tokens = (
        f" · tokens {count.tokens_in} in, {count.tokens_out} out"
        if count.tokens_in or count.tokens_out
        else ""
    )
    calls = count.calls
    return f"-- done in {elapsed:.0f} ms · {calls} model call{'s' if calls != 1 else ''}{tokens}"


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
