"""What `/undo` goes back to, read from a thread's saved states.

Input: the compiled graph (with its checkpointer) and the config of the chat's place on
its thread: the thread id, and the checkpoint an `/undo` went back to (None: the thread's
latest state). Output: `undo_target` → the checkpoint before the last message the user
sent on this branch (`Undo`), or None when there is none. Invariants: only the branch that
leads to the chat's place is walked (parent by parent, through `get_state`), so a turn
undone earlier, still saved on its abandoned branch, is never gone back to; nothing is
written here — the next turn forks the thread from the target (LangGraph's time travel: a
run addressed at a checkpoint continues from it on a new branch).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentc.runtime import CompiledGraph, RunConfig, StateSnapshot


@dataclass(frozen=True, slots=True)
class Undo:
    """Where `/undo` goes: the checkpoint whose state is the one before the user's last
    message, and that message's text (None when it was not a plain message)."""

    checkpoint_id: str
    said: str | None


def undo_target(compiled: CompiledGraph, config: RunConfig) -> Undo | None:
    """The input checkpoint of the last turn on this branch: it holds the state as it was
    before that turn's input was applied. At the checkpoint an `/undo` went to (the
    config names it) the walk starts at its parent, so each `/undo` goes back one turn
    more; at the thread's latest state an input checkpoint is the last turn's own (a turn
    stopped before its input was applied)."""
    from agentc.runtime.checkpoint import CheckpointSource

    here = snap = compiled.get_state(config)
    if snap is not None and config.checkpoint_id is not None:
        snap = _parent(compiled, snap)
    while snap is not None:
        if snap.source is CheckpointSource.INPUT:
            assert here is not None, "a walk starts from a saved state"
            return Undo(_id(snap), _said(_messages(here.values), _messages(snap.values)))
        snap = _parent(compiled, snap)
    return None


def _parent(compiled: CompiledGraph, snap: StateSnapshot) -> StateSnapshot | None:
    if snap.parent_checkpoint_id is None:
        return None
    return compiled.get_state(replace(snap.config, checkpoint_id=snap.parent_checkpoint_id))


def _id(snap: StateSnapshot) -> str:
    ckpt = snap.config.checkpoint_id
    assert ckpt is not None, "a snapshot read from the history names its checkpoint"
    return ckpt


def _said(now: list[Any], before: list[Any]) -> str | None:
    """The first message of the user's among those the undone turns added."""
    for m in now[len(before) :]:
        if getattr(m, "type", None) == "human":
            content = m.content
            return content if isinstance(content, str) else str(content)
    return None


def _messages(values: dict[str, Any]) -> list[Any]:
    value = values.get("messages")
    return list(value) if isinstance(value, (list, tuple)) else []
