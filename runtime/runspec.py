"""One run's settings and what it ended with: the values `executor.Loop` runs on and returns.

Input: what `CompiledGraph.spec` gathers for a run (config, limits, durability, stream sink,
checkpointer, long-term store, node cache, breakpoints). Output: nothing; `RunSpec` is read
by the loop and the step runner, `Outcome` is what the loop hands back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agentc.runtime.cache import NodeCache
from agentc.runtime.checkpoint import Checkpointer
from agentc.runtime.context import Sink
from agentc.runtime.store import Store
from agentc.runtime.types import Durability, Interrupt, RunConfig, StreamMode


@dataclass(frozen=True, slots=True)
class RunSpec:
    config: RunConfig
    limit: int
    durability: Durability = Durability.ASYNC
    modes: frozenset[StreamMode] = frozenset()
    sink: Sink | None = None
    ns: str = ""
    checkpointer: Checkpointer | None = None
    inline_sync: bool = False  # the caller drives a private loop: a lone sync node runs inline
    step_timeout: float | None = None
    limit_span: Any = None
    interrupt_before: frozenset[str] = frozenset()
    interrupt_after: frozenset[str] = frozenset()
    store: Store | None = None  # I1: what tasks see as `ctx.store` (not the checkpointer)
    cache: NodeCache | None = None  # the compiled graph's node cache (None: no node caches)


@dataclass(frozen=True, slots=True)
class Outcome:
    values: dict[str, Any]
    interrupts: tuple[Interrupt, ...] = ()
    paused: bool = False  # stopped at a breakpoint or an interrupt
    step: int = 0
