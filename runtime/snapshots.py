"""Saved state of a thread: get_state, get_state_history and update_state.

Input: a function that makes a `Loop` over the compiled graph's checkpointer for a config
(it refuses without a checkpointer and a thread id), and the config. Output:
`StateSnapshot`s rebuilt by replaying checkpoints (and, for the live state, the pending
step's finished tasks, as LangGraph shows them), or the config of the checkpoint an
update made. Blocking stores are called off the event loop (`Saver.io`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import agentc.ir as ir
from agentc.runtime.algo import Task, normalize
from agentc.runtime.checkpoint import Checkpoint, CheckpointSource
from agentc.runtime.errors import CheckpointerRequiredError, GraphStructureError
from agentc.runtime.records import dataclass
from agentc.runtime.types import Durability, Interrupt, RunConfig

if TYPE_CHECKING:
    from agentc.runtime.executor import Loop

MakeLoop = Callable[..., "Loop"]  # (config, durability=None) → a Loop that may save


@dataclass(frozen=True, slots=True)
class StateSnapshot:
    """A saved state of a thread (get_state / get_state_history)."""

    values: dict[str, Any]
    next: tuple[str, ...]
    config: RunConfig  # points at this checkpoint
    step: int
    source: CheckpointSource
    created_at: float
    parent_checkpoint_id: str | None
    interrupts: tuple[Interrupt, ...] = ()


async def read_state(make_loop: MakeLoop, config: RunConfig) -> StateSnapshot | None:
    """The thread's latest state, or the checkpoint `config.checkpoint_id` names."""
    loop = make_loop(config)
    loaded = await loop.saver.load(config.checkpoint_id)
    if loaded is None:
        return None
    loop.restore(*loaded)
    if config.checkpoint_id is None:  # live: the finished tasks' writes show (LangGraph)
        loop.apply_finished()
    return _snapshot(loop, loaded[0][-1], config)


async def read_history(make_loop: MakeLoop, config: RunConfig) -> list[StateSnapshot]:
    """Every saved state of the thread, newest first."""
    saver = make_loop(config).saver
    thread = config.thread_id
    ckpts = await saver.io(saver.live.list, thread, "", wait=True)
    out: list[StateSnapshot] = []
    loop: Loop | None = None
    for ckpt in ckpts:
        writes = await saver.io(saver.live.writes, thread, "", ckpt.id, wait=True)
        # a checkpoint that names itself as its parent is walked (and refused) by `chain`
        if loop is None or loop.parent_id != ckpt.parent_id or ckpt.parent_id == ckpt.id:
            loop = make_loop(config)
            chain = await saver.io(saver.live.chain, thread, "", ckpt.id, wait=True)
        else:  # the next checkpoint on the same branch: replay only its own deltas
            chain = [ckpt]
            loop.done, loop.interrupts, loop.resumes = {}, [], {}
        loop.restore(chain, writes, fresh=len(chain) > 1 or ckpt.parent_id is None)
        out.append(_snapshot(loop, ckpt, config))
    out.reverse()
    return out


async def write_state(
    make_loop: MakeLoop, config: RunConfig, values: dict[str, Any] | None, as_node: str | None
) -> RunConfig:
    """Apply `values` as if `as_node` wrote them; the next tasks follow from that node."""
    loop = make_loop(config, Durability.SYNC)
    loop.saver.claim()  # an update writes the thread too: one writer at a time (F11)
    try:
        await _update(loop, config, values, as_node)
    finally:
        await loop.saver.flush()  # and the thread is free again
    return replace(config, checkpoint_id=loop.parent_id)


async def _update(
    loop: Loop, config: RunConfig, values: dict[str, Any] | None, as_node: str | None
) -> None:
    loaded = await loop.saver.load(config.checkpoint_id)
    if loaded is None:
        raise CheckpointerRequiredError(f"thread `{config.thread_id}` has no saved state")
    loop.restore(*loaded)
    node = as_node or _last_writer(loop.ran)
    if node != ir.START and node not in loop.b.nodes:
        raise GraphStructureError(f"update_state(as_node=`{node}`): no node of that name")
    result = normalize(node, values, loop.channels)
    await loop.commit(
        [(node, result)], [(Task("", node, (0, node)), result)], CheckpointSource.UPDATE
    )


def _last_writer(ran: tuple[str, ...]) -> str:
    real = [n for n in ran if n != ir.START]
    if len(real) > 1:
        raise GraphStructureError(
            f"update_state cannot tell which node to act as: the last step ran {', '.join(real)}",
            help="pass as_node=…",
        )
    return real[0] if real else ir.START


def _snapshot(loop: Loop, ckpt: Checkpoint, config: RunConfig) -> StateSnapshot:
    return StateSnapshot(
        # every channel with a value, private ones too: LangGraph's snapshot reads its
        # stream channels (all of the state), only a run's result is cut to the outputs
        loop.stream_values(),
        tuple(t.node for t in loop.next),
        replace(config, checkpoint_id=ckpt.id),
        ckpt.step,
        ckpt.source,
        ckpt.created_at,
        ckpt.parent_id,
        tuple(loop.interrupts),
    )
