"""The superstep loop: one run of a bound graph, from input (or resume) to END or a pause.

Input: a `BoundGraph`, a `RunSpec` (config, limits, durability, stream sink, store) and
the caller's input. Output: an `Outcome` (values, pending interrupts), stream events
through the sink, checkpoints through the store. The loop owns time, I/O and concurrency;
planning and write application are the pure functions of `algo`. Async tasks run as
asyncio tasks, sync callables in the loop's thread pool (inline when a sync caller runs a
lone task on its private loop); the first failure aborts the step (E6).
"""

from __future__ import annotations

import asyncio
import inspect
import random
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping

from agentc.compiler import ir
from agentc.runtime.algo import (EMPTY_RESULT, INPUT_WRITER, ParentCommand, Task, TaskResult,
                                 apply_writes, normalize, plan_tasks, route_targets,
                                 should_interrupt, when_target)
from agentc.runtime.bind import BoundBranch, BoundGraph, BoundNode, Callee
from agentc.runtime.channels import MISSING, DeltaKind
from agentc.runtime.checkpoint import (Checkpoint, CheckpointSource, CheckpointStore,
                                       PendingWrite, WriteKind, new_checkpoint_id)
from agentc.runtime.context import _CURRENT, Sink, TaskContext
from agentc.runtime.errors import (AgentcRuntimeError, CheckpointerRequiredError,
                                   EmptyInputError, InvalidUpdateError, RecursionLimitError,
                                   ResumeError, StepTimeoutError)
from agentc.runtime.events import (DebugEvent, DebugKind, InterruptEvent, UpdatesEvent,
                                   ValuesEvent)
from agentc.runtime.serde import register_type
from agentc.runtime.types import (Command, Durability, GraphInterrupt, Interrupt, RunConfig,
                                  Send, StreamMode)

register_type(Send, "agentc.Send")
register_type(Interrupt, "agentc.Interrupt")


class ResumeMap(dict):
    """An explicit {interrupt id: answer} map; unknown ids are ignored (subgraph resume)."""


@dataclass(frozen=True, slots=True)
class RunSpec:
    config: RunConfig
    limit: int
    durability: Durability = Durability.ASYNC
    modes: frozenset[StreamMode] = frozenset()
    sink: Sink | None = None
    ns: str = ""
    store: CheckpointStore | None = None
    inline_sync: bool = False
    step_timeout: float | None = None
    limit_span: Any = None
    interrupt_before: frozenset[str] = frozenset()
    interrupt_after: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Outcome:
    values: dict[str, Any]
    interrupts: tuple[Interrupt, ...] = ()
    paused: bool = False  # stopped at a breakpoint or an interrupt
    step: int = 0


_IO_POOLS: "weakref.WeakKeyDictionary[Any, ThreadPoolExecutor]" = weakref.WeakKeyDictionary()


def io_pool(store: Any) -> ThreadPoolExecutor:
    """One writer thread per blocking store: saves stay in order (F11 async)."""
    pool = _IO_POOLS.get(store)
    if pool is None:
        pool = _IO_POOLS[store] = ThreadPoolExecutor(1, thread_name_prefix="agentc-ckpt")
    return pool


# ---------------------------------------------------------------- retry (E7)

_NO_RETRY = (ValueError, TypeError, ArithmeticError, ImportError, LookupError, NameError,
             SyntaxError, RuntimeError, ReferenceError, StopIteration, StopAsyncIteration,
             OSError, AgentcRuntimeError)


def _retryable(exc: BaseException) -> bool:
    """LangGraph's default_retry_on: connection errors and 5xx yes, programming errors no."""
    if isinstance(exc, ConnectionError):
        return True
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if isinstance(status, int):
        return status >= 500
    return not isinstance(exc, _NO_RETRY)


def retry_delay(policy: ir.RetryPolicy | None, attempt: int, exc: BaseException) -> float | None:
    """Seconds to wait before another attempt, or None to raise (E7: none without a policy)."""
    if policy is None or attempt >= policy.max_attempts:
        return None
    if policy.retry_on:
        if not any(c.__name__ in policy.retry_on for c in type(exc).__mro__):
            return None
    elif not _retryable(exc):
        return None
    interval = min(policy.max_interval,
                   policy.initial_interval * policy.backoff_factor ** (attempt - 1))
    return interval + (random.uniform(0, 1) if policy.jitter else 0.0)


