"""Where a sync callable runs: on the event loop (inline) or in the thread pool (E5).

Input: a sync node or sync tool body, how its author declared it, and what the operating
system counts for each of its calls. Output: the `Placement` of its next call. This is the
one policy for the runtime's sync nodes and the stdlib's sync tools. Routers are not placed:
they only read the state and pick a label, so they always run on the loop.

The rules, first match wins:
1. By kind: a callable declared with `@inline` (the stdlib's own functions that never
   block) runs on the loop; the sync API's private loop (`RunSpec.inline_sync`) runs a lone
   sync node on it too, unmeasured, since nothing else shares that loop (see `step.py`).
2. By a robust measure: any other sync callable starts in the pool. After `PROVE` calls in
   a row that each used under `CHEAP_CPU_NS` of CPU and never gave the CPU up voluntarily
   (no sleep, no I/O, no wait on a lock), it runs inline, saving a thread hop that costs
   more than the call — in a step of many tasks too, where a step whose tasks all run
   inline runs them one after the other without an asyncio task each (`step.py`). An
   inline call that blocks sends it back to the pool for good, so a callable that blocks
   holds the loop at most once; spending more CPU does so only on the second such call in
   a row (one slow sample is as often the machine as the callable). A call in the pool
   that blocks or spends more only restarts the proof (there, waiting for the GIL counts
   as a block). An inline call that must hand the GIL to a busy worker thread also counts
   as a block, which errs towards the pool.

Invariants: the measure is the calling thread's own counters (its CPU clock and its
voluntary context switches, `getrusage(RUSAGE_THREAD)`): other load on the machine does not
change them, as it changes a wall-clock sample. A call during which the garbage collector
ran proves nothing and its CPU counts for nothing (a collection costs tens of µs of CPU in
whichever call triggers it); only a block during it still counts. Where the system keeps
no per-thread counters (only Linux does), rule 2 proves nothing and undeclared sync
callables always run in the pool. The counters are advisory: unsynchronised updates from
worker threads are harmless. A call in the pool runs in a copy of the caller's context, so
it sees the caller's context variables.
"""

from __future__ import annotations

import asyncio
import contextvars
import enum
import gc
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

try:
    import resource
except ImportError:  # no `resource` module (Windows)
    resource = None  # type: ignore[assignment]  # rule 2 is off without it

_RUSAGE_THREAD: int | None = getattr(resource, "RUSAGE_THREAD", None)

MEASURED = _RUSAGE_THREAD is not None  # rule 2 can prove a callable cheap here

F = TypeVar("F", bound=Callable[..., Any])


class Placement(str, enum.Enum):
    INLINE = "inline"  # on the event loop, in the task's own coroutine
    POOL = "pool"  # in the default thread pool


def inline(fn: F) -> F:
    """Declare a sync callable that never blocks: it always runs on the event loop."""
    fn.__agentc_inline__ = True  # type: ignore[attr-defined]  # the declaration rule 1 reads
    return fn


def declared_inline(fn: object) -> bool:
    return getattr(fn, "__agentc_inline__", False) is True


class _Collections:
    """How many garbage collections have started (any thread): a call during which this
    moved is not a sample of the callable's own cost."""

    __slots__ = ("started",)

    def __init__(self) -> None:
        self.started = 0

    def __call__(self, phase: str, info: Mapping[str, Any]) -> None:
        if phase == "start":
            self.started += 1


_GC = _Collections()
if MEASURED:  # only rule 2 reads it
    gc.callbacks.append(_GC)


def _sample() -> tuple[int, int]:
    """This thread's CPU time (ns) and voluntary context switches so far."""
    assert resource is not None and _RUSAGE_THREAD is not None  # only when MEASURED
    return time.thread_time_ns(), resource.getrusage(_RUSAGE_THREAD).ru_nvcsw


class SyncPolicy:
    """Rules 1 and 2 for one sync callable, shared by the runs of a graph (and by a tool's
    copies): where its next call goes, and what its calls so far proved."""

    __slots__ = ("declared", "cheap", "proven", "slow", "costly")
    CHEAP_CPU_NS = 50_000  # under the cost of the thread hop it replaces
    PROVE = 3

    def __init__(self, declared: bool = False) -> None:
        self.declared = declared
        self.cheap = False
        self.proven = 0
        self.slow = False
        self.costly = False  # the last call spent more than CHEAP_CPU_NS

    @classmethod
    def of(cls, fn: object) -> SyncPolicy:
        return cls(declared_inline(fn))

    @property
    def placement(self) -> Placement:
        return Placement.INLINE if self.declared or self.cheap else Placement.POOL

    def observe(self, cpu_ns: int, blocked: bool, inline: bool) -> None:
        """Rule 2 on one call's counters (`inline`: it ran on the event loop)."""
        costly = cpu_ns > self.CHEAP_CPU_NS
        if blocked or costly:
            if inline and (blocked or self.costly):  # a block at once; CPU twice in a row
                self.slow, self.cheap = True, False
            self.proven = 0
        elif not self.slow and not self.cheap:
            self.proven += 1
            self.cheap = self.proven >= self.PROVE
        self.costly = costly

    def call(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: Mapping[str, Any], inline: bool
    ) -> Any:
        """`fn(*args, **kwargs)` on this thread, counted while rule 2 still needs it."""
        if self.declared or self.slow or not MEASURED:
            return fn(*args, **kwargs)
        collections = _GC.started
        cpu, switches = _sample()
        try:
            return fn(*args, **kwargs)
        finally:
            cpu_after, switches_after = _sample()
            blocked = switches_after > switches
            if _GC.started == collections:
                self.observe(cpu_after - cpu, blocked, inline)
            elif blocked:  # the CPU is partly the collector's, but a block is fn's own
                self.observe(0, blocked, inline)


async def run_sync(policy: SyncPolicy, fn: Callable[..., Any], kwargs: Mapping[str, Any]) -> Any:
    """A sync tool body's call, placed by `policy` (the pool copies the context, so
    `interrupt()` finds the task there too)."""
    if policy.placement is Placement.INLINE:
        return policy.call(fn, (), kwargs, True)
    return await asyncio.to_thread(policy.call, fn, (), kwargs, False)


def in_pool(fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
    """`fn(*args)` in the loop's default thread pool, in a copy of the caller's context
    (its context variables: the current task, a test's cassette source, a user's own)."""
    context = contextvars.copy_context()
    return asyncio.get_running_loop().run_in_executor(None, lambda: context.run(fn, *args))
