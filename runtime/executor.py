"""The superstep loop: one run of a bound graph, from input (or resume) to END or a pause.

Input: a `BoundGraph`, a `RunSpec` (config, limits, durability, stream sink, checkpointer,
long-term store, node cache) and the caller's input. Output: an `Outcome` (values, pending
interrupts), stream events through the sink, checkpoints through the checkpointer (the
long-term store is only handed to tasks as `ctx.store`: I1, the loop never touches it).
The loop owns the order of things; write application is `algo`, planning the next step
(edges, routers, joins, deferred nodes) is `planner` over `algo` and `barriers`, running a
step's tasks is `step.StepRunner`, saving is `saver.Saver`, and reading the caller's input
(a dict, None, a `Command`; time travel) is `inputs`.

As LangGraph 1.2.24, an input makes two checkpoints (source `input`: the state before it,
the hidden `__start__` task holding it; then the START step, source `loop`, that applies
it), the `updates` events of a step go out before its writes are applied (so a conflict
still shows them), a `values` event follows only a step that wrote, with every channel,
and a resumed run's stream starts with the state it resumes from.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import agentc.ir as ir
from agentc.runtime.algo import (
    Task,
    TaskResult,
    apply_writes,
    prepared,
    replan,
    replayed,
    should_interrupt,
)
from agentc.runtime.barriers import NO_WAITS, Waits
from agentc.runtime.bind import BoundGraph
from agentc.runtime.channels import MISSING, DeltaKind
from agentc.runtime.checkpoint import (
    Checkpoint,
    CheckpointSource,
    PendingWrite,
    WriteKind,
    new_checkpoint_id,
)
from agentc.runtime.errors import CheckpointerRequiredError, RecursionLimitError
from agentc.runtime.events import DebugEvent, DebugKind, InterruptEvent, UpdatesEvent, ValuesEvent
from agentc.runtime.inputs import take_input
from agentc.runtime.journal import JournalRunner, JournalSaver, take_journal
from agentc.runtime.planner import plan_next
from agentc.runtime.runspec import Outcome, RunSpec
from agentc.runtime.saver import Saver
from agentc.runtime.serde import register_type
from agentc.runtime.step import StepEnv, StepOutcome, StepRunner
from agentc.runtime.types import Durability, Interrupt, Send, StreamMode

register_type(Send, "agentc.Send")
register_type(TaskResult, "agentc.TaskResult")  # the input a START task holds
register_type(Interrupt, "agentc.Interrupt")

_PAUSE_MODES = frozenset({StreamMode.VALUES, StreamMode.UPDATES})
_PROCESS = uuid.uuid4().hex[:16]
_RUNS = itertools.count()


class Loop:
    """The state of one run. Created per run; the BoundGraph is shared and read-only."""

    def __init__(self, bound: BoundGraph, spec: RunSpec) -> None:
        self.b, self.s = bound, spec
        self.channels = bound.new_channels()
        self.versions: dict[str, int] = {}
        self.seen: dict[str, int] = {}
        self.step = -2  # a new thread's input checkpoint is step -1, its START step 0
        self.next: list[Task] = []
        self.ran: tuple[str, ...] = ()
        self.done: dict[str, TaskResult] = {}  # finished tasks of the pending step
        self.interrupts: list[Interrupt] = []
        self.resumes: dict[str, Any] = {}
        self.waits: Waits = NO_WAITS  # partly filled joins, deferred nodes not yet run
        self.loaded: Checkpoint | None = None  # the checkpoint the run started from
        # ctx.run_id: what "this run" means to per-run limits (in-process keys only, so a
        # counter after a per-process random prefix: unique, without a uuid4 per run)
        self.run_id = f"{_PROCESS}{next(_RUNS):x}"
        self.run_steps = 0
        self._view: Mapping[str, Any] | None = None
        debug = self.debug if spec.sink is not None and StreamMode.DEBUG in spec.modes else None
        j = self.journal = take_journal(spec.config.thread_id, spec.ns)  # durable engines'
        saving = (spec.checkpointer, spec.config.thread_id, spec.ns, spec.durability, debug)
        self.saver = Saver(*saving) if j is None else JournalSaver(j, *saving)
        env = StepEnv(bound, spec, self.run_id, self.channels, debug, spec.cache)
        self.runner = StepRunner(env) if j is None else JournalRunner(env, j)

    @property
    def saving(self) -> bool:
        return self.saver.active

    @property
    def parent_id(self) -> str | None:
        return self.saver.parent_id

    # ---- state

    def view(self) -> Mapping[str, Any]:
        if self._view is None:
            state = {}  # (a loop, not a comprehension: no frame of its own on 3.11)
            for k, ch in self.channels.items():
                if ch.value is not MISSING:
                    state[k] = ch.view()
            self._view = MappingProxyType(state)
        return self._view

    def values(self) -> dict[str, Any]:
        """The run's result: its output channels."""
        chans = self.channels
        return {
            k: chans[k].output() for k in self.b.output_channels if chans[k].value is not MISSING
        }

    def stream_values(self) -> dict[str, Any]:
        """What a `values` event shows: every channel with a value (LangGraph streams its
        `stream_channels`, all of the state; only invoke's result is cut to the outputs)."""
        return {k: ch.output() for k, ch in self.channels.items() if ch.value is not MISSING}

    def emit_values(self) -> None:
        """A `values` event of the state as it is (a resumed run starts with one)."""
        if self.s.sink is not None and StreamMode.VALUES in self.s.modes:
            self.s.sink(ValuesEvent(self.step, self.stream_values()))

    def restore(
        self, chain: list[Checkpoint], writes: list[PendingWrite], fresh: bool = True
    ) -> None:
        """Replay `chain`'s deltas (onto fresh channels, or onto the parent's state), then
        the pending writes saved against its last checkpoint."""
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
        self.waits = last.waits
        self.loaded = last
        self.saver.parent_id = last.id
        for tid, kind, payload in writes:
            self.restore_write(tid, kind, payload)
        self._view = None

    def restore_write(self, tid: str, kind: WriteKind, payload: Any) -> None:
        if kind is WriteKind.RESULT:
            self.done[tid] = payload
        elif kind is WriteKind.INTERRUPT:
            self.interrupts = list(payload)  # each pause writes the full pending list
        elif kind is WriteKind.UPDATE:
            self.apply_update(payload)  # D8: a Command input's update and goto
        else:
            self.resumes.update(payload)

    def apply_update(self, result: TaskResult) -> None:
        """Apply a caller's `Command(update=…, goto=…)` to the pending step: the writes
        land now (no node wrote them, so no edge follows), the gotos join the next tasks."""
        for key in apply_writes(
            self.channels, [("__command__", result)], self.b.last_value, frozenset()
        ):
            self.versions[key] = self.step
        if result.goto:
            self.next = replan(self.step + 1, self.next, self.b.nodes, result.goto)
        self._view = None

    async def load(self) -> None:
        if not self.saving:
            return
        loaded = await self.saver.load(self.s.config.checkpoint_id)
        if loaded is None:
            if self.s.config.checkpoint_id is not None:
                raise CheckpointerRequiredError(
                    f"thread `{self.s.config.thread_id}` has no "
                    f"checkpoint `{self.s.config.checkpoint_id}`"
                )
            return
        self.restore(*loaded)

    # ---- the loop

    async def run(self, value: Any) -> Outcome:
        self.saver.claim()  # the thread's only writer from this load to the final flush
        try:
            await self.load()
            await take_input(self, value)
            return await self.run_steps_until_done()
        finally:
            await self.saver.flush()

    async def run_steps_until_done(self) -> Outcome:
        s = self.s
        if self.next and self.next[0].node == ir.START:  # an input checkpoint's lone task
            await self.start_step(self.next[0])
        while self.next:
            if self.journal is not None and self.journal.stop():  # cancelled: between steps
                return Outcome(self.values(), paused=True, step=self.step)
            if self.run_steps >= s.limit:
                raise self.limit_error()
            if s.interrupt_before and should_interrupt(
                self.versions, self.seen, s.interrupt_before, self.next
            ):
                return self.breakpoint()
            results = await self.run_step()
            if results is None:
                return Outcome(self.values(), tuple(self.interrupts), True, self.step)
            ran = self.next
            if len(ran) == 1:  # the usual step: one task
                task = ran[0]
                result = results[task.id]
                ordered, named = [(task, result)], [(task.node, result)]
            else:
                ordered = [(t, results[t.id]) for t in ran]
                named = [(t.node, r) for t, r in ordered]
            self.run_steps += 1
            await self.commit(named, ordered, CheckpointSource.LOOP)
            if s.interrupt_after and should_interrupt(
                self.versions, self.seen, s.interrupt_after, ran
            ):
                return self.breakpoint()
        return Outcome(self.values(), step=self.step)

    def breakpoint(self) -> Outcome:
        """D7: a pause at `interrupt before|after`. As in LangGraph 1.2.24 the result holds
        no `__interrupt__` (nothing was asked); the `updates` stream says it paused."""
        if self.s.sink is not None and StreamMode.UPDATES in self.s.modes:
            self.s.sink(InterruptEvent(self.step + 1, ()))
        return Outcome(self.values(), paused=True, step=self.step)

    def limit_error(self) -> RecursionLimitError:
        return RecursionLimitError(
            f"the run needed more than {self.s.limit} supersteps without reaching END",
            span=self.s.limit_span,
            help="raise `limits { steps: N }` in the graph, or pass "
            "RunConfig(recursion_limit=N) for this run (F1)",
        )

    async def commit_input(self, task: Task) -> None:
        """The input checkpoint: nothing applied yet, the START task holding the input."""
        self.step += 1
        self.next, self.ran = [task], ()
        if self.saver.active:
            await self.saver.checkpoint(
                lambda parent: self.make_checkpoint(parent, CheckpointSource.INPUT, ())
            )

    async def commit_fork(self) -> None:
        """Time travel's `fork` checkpoint: the addressed state again, one step on, so the
        replay's branch starts from a checkpoint of its own (LangGraph 1.2.24)."""
        self.step += 1
        self.next = replan(self.step + 1, self.next, self.b.nodes)
        if self.saver.active:
            ran = self.ran
            await self.saver.checkpoint(
                lambda parent: self.make_checkpoint(parent, CheckpointSource.FORK, ran)
            )

    async def start_step(self, task: Task) -> None:
        """LangGraph's step of the hidden `__start__` node: the input's writes (the task's
        `arg`, a TaskResult) land (not a user step: no limit, breakpoint or `updates`
        event), START's targets are planned."""
        result = task.arg if isinstance(task.arg, TaskResult) else TaskResult()
        await self.commit([(ir.START, result)], [(task, result)], CheckpointSource.LOOP)

    async def commit(
        self,
        ordered: list[tuple[str, TaskResult]],
        ran: list[tuple[Task, TaskResult]],
        source: CheckpointSource,
    ) -> None:
        """Apply a step's writes in task order, plan the next step, checkpoint (E5, F11)."""
        sink = self.s.sink
        shown = source is CheckpointSource.LOOP and StreamMode.UPDATES in self.s.modes
        if sink is not None and shown:
            self.emit_updates(ordered)  # before the writes land: a conflict still shows them
        updated = apply_writes(self.channels, ordered, self.b.last_value, self.b.ephemeral)
        self.step += 1
        step = self.step
        for key in updated:
            self.versions[key] = step
        self._view = None
        if sink is not None and StreamMode.VALUES in self.s.modes:
            if any(r.writes for _, r in ordered):  # LangGraph: only after a step that wrote
                sink(ValuesEvent(step, self.stream_values()))
        planned = plan_next(self, ran)
        self.next = planned if isinstance(planned, list) else await planned
        self.ran = (
            (ran[0][0].node,) if len(ran) == 1 else tuple(dict.fromkeys(t.node for t, _ in ran))
        )
        if self.done:
            self.done.clear()
        if self.interrupts or self.resumes:
            self.interrupts.clear(), self.resumes.clear()
        if self.saver.active:
            ran_nodes = self.ran
            await self.saver.checkpoint(
                lambda parent: self.make_checkpoint(parent, source, ran_nodes)
            )
        else:
            for key in updated:  # nothing saves: drop the increments channels track
                self.channels[key].drop_delta()

    # ---- one step

    async def run_step(self) -> dict[str, TaskResult] | None:
        """Run the pending tasks; None when the step paused on interrupts."""
        tasks, done = self.next, self.done
        if not done and (len(tasks) == 1 or self.s.durability is not Durability.SYNC):
            # the usual step: nothing saved by an earlier try, no finished task to save
            # while its siblings run (F11 sync), so `save_finished` below is never called
            out = await self.runner.run(tasks, self.step + 1, self.view(), self.resumes, None)
            if out.failure is None and not out.stopped:
                return out.results
            return await self.step_ended(out, dict(out.results), set())
        # writes saved by an earlier try of this step: streamed again as `cached`, as
        # LangGraph re-emits the writes it hands back to a resumed step's tasks
        results = {t.id: replayed(done[t.id]) for t in tasks if t.id in done} if done else {}
        todo = [t for t in tasks if t.id not in results] if results else tasks
        saved = set(results)

        async def save_finished(tid: str, result: TaskResult) -> None:
            # F11 sync: a finished task's writes are saved while its siblings still run,
            # so a crash mid-step does not run it again
            saved.add(tid)
            results[tid] = kept = prepared(self.channels, result)
            await self.saver.put_writes([(tid, WriteKind.RESULT, kept)], wait=True)

        sync = self.s.durability is Durability.SYNC and self.journal is None  # (a journal's own)
        hear = sync and len(todo) > 1 and self.saving
        on_finished = save_finished if hear else None
        out = await self.runner.run(todo, self.step + 1, self.view(), self.resumes, on_finished)
        for tid, result in out.results.items():
            results.setdefault(tid, result)  # a saved one stays: it is what was saved
        return await self.step_ended(out, results, saved)

    async def step_ended(
        self, out: StepOutcome, results: dict[str, TaskResult], saved: set[str]
    ) -> dict[str, TaskResult] | None:
        """The step's results (`saved`: the tasks whose writes were saved while it ran);
        None when it paused. A failure is raised, with the writes that survive it saved."""
        if out.failure is not None or out.stopped:
            for tid in results.keys() - saved:  # shown, saved, and applied at each restore
                results[tid] = prepared(self.channels, results[tid])
        if out.failure is not None:
            # E6: finished siblings' writes survive a failed step only under a checkpointer
            unsaved = [(t, WriteKind.RESULT, r) for t, r in results.items() if t not in saved]
            await self.saver.put_writes(unsaved)
            raise out.failure
        if out.stopped:
            await self.pause(results, saved, out.asked)
            return None
        return results

    async def pause(
        self, results: dict[str, TaskResult], saved: set[str], by_task: list[tuple[Interrupt, ...]]
    ) -> None:
        """Save the finished tasks' writes and the questions; then, as LangGraph does, show
        the finished tasks' writes in the result (the saved state stays before the step)."""
        writes: list[PendingWrite] = [
            (tid, WriteKind.RESULT, r) for tid, r in results.items() if tid not in saved
        ]
        asked = [i for group in by_task for i in group]
        writes.append(("", WriteKind.INTERRUPT, asked))
        if self.resumes:
            writes.append(("", WriteKind.RESUME, dict(self.resumes)))
        self.interrupts = list(asked)
        await self.saver.put_writes(writes)
        sink, modes = self.s.sink, self.s.modes
        if sink is not None and StreamMode.UPDATES in modes:  # what finished, then the asks
            self.emit_updates([(t.node, results[t.id]) for t in self.next if t.id in results])
        if sink is not None and modes & _PAUSE_MODES:
            for group in by_task:  # one event per paused task, as LangGraph's chunks
                sink(InterruptEvent(self.step + 1, group))
        self.done.update(results)
        if self.apply_finished() and sink is not None and StreamMode.VALUES in modes:
            sink(ValuesEvent(self.step, self.stream_values()))

    def apply_finished(self) -> bool:
        """Apply the writes of the pending step's finished tasks to the channels (for a
        result or a live snapshot only: nothing is saved after this) and drop those tasks
        from `next`. True when an output channel changed."""
        finished = [(t.node, self.done[t.id]) for t in self.next if t.id in self.done]
        if not finished:
            return False
        updated = apply_writes(self.channels, finished, self.b.last_value, frozenset())
        self.next = [t for t in self.next if t.id not in self.done]
        self._view = None
        return any(k in updated for k in self.b.output_channels)

    # ---- saving (F11)

    def make_checkpoint(
        self, parent: str | None, source: CheckpointSource, ran: tuple[str, ...]
    ) -> Checkpoint:
        deltas = {}
        for key, ch in self.channels.items():
            d = ch.take_delta()
            if d is not None:
                deltas[key] = d
        return Checkpoint(
            new_checkpoint_id(),
            parent,
            self.step,
            source,
            deltas,
            dict(self.versions),
            dict(self.seen),
            tuple(self.next),
            ran,
            waits=self.waits,
        )

    # ---- events

    def emit_updates(self, ordered: list[tuple[str, TaskResult]]) -> None:
        """Each task's update, in task order; a task that wrote nothing shows None, and
        cache hits come first (LangGraph knows their writes before the others run)."""
        assert self.s.sink is not None
        sink, step = self.s.sink, self.step + 1
        hits = [(n, r) for n, r in ordered if r.cached]
        for node, result in [*hits, *(x for x in ordered if not x[1].cached)] if hits else ordered:
            if node == ir.START:
                continue  # hidden, as LangGraph's `__start__`
            update = dict(result.writes) if result.writes else None
            sink(UpdatesEvent(step, node, update, result.cached))

    def debug(self, kind: DebugKind, payload: Any, step: int) -> None:
        if self.s.sink is not None:  # bound as the debug hook only when there is a sink
            data = payload if isinstance(payload, dict) else {"tasks": payload}
            self.s.sink(DebugEvent(step, kind, data))
