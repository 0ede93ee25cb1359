"""Running one superstep's tasks: concurrency, the first-failure rule, timeouts, retries.

Input: the step's tasks (in task-path order), the state view they read, the answers known
for pending interrupts. Output: a `StepOutcome` — each finished task's `TaskResult`, the
interrupts raised, the first failure. Async nodes run as asyncio tasks; sync nodes in the
loop's thread pool (in a copy of the caller's context), except those that run inline on the
loop: a node its `SyncPolicy` places inline (`inline.py`), and a lone task when the sync API
drives a private loop (nothing else shares that loop, so that call is not measured either).
A step whose tasks all run inline runs them one after the other in task order, without an
asyncio task each. Under a step timeout (F2) or a node timeout, sync nodes and the sync
tool bodies they call run in the pool, where the timeout can fire; a sync call still
running then is given up (`inline.py`) and the step ends at once, failing unless every
task cut answered the cut (`STEP_CUT`, as the tools node does). The first failure aborts
the step: tasks in flight are cancelled, tasks not started never start (E6). No retry
unless the node has a retry policy (E7).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import agentc.runtime.inline as inline
from agentc.runtime.algo import ParentCommand, Task, TaskResult, check_goto, normalize
from agentc.runtime.bind import BoundGraph, BoundNode
from agentc.runtime.cache import NodeCache, cache_key
from agentc.runtime.channels import MISSING
from agentc.runtime.context import TaskContext, enter, leave
from agentc.runtime.errors import (
    AgentcRuntimeError,
    InvalidSendError,
    StepTimeoutError,
    mark_failed_node,
)
from agentc.runtime.events import DebugKind
from agentc.runtime.inline import STEP_CUT, Placement, SyncPolicy, deadline_scope, in_pool
from agentc.runtime.records import dataclass
from agentc.runtime.retry import retry_delay
from agentc.runtime.schema import check
from agentc.runtime.types import GraphInterrupt, Interrupt

if TYPE_CHECKING:
    from agentc.runtime.runspec import RunSpec

# ---------------------------------------------------------------- calling a sync node


_NO_KWARGS: Mapping[str, Any] = MappingProxyType({})


def call_sync(fn: Callable[..., Any], args: tuple[Any, ...], ctx: TaskContext) -> Any:
    """A router's (or an unplaced callable's) call, with `ctx` as the current task."""
    token = enter(ctx)
    try:
        return fn(*args)
    finally:
        leave(token)


def call_placed(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    ctx: TaskContext,
    policy: SyncPolicy,
    inline: bool,
) -> Any:
    """A sync node's call, counted by its `SyncPolicy` (`inline`: on the event loop)."""
    token = enter(ctx)
    try:
        return policy.call(fn, args, _NO_KWARGS, inline)
    finally:
        leave(token)


# ---------------------------------------------------------------- one step


@dataclass(slots=True)
class StepOutcome:
    results: dict[str, TaskResult]  # task id → result of each task that finished
    # the interrupts raised, one tuple per task that paused (LangGraph streams each task's)
    asked: list[tuple[Interrupt, ...]] = field(default_factory=list)
    stopped: bool = False  # a task raised GraphInterrupt
    failure: BaseException | None = None

    def lost(self, exc: BaseException) -> None:
        """A task that raised: it paused (its interrupts are kept, its siblings go on) or
        it failed (the first failure is the step's, E6)."""
        if isinstance(exc, GraphInterrupt):
            self.stopped = True
            self.asked.append(tuple(exc.interrupts))
        elif self.failure is None:
            self.failure = exc


OnFinished = Callable[[str, TaskResult], Awaitable[None]]
_FAIR = 100  # inline tasks in a row before a step of them yields to the event loop


@dataclass(frozen=True, slots=True)
class StepEnv:
    """What every task of a run shares (built once per run)."""

    bound: BoundGraph
    spec: RunSpec
    run_id: str
    channels: Mapping[str, Any]
    debug: Callable[[DebugKind, Any, int], None] | None  # None: no debug stream
    cache: NodeCache | None = None  # the compiled graph's node cache