def _call_sync(fn: Callable[..., Any], args: tuple[Any, ...], ctx: TaskContext) -> Any:
    token = _CURRENT.set(ctx)
    try:
        return fn(*args)
    finally:
        _CURRENT.reset(token)


# ---------------------------------------------------------------- the loop

class Loop:
    """The state of one run. Created per run; the BoundGraph is shared and read-only."""

    def __init__(self, bound: BoundGraph, spec: RunSpec) -> None:
        self.b, self.s = bound, spec
        self.thread = spec.config.thread_id
        self.saving = spec.store is not None and self.thread is not None
        self.channels = bound.new_channels()
        self.versions: dict[str, int] = {}
        self.seen: dict[str, int] = {}
        self.step = -1
        self.next: list[Task] = []
        self.ran: tuple[str, ...] = ()
        self.parent_id: str | None = None
        self.done: dict[str, TaskResult] = {}  # finished tasks of the pending step
        self.interrupts: list[Interrupt] = []
        self.resumes: dict[str, Any] = {}
        self.run_steps = 0
        self.bg: list[asyncio.Future[Any]] = []
        self.exit_save: tuple[CheckpointSource, tuple[str, ...]] | None = None
        self._view: Mapping[str, Any] | None = None
        self.stopped = False  # a task raised GraphInterrupt in this step

    # ---- state

    def view(self) -> Mapping[str, Any]:
        if self._view is None:
            self._view = MappingProxyType(
                {k: ch.view() for k, ch in self.channels.items() if ch.value is not MISSING})
        return self._view

    def values(self) -> dict[str, Any]:
        chans = self.channels
        return {k: chans[k].output() for k in self.b.output_channels
                if chans[k].value is not MISSING}

    def restore(self, chain: list[Checkpoint], writes: list[PendingWrite],
                fresh: bool = True) -> None:
        """Replay `chain`'s deltas (onto fresh channels, or onto the parent's state)."""
        cleared: set[str] = set() if fresh else set(self.channels)
        for ckpt in chain:
            for key, delta in ckpt.deltas.items():
                ch = self.channels.get(key)
                if ch is None:
                    continue  # a channel the graph no longer has
                if key not in cleared:
                    ch.apply_delta((DeltaKind.CLEAR, None))
                    cleared.add(key)
                ch.apply_delta(delta)
        for ch in self.channels.values():
            ch.take_delta()  # the restored state is the saved baseline
        last = chain[-1]
        self.versions, self.seen = dict(last.versions), dict(last.seen)
        self.step, self.next, self.ran = last.step, list(last.next), last.ran
        self.parent_id = last.id
        for tid, kind, payload in writes:
            if kind is WriteKind.RESULT:
                self.done[tid] = payload
            elif kind is WriteKind.INTERRUPT:
                self.interrupts = list(payload)  # each pause writes the full pending list
            else:
                self.resumes.update(payload)
        self._view = None

    async def load(self) -> None:
        if not self.saving:
            return
        store, cid = self.s.store, self.s.config.checkpoint_id
        last = await self.io(store.get, self.thread, self.s.ns, cid, wait=True)
        if last is None:
            if cid is not None:
                raise CheckpointerRequiredError(
                    f"thread `{self.thread}` has no checkpoint `{cid}`")
            return
        chain = await self.io(store.chain, self.thread, self.s.ns, last.id, wait=True)
        writes = await self.io(store.writes, self.thread, self.s.ns, last.id, wait=True)
        self.restore(chain, writes)

    # ---- input

    async def take_input(self, value: Any) -> None:
        if isinstance(value, Command):
            return self.take_command(value)
        if value is None:
            if self.parent_id is None:
                raise EmptyInputError(
                    "the input is None and there is nothing to resume",
                    help="pass a dict of input channels, or a thread id with a saved run (A5)")
            self.seen = dict(self.versions)  # D7: a resume does not stop on the same state
            return
        if not isinstance(value, Mapping):
            raise InvalidUpdateError(
                f"the input must be a dict of channel values, not {type(value).__name__}")
        keep = self.b.input_channels  # A5: other keys are dropped silently
        writes = [(k, v) for k, v in value.items() if k in keep]
        self.done.clear(), self.interrupts.clear(), self.resumes.clear()
        await self.commit([(INPUT_WRITER, TaskResult(writes))], [], CheckpointSource.INPUT)

    def take_command(self, cmd: Command) -> None:
        if cmd.resume is None:
            raise ResumeError("a Command given as input must carry `resume`")
        if not self.saving:
            raise CheckpointerRequiredError(
                "cannot resume: this run has no checkpointer and thread id to resume from (D4)",
                help="compile the graph with a checkpointer and pass RunConfig(thread_id=…)")
        if self.parent_id is None:
            raise ResumeError(f"thread `{self.thread}` has no saved run to resume")
        self.resumes.update(self.map_resume(cmd.resume))
        self.seen = dict(self.versions)

    def map_resume(self, answer: Any) -> dict[str, Any]:
        pending = [i.id for i in self.interrupts]
        if isinstance(answer, ResumeMap):
            return {k: v for k, v in answer.items() if k in pending}
        if isinstance(answer, dict) and answer and all(k in pending for k in answer):
            return dict(answer)
        if len(pending) == 1:
            return {pending[0]: answer}
        if not pending:
            return {}
        raise ResumeError(
            f"{len(pending)} interrupts are pending, so one answer is ambiguous",
            help="resume with Command(resume={interrupt_id: answer, …}); the ids are in "
                 "the result's `__interrupt__`")

    # ---- the loop

    async def run(self, value: Any) -> Outcome:
        try:
            await self.load()
            await self.take_input(value)
            while self.next:
                if self.run_steps >= self.s.limit:
                    raise self.limit_error()
                if should_interrupt(self.versions, self.seen, self.s.interrupt_before,
                                    self.next):
                    return Outcome(self.values(), paused=True, step=self.step)
                results = await self.run_step()
                if results is None:
                    return Outcome(self.values(), tuple(self.interrupts), True, self.step)
                ran = self.next
                ordered = [(t, results[t.id]) for t in ran]
                self.run_steps += 1
                await self.commit([(t.node, r) for t, r in ordered], ordered,
                                  CheckpointSource.LOOP)
                if should_interrupt(self.versions, self.seen, self.s.interrupt_after, ran):
                    return Outcome(self.values(), paused=True, step=self.step)
            return Outcome(self.values(), step=self.step)
        finally:
            await self.flush()

    def limit_error(self) -> RecursionLimitError:
        return RecursionLimitError(
            f"the run needed more than {self.s.limit} supersteps without reaching END",
            span=self.s.limit_span,
            help="raise `limits { steps: N }` in the graph, or pass "
                 "RunConfig(recursion_limit=N) for this run (F1)")

    async def commit(self, ordered: list[tuple[str, TaskResult]],
                     ran: list[tuple[Task, TaskResult]], source: CheckpointSource) -> None:
        """Apply a step's writes in task order, plan the next step, checkpoint (E5, F11)."""
        updated = apply_writes(self.channels, ordered, self.b.last_value, self.b.ephemeral)
        self.step += 1
        for key in updated:
            self.versions[key] = self.step
        self._view = None
        self.emit_step(ordered, source)
        if source is CheckpointSource.INPUT:
            ran = [(Task("", ir.START, (0, ir.START)), EMPTY_RESULT)]
        self.next = await self.plan(ran)
        self.ran = tuple(dict.fromkeys(t.node for t, _ in ran))
        self.done.clear(), self.interrupts.clear(), self.resumes.clear()
        await self.save(source, updated)

    async def plan(self, ran: list[tuple[Task, TaskResult]]) -> list[Task]:
        targets: list[Any] = []
        sources: list[str] = []
        for task, result in ran:
            targets.extend(self.b.edges.get(task.node, ()))
            targets.extend(result.goto)
            if task.node not in sources:
                sources.append(task.node)
        view = self.view()  # branches read the state after the whole step (divergence)
        for name in sources:
            for branch in self.b.branches.get(name, ()):
                targets.extend(await self.route(branch, view))
        return plan_tasks(self.s.ns, self.step + 1, targets, self.b.nodes)

    async def route(self, branch: BoundBranch, view: Mapping[str, Any]) -> list[Any]:
        if branch.router is None:
            return when_target(branch.cases, view)
        c = branch.router
        ctx = TaskContext(self.step, branch.source, self.s.config, "", self.s.ns)
        answer = _call_sync(c.fn, (view, ctx) if c.wants_ctx else (view,), ctx)
        if inspect.isawaitable(answer):
            answer = await answer
        return route_targets(branch.spec, answer)

    # ---- one step

    async def run_step(self) -> dict[str, TaskResult] | None:
        """Run the pending tasks; None when the step paused on interrupts."""
        tasks, step = self.next, self.step + 1
        results = {t.id: self.done[t.id] for t in tasks if t.id in self.done}
        todo = [t for t in tasks if t.id not in results]
        self.debug(DebugKind.TASK, [{"id": t.id, "node": t.node} for t in todo], step)
        view = self.view()
        inline = len(todo) == 1 and self.s.inline_sync and self.s.step_timeout is None
        asked: list[Interrupt] = []
        failure: BaseException | None = None
        if len(todo) == 1 and self.s.step_timeout is None:
            try:
                results[todo[0].id] = await self.run_task(todo[0], view, step, inline)
            except GraphInterrupt as gi:
                self.stopped = True
                asked.extend(gi.interrupts)
            except Exception as exc:  # noqa: BLE001 - re-raised below
                failure = exc
        else:
            failure = await self.run_many(todo, view, step, results, asked)
        if failure is not None:
            await self.keep_finished(results)
            raise failure
        if self.stopped:
            await self.pause(results, asked)
            return None
        return results

    async def run_many(self, todo: list[Task], view: Mapping[str, Any], step: int,
                       results: dict[str, TaskResult], asked: list[Interrupt]
                       ) -> BaseException | None:
        """Run tasks concurrently; stop at the first failure (E6) or the step timeout (F2)."""
        futs = {asyncio.ensure_future(self.run_task(t, view, step, False)): t for t in todo}
        pending = set(futs)
        deadline = None if self.s.step_timeout is None else \
            time.monotonic() + self.s.step_timeout
        failure: BaseException | None = None
        try:
            while pending and failure is None:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                done, pending = await asyncio.wait(
                    pending, timeout=left, return_when=asyncio.FIRST_EXCEPTION)
                if not done:
                    return StepTimeoutError(
                        f"step {step} ran longer than {self.s.step_timeout}s "
                        f"(still running: {', '.join(sorted({futs[f].node for f in pending}))})")
                for fut in sorted(done, key=lambda f: futs[f].path):
                    exc = fut.exception()
                    if exc is None:
                        results[futs[fut].id] = fut.result()
                    elif isinstance(exc, GraphInterrupt):
                        self.stopped = True
                        asked.extend(exc.interrupts)
                    elif failure is None:
                        failure = exc
            return failure
        finally:
            for fut in pending:  # E6: not started / in flight are cancelled
                fut.cancel()
            if pending:
                await asyncio.wait(pending)

    async def run_task(self, task: Task, view: Mapping[str, Any], step: int,
                       inline: bool) -> TaskResult:
        node = self.b.nodes[task.node]
        ctx = TaskContext(step, task.node, self.s.config, task.id, self.s.ns, self.s.store,
                          self.resumes, self.s.sink, self.s.modes)
        state = view if task.arg is MISSING else task.arg
        attempt = 0
        while True:
            attempt += 1
            ctx.asked = 0
            try:
                out = await self.call(node, state, ctx, inline)
                result = normalize(task.node, out, self.channels)
                self.debug(DebugKind.TASK_RESULT, {"id": task.id, "node": task.node,
                                                   "writes": dict(result.writes)}, step)
                return result
            except (GraphInterrupt, ParentCommand, AgentcRuntimeError):
                raise
            except Exception as exc:
                delay = retry_delay(node.retry, attempt, exc)
                if delay is None:
                    raise
                await asyncio.sleep(delay)

    async def call(self, node: BoundNode, state: Any, ctx: TaskContext, inline: bool) -> Any:
        c: Callee = node.callee
        args = (state, ctx) if c.wants_ctx else (state,)
        if c.is_async:
            token = _CURRENT.set(ctx)
            try:
                return await self.timed(node, c.fn(*args))
            finally:
                _CURRENT.reset(token)
        if inline and node.timeout_s is None:
            out = _call_sync(c.fn, args, ctx)
        else:
            loop = asyncio.get_running_loop()
            out = await self.timed(node, loop.run_in_executor(None, _call_sync, c.fn, args, ctx))
        return await out if inspect.isawaitable(out) else out

    @staticmethod
    async def timed(node: BoundNode, aw: Any) -> Any:
        if node.timeout_s is None:
            return await aw
        try:
            return await asyncio.wait_for(aw, node.timeout_s)
        except TimeoutError as exc:
            raise StepTimeoutError(f"node `{node.name}` ran longer than its {node.timeout_s}s "
                                   "timeout", span=node.spec.span) from exc

    # ---- saving (F11)

    async def io(self, fn: Callable[..., Any], *args: Any, wait: bool) -> Any:
        store = self.s.store
        if not store.blocking:
            return fn(*args)
        fut = asyncio.get_running_loop().run_in_executor(io_pool(store), fn, *args)
        if wait:
            return await fut
        self.bg.append(fut)
        return None

    async def save(self, source: CheckpointSource, updated: set[str]) -> None:
        if not self.saving:
            for key in updated:  # nothing saves: drop the increments channels track
                self.channels[key].take_delta()
            return
        if self.s.durability is Durability.EXIT:
            self.exit_save = (source, self.ran)
            return
        await self.put_checkpoint(source, self.ran)

    async def put_checkpoint(self, source: CheckpointSource, ran: tuple[str, ...]) -> None:
        deltas = {}
        for key, ch in self.channels.items():
            d = ch.take_delta()
            if d is not None:
                deltas[key] = d
        ckpt = Checkpoint(new_checkpoint_id(), self.parent_id, self.step, source, deltas,
                          dict(self.versions), dict(self.seen), tuple(self.next), ran)
        self.parent_id = ckpt.id
        await self.io(self.s.store.put, self.thread, self.s.ns, ckpt,
                      wait=self.s.durability is not Durability.ASYNC)
        self.debug(DebugKind.CHECKPOINT, {"id": ckpt.id, "step": ckpt.step,
                                          "next": [t.node for t in ckpt.next]}, self.step)

    async def put_writes(self, writes: list[PendingWrite]) -> None:
        if not self.saving or not writes:
            return
        if self.exit_save is not None:
            await self.put_checkpoint(*self.exit_save)
            self.exit_save = None
        await self.io(self.s.store.put_writes, self.thread, self.s.ns, self.parent_id, writes,
                      wait=self.s.durability is not Durability.ASYNC)

    async def keep_finished(self, results: dict[str, TaskResult]) -> None:
        """E6: finished siblings' writes survive a failed step only under a checkpointer."""
        await self.put_writes([(tid, WriteKind.RESULT, r) for tid, r in results.items()
                               if tid not in self.done])

    async def pause(self, results: dict[str, TaskResult], asked: list[Interrupt]) -> None:
        writes: list[PendingWrite] = [(tid, WriteKind.RESULT, r) for tid, r in results.items()
                                      if tid not in self.done]
        writes.append(("", WriteKind.INTERRUPT, list(asked)))
        if self.resumes:
            writes.append(("", WriteKind.RESUME, dict(self.resumes)))
        self.interrupts = list(asked)
        await self.put_writes(writes)
        if self.s.sink is not None and self.s.modes & {StreamMode.VALUES, StreamMode.UPDATES}:
            self.s.sink(InterruptEvent(self.step + 1, tuple(asked)))

    async def flush(self) -> None:
        if self.exit_save is not None:
            await self.put_checkpoint(*self.exit_save)
            self.exit_save = None
        if self.bg:
            bg, self.bg = self.bg, []
            await asyncio.gather(*bg)

    # ---- events

    def emit_step(self, ordered: list[tuple[str, TaskResult]], source: CheckpointSource) -> None:
        sink, modes = self.s.sink, self.s.modes
        if sink is None:
            return
        if StreamMode.UPDATES in modes and source is CheckpointSource.LOOP:
            for node, result in ordered:
                sink(UpdatesEvent(self.step, node, dict(result.writes)))
        if StreamMode.VALUES in modes:
            sink(ValuesEvent(self.step, self.values()))

    def debug(self, kind: DebugKind, payload: Any, step: int) -> None:
        if self.s.sink is not None and StreamMode.DEBUG in self.s.modes:
            self.s.sink(DebugEvent(step, kind, payload if isinstance(payload, dict)
                                   else {"tasks": payload}))
