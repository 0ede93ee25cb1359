"""Reading the caller's input into a run: a dict of channel values, `None`, or a `Command`.

Input: the `Loop` after it restored the thread's saved state, and the value the caller
passed. Output: the loop ready to run its pending tasks. A dict starts a new run from
START (A5: keys that are not input channels are dropped). `None` continues a saved run
(A5: refused when there is none). A `Command` (D8) may carry `resume` (answers to pending
interrupts, D4/D5), `update` (state writes applied before the next step, as the caller,
so no edge follows from them) and `goto` (nodes or Sends added to the next step); on a
thread with nothing saved, it starts a run whose first step is START's targets plus
`goto`, with `update` as the input (LangGraph 1.2.24 does the same, but applies the update
twice). A run given a checkpoint id and no answers travels in time (`replay`): from that
checkpoint, on a new branch that a `fork` checkpoint starts, as LangGraph 1.2.24.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import agentc.ir as ir
from agentc.runtime.algo import PULL, Task, TaskResult, normalize
from agentc.runtime.checkpoint import CheckpointSource, WriteKind
from agentc.runtime.config_dict import own_input
from agentc.runtime.errors import (
    CheckpointerRequiredError,
    EmptyInputError,
    InvalidUpdateError,
    ResumeError,
)
from agentc.runtime.types import Command, CommandGraph

if TYPE_CHECKING:
    from agentc.runtime.executor import Loop

COMMAND_WRITER = "__command__"


class ResumeMap(dict):
    """An explicit {interrupt id: answer} map; unknown ids are ignored (subgraph resume)."""


async def take_input(loop: Loop, value: Any) -> None:
    if isinstance(value, Command):
        return await take_command(loop, value)
    if value is None:
        if loop.parent_id is None:
            raise EmptyInputError(
                "the input is None and there is nothing to resume",
                help="pass a dict of input channels, or a thread id with a saved run (A5)",
            )
        await replay(loop, answers=False)
        loop.seen = dict(loop.versions)  # D7: a resume does not stop on the same state
        loop.emit_values()  # LangGraph: a resumed run's stream starts with the state
        return
    if not isinstance(value, Mapping):
        own_input(value)  # LangGraph's Command: "use agentc.Command"
        raise InvalidUpdateError(
            f"the input must be a dict of channel values, not {type(value).__name__}"
        )
    keep = loop.b.input_channels  # A5: other keys are dropped silently
    writes = [(k, v) for k, v in value.items() if k in keep]
    await start(loop, TaskResult(writes))


async def start(loop: Loop, first: TaskResult) -> None:
    """A new run from START, in LangGraph's two checkpoints: the input one (source `input`,
    the state as it was, next `__start__`, the input held by that task), then the START
    step (source `loop`) applies the input and plans START's targets (+ gotos)."""
    loop.done.clear(), loop.interrupts.clear(), loop.resumes.clear()
    if not loop.saving:  # no checkpoint to show it: the START step at once
        loop.step += 1
        await loop.commit([(ir.START, first)], [(_START, first)], CheckpointSource.LOOP)
        return
    # prepared, so the saved input applies the same way each time it is replayed
    first = TaskResult([(k, loop.channels[k].prepare(v)) for k, v in first.writes], first.goto)
    await loop.commit_input(Task(f"{loop.step + 2}:{ir.START}", ir.START, (PULL, ir.START), first))


_START = Task("", ir.START, (PULL, ir.START))


async def take_command(loop: Loop, cmd: Command) -> None:
    if cmd.graph is CommandGraph.PARENT:
        raise InvalidUpdateError("a Command given as input cannot go to a parent graph")
    if cmd.resume is None and cmd.update is None and cmd.goto is None:
        raise EmptyInputError("the Command given as input carries no resume, update or goto")
    update = _command_result(loop, cmd)
    if loop.parent_id is None:
        if cmd.resume is not None:
            _check_resumable(loop)
        return await start(loop, update)
    await replay(loop, answers=cmd.resume is not None)
    if cmd.resume is not None:
        loop.resumes.update(map_resume(loop, cmd.resume))
    if update.writes or update.goto:
        loop.apply_update(update)
        # saved against the pending step, so a later pause or a reader sees it (D8)
        await loop.saver.put_writes([("", WriteKind.UPDATE, update)])
    loop.seen = dict(loop.versions)  # D7: continuing does not stop on the same state
    loop.emit_values()  # LangGraph: a resumed run's stream starts with the state


async def replay(loop: Loop, *, answers: bool) -> None:
    """Time travel, as LangGraph 1.2.24: a run addressed at a checkpoint id that does not
    answer its interrupts replays from it. Its finished tasks run again and saved answers
    are forgotten; unless the checkpoint is an update (or a fork) that is still the
    thread's head, a `fork` checkpoint, a copy one step on, starts the new branch."""
    loaded = loop.loaded
    if loop.s.config.checkpoint_id is None or answers or loaded is None or not loop.saving:
        return
    loop.done.clear(), loop.resumes.clear()
    saver = loop.saver
    head = await saver.io(saver.live.get, saver.thread, saver.ns, None, wait=True)
    moved_on = head is None or head.id != loaded.id
    if loaded.source in (CheckpointSource.UPDATE, CheckpointSource.FORK) and not moved_on:
        return
    loop.interrupts.clear()
    await loop.commit_fork()


def _command_result(loop: Loop, cmd: Command) -> TaskResult:
    """`update` and `goto` as a node's return would be read (unknown channels refused)."""
    if cmd.update is None and cmd.goto is None:
        return TaskResult()
    result = normalize(COMMAND_WRITER, Command(update=cmd.update, goto=cmd.goto), loop.channels)
    writes = [(k, loop.channels[k].prepare(v)) for k, v in result.writes]
    return TaskResult(writes, list(result.goto))


def _check_resumable(loop: Loop) -> None:
    if not loop.saving:
        raise CheckpointerRequiredError(
            "cannot resume: this run has no checkpointer and thread id to resume from (D4)",
            help="compile the graph with a checkpointer and pass RunConfig(thread_id=…)",
        )
    raise ResumeError(f"thread `{loop.s.config.thread_id}` has no saved run to resume")


def map_resume(loop: Loop, answer: Any) -> dict[str, Any]:
    pending = [i.id for i in loop.interrupts]
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
        "the result's `__interrupt__`",
    )
