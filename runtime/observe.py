"""What watches a graph's top-level runs from outside the runtime (tracing: `agentc.tracing`).

Input: nothing (a protocol, and the one place that calls it). A `CompiledGraph` whose
`observer` is set hands each top-level run to `observe` (a nested run is not handed over:
its model and tool calls reach the parent's `events` readers), with the run's settings and
a function that runs it under the settings given; the observer may add stream modes and
tee the sink, and returns the run's outcome.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from agentc.runtime.bind import BoundGraph
from agentc.runtime.executor import Loop, Outcome, RunSpec

RunFn = Callable[[RunSpec], Awaitable[Outcome]]


class RunObserver(Protocol):
    async def observe(self, value: Any, spec: RunSpec, run: RunFn) -> Outcome: ...


async def observed(
    observer: RunObserver | None, bound: BoundGraph, value: Any, spec: RunSpec
) -> Outcome:
    """One run of `bound`, handed to the observer when there is one and the run is a
    top-level one."""

    def run(settings: RunSpec) -> Awaitable[Outcome]:
        return Loop(bound, settings).run(value)

    if observer is None or spec.ns:
        return await run(spec)
    return await observer.observe(value, spec, run)
