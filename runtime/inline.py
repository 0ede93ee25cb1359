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
3. Hysteresis: a callable sent back to the pool is not sent there for good on one sample
   (a wait for the GIL a busy worker thread held looks like a block from inside the call).
   Its calls in the pool are still counted, and after `REPROVE` clean ones in a row it runs
   inline again; each further return to the pool doubles the streak it needs. A callable
   that really blocks blocks in the pool too, so it never returns: parallel calls of a
   tool that sleeps or does I/O keep overlapping (E5).

Invariants: the measure is the calling thread's own counters (its CPU clock and its
voluntary context switches, `getrusage(RUSAGE_THREAD)`): other load on the machine does not
change them, as it changes a wall-clock sample. A call during which the garbage collector
ran proves nothing and its CPU counts for nothing (a collection costs tens of µs of CPU in
whichever call triggers it); only a block during it still counts. Where the system keeps
no per-thread counters (only Linux does), rule 2 proves nothing and undeclared sync
callables always run in the pool. The counters are advisory: unsynchronised updates from
worker threads are harmless. A call in the pool runs in a copy of the caller's context, so
it sees the caller's context variables.

Threads (F2, timeouts): every sync call that leaves the loop runs in `POOL`, the runtime's
own pool of daemon threads, never the loop's default executor. A running thread cannot be
killed: when a timeout (a step's, a node's, a tool's) gives up on a call, the call keeps
running in its thread until it returns and its result is dropped; the run, the command and
the process end without waiting for it (`asyncio.run` joins only the default executor, and
the interpreter joins only non-daemon threads). A thread given up on does not count against
the pool's size, so calls that never return cannot starve later ones. Under a deadline
(`deadline_scope`) sync tool bodies always go to the pool, even proven-cheap ones, so the
deadline can fire: a body on the loop cannot be interrupted, not even once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import enum
import gc
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, TypeVar

from agentc.runtime.errors import StepTimeoutError

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


# this thread's CPU time (ns) and, from `_usage(_RUSAGE_THREAD).ru_nvcsw`, its voluntary
# context switches so far (only when MEASURED)
_thread_ns = time.thread_time_ns
_usage: Any = getattr(resource, "getrusage", None)


class SyncPolicy:
    """Rules 1 to 3 for one sync callable, shared by the runs of a graph (and by a tool's
    copies): where its next call goes, and what its calls so far proved."""

    __slots__ = ("declared", "cheap", "proven", "slow", "costly", "demoted")
    CHEAP_CPU_NS = 50_000  # under the cost of the thread hop it replaces
    PROVE = 3
    REPROVE = 64  # clean pool calls in a row that bring a demoted callable back (rule 3)

    def __init__(self, declared: bool = False) -> None:
        self.declared = declared
        self.cheap = False
        self.proven = 0
        self.slow = False
        self.costly = False  # the last call spent more than CHEAP_CPU_NS
        self.demoted = 0  # how many times an inline call sent it back to the pool

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
                self.demoted += 1
            self.proven = 0
        elif self.slow:  # rule 3: a long clean streak in the pool brings it back
            self.proven += 1
            if self.proven >= self.REPROVE << (self.demoted - 1):
                self.slow, self.cheap, self.proven = False, True, 0
        elif not self.cheap:
            self.proven += 1
            self.cheap = self.proven >= self.PROVE
        self.costly = costly

    def call(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: Mapping[str, Any], inline: bool
    ) -> Any:
        """`fn(*args, **kwargs)` on this thread, counted while rule 2 still needs it."""
        if self.declared or not MEASURED or (inline and self.slow):
            return fn(*args, **kwargs)
        collections = _GC.started
        cpu, switches = _thread_ns(), _usage(_RUSAGE_THREAD).ru_nvcsw
        try:
            return fn(*args, **kwargs)
        finally:
            cpu_after, switches_after = _thread_ns(), _usage(_RUSAGE_THREAD).ru_nvcsw
            blocked = switches_after > switches
            if _GC.started == collections:
                self.observe(cpu_after - cpu, blocked, inline)
            elif blocked:  # the CPU is partly the collector's, but a block is fn's own
                self.observe(0, blocked, inline)


# ---------------------------------------------------------------- the pool


_Job = tuple["concurrent.futures.Future[Any]", Callable[..., Any], tuple[Any, ...]]


class DaemonPool(concurrent.futures.Executor):
    """Daemon worker threads, started on demand up to `size` busy ones and then kept. A
    call given up on (`abandon`) stops counting against `size` while it still runs."""

    def __init__(self, size: int, name: str = "agentc-sync") -> None:
        self.size, self.name = size, name
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._live = 0  # worker threads
        self._idle = 0  # workers waiting for a job (not yet promised one)
        self._backlog = 0  # jobs queued with no worker promised to them (all busy)
        self._dropped: set[concurrent.futures.Future[Any]] = set()  # given up on, running

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        fut: concurrent.futures.Future[Any] = concurrent.futures.Future()
        call = fn if not kwargs else (lambda *a: fn(*a, **kwargs))
        with self._lock:
            self._jobs.put((fut, call, args))
            if self._idle:
                self._idle -= 1  # a waiting worker takes it
            elif self._live - len(self._dropped) < self.size:
                self._live += 1
                threading.Thread(
                    target=self._work, name=f"{self.name}-{self._live}", daemon=True
                ).start()
            else:
                self._backlog += 1  # the next worker to finish takes it
        return fut

    def abandon(self, fut: concurrent.futures.Future[Any]) -> None:
        """Nobody waits for `fut` any more: its thread no longer counts as busy."""
        with self._lock:
            if fut.running():  # not done (set_result happens before the worker's check)
                self._dropped.add(fut)

    @property
    def abandoned(self) -> int:
        return len(self._dropped)

    def _work(self) -> None:
        while True:
            fut, fn, args = self._jobs.get()
            if fut.set_running_or_notify_cancel():
                try:
                    fut.set_result(fn(*args))
                except BaseException as exc:  # noqa: BLE001 - handed to whoever waits
                    fut.set_exception(exc)
            with self._lock:
                self._dropped.discard(fut)
                if self._live - len(self._dropped) > self.size:
                    self._live -= 1  # a worker came back from a dropped call: one too many
                    return
                if self._backlog:
                    self._backlog -= 1
                else:
                    self._idle += 1
            del fut, fn, args  # do not keep the last job's result alive while idle


POOL = DaemonPool(min(32, (os.cpu_count() or 1) + 4))  # the default executor's size

# F2: the message of the cancellation a step timeout sends to the tasks still running; a
# task may answer it (`cut_by_step`) instead of failing the step, as the tools node does
STEP_CUT = "agentc: the step timeout ran out"


def cut_by_step(exc: BaseException) -> bool:
    """`exc` is the step timeout's cancellation (not another cancel of the task)."""
    return isinstance(exc, asyncio.CancelledError) and exc.args[:1] == (STEP_CUT,)


_DEADLINE: contextvars.ContextVar[bool] = contextvars.ContextVar("agentc_deadline", default=False)


def deadline_scope(active: bool = True) -> AbstractContextManager[None]:
    """While active, sync tool bodies called in this context run in the pool, never on
    the loop, so the deadline around them (a step's or node's timeout) can fire. Inactive
    (every task of a graph without timeouts), one shared do-nothing block."""
    return _deadline() if active else _NO_DEADLINE


_NO_DEADLINE = nullcontext()


@contextmanager
def _deadline() -> Iterator[None]:
    token = _DEADLINE.set(True)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


async def run_sync(policy: SyncPolicy, fn: Callable[..., Any], kwargs: Mapping[str, Any]) -> Any:
    """A sync tool body's call, placed by `policy` (the pool copies the context, so
    `interrupt()` finds the task there too)."""
    if (policy.declared or policy.cheap) and not _DEADLINE.get():  # placed INLINE
        return policy.call(fn, (), kwargs, True)
    return await in_pool(policy.call, fn, (), kwargs, False)


# E6: the pool calls of the step running in this context. When a task of the step fails,
# the step waits for its siblings' calls still running (a thread cannot be stopped; as
# LangGraph's executor, whose `with` block waits for them), so their effects belong to the
# failed run and are over when the caller sees it fail.
_STEP_CALLS: contextvars.ContextVar[set[concurrent.futures.Future[Any]] | None] = (
    contextvars.ContextVar("agentc_step_calls", default=None)
)


@contextmanager
def step_calls() -> Iterator[set[concurrent.futures.Future[Any]]]:
    """Tasks created in this block register their pool calls in the set it yields."""
    calls: set[concurrent.futures.Future[Any]] = set()
    token = _STEP_CALLS.set(calls)
    try:
        yield calls
    finally:
        _STEP_CALLS.reset(token)


async def finish_calls(
    calls: set[concurrent.futures.Future[Any]], deadline: float | None, failure: object
) -> None:
    """After a step's `failure` (not its time running out, F2): wait, until `deadline` (a
    `time.monotonic()` value), for the calls still running."""
    if failure is None or isinstance(failure, StepTimeoutError):
        return
    running = [asyncio.wrap_future(f) for f in list(calls) if not f.done()]
    if running:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        await asyncio.wait(running, timeout=left)


def in_pool(fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
    """`fn(*args)` in `POOL`, in a copy of the caller's context (its context variables:
    the current task, a test's cassette source, a user's own). Cancelling the returned
    future while the call runs abandons it: the thread finishes it and drops the result."""
    context = contextvars.copy_context()
    cfut = POOL.submit(context.run, fn, *args)
    calls = _STEP_CALLS.get()
    if calls is not None:
        calls.add(cfut)
        cfut.add_done_callback(calls.discard)
    fut = asyncio.wrap_future(cfut)
    fut.add_done_callback(lambda f: POOL.abandon(cfut) if f.cancelled() else None)
    return fut