class StepRunner:
    """Runs the tasks of one step at a time for one run."""

    __slots__ = ("env",)

    def __init__(self, env: StepEnv) -> None:
        self.env = env

    async def run(
        self,
        todo: list[Task],
        step: int,
        view: Mapping[str, Any],
        resumes: dict[str, Any],
        on_finished: OnFinished | None,
    ) -> StepOutcome:
        """Run `todo`; `on_finished` hears each task that finishes while siblings run."""
        out = StepOutcome({})
        if self.env.debug is not None:
            self.env.debug(DebugKind.TASK, [{"id": t.id, "node": t.node} for t in todo], step)
        if len(todo) != 1 or self.env.spec.step_timeout is not None:
            if self.env.spec.step_timeout is None and self._all_inline(todo):
                await self._in_order(todo, step, view, resumes, out, on_finished)
            else:
                await self._many(todo, step, view, resumes, out, on_finished)
            return out
        try:  # a lone task: awaited here, no asyncio task of its own
            out.results[todo[0].id] = await self.run_task(todo[0], view, step, resumes, True)
        except Exception as exc:  # noqa: BLE001 - the loop re-raises it
            out.lost(exc)
        return out

    def _all_inline(self, todo: list[Task]) -> bool:
        """Every task's node is sync, placed inline, without a timeout or a retry policy
        (retries' back-off sleeps of several tasks overlap, as LangGraph's)."""
        nodes = self.env.bound.nodes
        seen = ""
        for task in todo:
            if task.node != seen:
                if not _runs_inline(nodes[task.node]) or nodes[task.node].retry is not None:
                    return False
                seen = task.node
        return True

    async def _in_order(
        self,
        todo: list[Task],
        step: int,
        view: Mapping[str, Any],
        resumes: dict[str, Any],
        out: StepOutcome,
        on_finished: OnFinished | None,
    ) -> None:
        """Inline tasks one after the other, in task order: what `_many` would give (its
        writes apply in task order anyway, E5), without an asyncio task each. Interrupts
        are collected, the first failure ends the step (E6: the rest never start); a task
        whose node was sent to the pool meanwhile hands the rest to `_many`. Every `_FAIR`
        tasks it yields to the loop, so a huge fan-out does not hold other runs up."""
        nodes = self.env.bound.nodes
        last = len(todo) - 1
        for i, task in enumerate(todo):
            if not _runs_inline(nodes[task.node]):  # it blocked in an earlier task
                await self._many(todo[i:], step, view, resumes, out, on_finished)
                return
            if i and i % _FAIR == 0:
                await asyncio.sleep(0)  # let the loop's other work (other runs) in
            try:
                result = await self.run_task(task, view, step, resumes, False)
            except Exception as exc:  # noqa: BLE001 - the loop re-raises it
                out.lost(exc)
                if out.failure is not None:
                    return
                continue
            out.results[task.id] = result
            if on_finished is not None and i < last:  # F11 sync, as `_many`'s
                await on_finished(task.id, result)

    async def _many(
        self,
        todo: list[Task],
        step: int,
        view: Mapping[str, Any],
        resumes: dict[str, Any],
        out: StepOutcome,
        on_finished: OnFinished | None,
    ) -> None:
        """Run tasks concurrently; stop at the first failure (E6) or the step timeout (F2)."""
        with inline.step_calls() as calls:  # E6: the tasks' pool calls, waited for on a failure
            futs: dict[asyncio.Future[TaskResult], Task] = {
                asyncio.ensure_future(self.run_task(t, view, step, resumes, False)): t for t in todo
            }
        pending = set(futs)
        timeout = self.env.spec.step_timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        until = asyncio.FIRST_COMPLETED if on_finished else asyncio.FIRST_EXCEPTION  # F11 sync
        try:
            while pending and out.failure is None:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                done, pending = await asyncio.wait(pending, timeout=left, return_when=until)
                if not done:
                    await self._cut(pending, futs, out, f"step {step} ran longer than {timeout}s")
                    pending = set()
                    return
                await self._collect(
                    sorted(done, key=lambda f: futs[f].path),
                    futs,
                    out,
                    on_finished if pending else None,
                )
        finally:
            for fut in pending:  # E6: tasks in flight are cancelled
                fut.cancel()
            if pending:
                await asyncio.wait(pending)
            await inline.finish_calls(calls, deadline, out.failure)

    @staticmethod
    async def _cut(
        pending: set[asyncio.Future[TaskResult]],
        futs: dict[asyncio.Future[TaskResult], Task],
        out: StepOutcome,
        what: str,
    ) -> None:
        """F2: the step ran out. Tasks still running are cancelled with `STEP_CUT`; one that
        answers it (the tools node does) is a result; the step fails if any did not."""
        for fut in pending:
            fut.cancel(STEP_CUT)
        await asyncio.wait(pending)
        answered = sorted((f for f in pending if not f.cancelled()), key=lambda f: futs[f].path)
        await StepRunner._collect(answered, futs, out, None)
        cut = sorted({futs[f].node for f in pending if futs[f].id not in out.results})
        if cut and out.failure is None:
            out.failure = StepTimeoutError(f"{what} (still running: {', '.join(cut)})")

    @staticmethod
    async def _collect(
        done: list[asyncio.Future[TaskResult]],
        futs: dict[asyncio.Future[TaskResult], Task],
        out: StepOutcome,
        on_finished: OnFinished | None,
    ) -> None:
        for fut in done:
            exc = fut.exception()
            if exc is not None:
                out.lost(exc)
                continue
            tid = futs[fut].id
            out.results[tid] = fut.result()
            if on_finished is not None and out.failure is None:
                await on_finished(tid, out.results[tid])

    async def run_task(
        self, task: Task, view: Mapping[str, Any], step: int, resumes: dict[str, Any], lone: bool
    ) -> TaskResult:
        env = self.env
        node = env.bound.nodes[task.node]
        s = env.spec
        ctx = TaskContext(  # positionally: its fields in order, `asked` 0
            step,
            task.node,
            s.config,
            task.id,
            s.ns,
            s.checkpointer,
            resumes,
            s.sink,
            s.modes,
            0,
            env.run_id,
            s.store,
            lone and s.inline_sync,
        )
        if task.arg is MISSING:
            state = view
        else:
            state = task.arg
            if node.payload is not None:
                check_payload(node, state)
        key = None
        if node.cache is not None and env.cache is not None:
            key, hit = self._cached(task, state, step)
            if hit is not None:
                return hit
        attempt = 0
        while True:  # until the node returns, or its retry policy gives up (E7)
            attempt += 1
            if attempt > 1:  # a retry counts its interrupts and child runs afresh
                ctx.asked = ctx.children = 0
            try:
                if node.timeout_s is None and s.step_timeout is None:  # no deadline scope
                    out = await self._call(node, state, ctx, lone)
                else:
                    out = await self.call(node, state, ctx, lone)
                result = normalize(task.node, out, env.channels)
                if node.goto is not None and result.goto:
                    check_goto(task.node, node.goto, result.goto)
            except (GraphInterrupt, ParentCommand):
                raise
            except AgentcRuntimeError as exc:
                mark_failed_node(exc, task.node, task.id, s.ns)
                raise
            except Exception as exc:
                delay = retry_delay(node.retry, attempt, exc)
                if delay is None:
                    mark_failed_node(exc, task.node, task.id, s.ns)
                    raise
                await asyncio.sleep(delay)
                continue
            break
        if key is not None and env.cache is not None and node.cache is not None:
            env.cache.set(key, result, node.cache.ttl_s)
        if env.debug is not None:
            self._debug_result(task, result, step)
        return result

    def _cached(self, task: Task, state: Any, step: int) -> tuple[str | None, TaskResult | None]:
        """The task's cache key and, on a hit, the cached result (LangGraph's CachePolicy)."""
        assert self.env.cache is not None
        key = cache_key(task.node, state)
        hit = self.env.cache.get(key) if key is not None else None
        if hit is not None and self.env.debug is not None:
            self._debug_result(task, hit, step)
        return key, hit

    def _debug_result(self, task: Task, result: TaskResult, step: int) -> None:
        assert self.env.debug is not None
        self.env.debug(
            DebugKind.TASK_RESULT,
            {"id": task.id, "node": task.node, "writes": dict(result.writes)},
            step,
        )

    async def call(self, node: BoundNode, state: Any, ctx: TaskContext, lone: bool) -> Any:
        if node.timeout_s is None and self.env.spec.step_timeout is None:
            return await self._call(node, state, ctx, lone)  # no deadline: no scope to enter
        with deadline_scope():  # F2: sync tool bodies run in the pool, where it can fire
            return await self._call(node, state, ctx, lone)

    async def _call(self, node: BoundNode, state: Any, ctx: TaskContext, lone: bool) -> Any:
        c = node.callee
        args = (state, ctx) if c.wants_ctx else (state,)
        if c.is_async:
            token = enter(ctx)
            try:
                if node.timeout_s is None:
                    return await c.fn(*args)
                return await _timed(node, c.fn(*args))
            finally:
                leave(token)
        s = self.env.spec
        if node.timeout_s is None:
            if lone and s.inline_sync:  # the private loop: nothing to learn
                out = call_sync(c.fn, args, ctx)
            elif s.step_timeout is None and node.policy.placement is Placement.INLINE:
                # (a step timeout keeps sync nodes in the pool: it must be able to fire, F2)
                out = call_placed(c.fn, args, ctx, node.policy, True)
            else:
                out = await in_pool(call_placed, c.fn, args, ctx, node.policy, False)
        else:
            out = await _timed(node, in_pool(call_placed, c.fn, args, ctx, node.policy, False))
        if type(out) is dict:  # the common answer: no awaitable to look for
            return out
        return await out if inspect.isawaitable(out) else out


def _runs_inline(node: BoundNode) -> bool:
    """A sync node whose next call runs on the event loop wherever its task runs."""
    return (
        not node.callee.is_async
        and node.timeout_s is None
        and node.policy.placement is Placement.INLINE
    )


def check_payload(node: BoundNode, payload: Any) -> None:
    """A Send's payload against the node's `input: Schema`, before the node runs."""
    assert node.payload is not None
    problem = check(node.payload.schema, payload, node.payload.defs)
    if problem is not None:
        raise InvalidSendError(
            f"node `{node.name}` was sent a payload that does not match "
            f"`{node.payload.name}`: {problem.describe()}",
            span=node.spec.span,
            help=f"send a `{node.payload.name}` (its fields are the node's `input` schema)",
        )


async def _timed(node: BoundNode, aw: Any) -> Any:
    assert node.timeout_s is not None  # called only for a node with a timeout
    try:
        return await asyncio.wait_for(aw, node.timeout_s)
    except TimeoutError as exc:
        raise StepTimeoutError(
            f"node `{node.name}` ran longer than its {node.timeout_s}s timeout", span=node.spec.span
        ) from exc
