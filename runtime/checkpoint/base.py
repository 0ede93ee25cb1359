"""Checkpoints: what a step saves, and the `Checkpointer` protocol.

Input: per-step records built by the executor. Output: the records back, by thread id and
namespace (H3: a subgraph saves under its own namespace in the parent's store). Invariants:
a checkpoint holds *deltas* (what changed in that step; each message once), so storage
grows linearly; any checkpoint's full state is rebuilt by replaying the deltas along its
parent chain; pending writes (finished tasks of an unfinished step, interrupts, resume
answers) hang off the checkpoint whose `next` tasks they belong to; a thread has one
writer at a time (`claim`). PostgreSQL can follow by implementing `Checkpointer`.
"""

from __future__ import annotations

import enum
import itertools
import time
from dataclasses import field
from typing import Any, Protocol

from agentc.runtime.algo import Task
from agentc.runtime.barriers import NO_WAITS, Waits
from agentc.runtime.errors import DamagedCheckpointError
from agentc.runtime.records import dataclass
from agentc.runtime.threadlock import ThreadClaim


class CheckpointSource(str, enum.Enum):
    INPUT = "input"  # the caller's input was applied
    LOOP = "loop"  # a superstep finished
    UPDATE = "update"  # update_state
    FORK = "fork"  # a replay from an old checkpoint starts its branch (time travel)


class WriteKind(str, enum.Enum):
    RESULT = "result"  # a finished task's TaskResult (E6: kept only under a checkpointer)
    INTERRUPT = "interrupt"  # a task's pending Interrupts
    RESUME = "resume"  # answers given so far: {interrupt id: value}
    UPDATE = "update"  # a Command input's update and goto, applied to the pending step (D8)


_seq = itertools.count()


def new_checkpoint_id() -> str:
    """Sortable within a process run; unique across processes by the time part."""
    return f"{time.time_ns():016x}{next(_seq) & 0xFFFF:04x}"


@dataclass(frozen=True, slots=True)
class Checkpoint:
    id: str
    parent_id: str | None
    step: int
    source: CheckpointSource
    deltas: dict[str, Any]  # channel → (DeltaKind, payload)
    versions: dict[str, int]
    seen: dict[str, int]  # channel versions at the last interrupt (D7)
    next: tuple[Task, ...]
    ran: tuple[str, ...] = ()  # the nodes of the step that made it (update_state's as_node)
    created_at: float = field(default_factory=time.time)
    # partly filled joins and waiting deferred nodes after this step: saved whole (small),
    # as JSON (`Waits.to_json`), so a join survives a pause between its sources
    waits: Waits = NO_WAITS


PendingWrite = tuple[str, WriteKind, Any]  # (task id, kind, payload)


@dataclass(frozen=True, slots=True)
class CheckpointQuery:
    """Which saved checkpoints `Checkpointer.search` returns, newest first (LangGraph's
    `BaseCheckpointSaver.list(config, filter=…, before=…, limit=…)`). `None` matches
    every value: `CheckpointQuery()` is every thread's top-level checkpoints."""

    thread_id: str | None = None
    ns: str | None = ""  # "" the top-level graph; a subgraph's namespace; None: all
    source: CheckpointSource | None = None
    step: int | None = None
    before: str | None = None  # only checkpoints saved before this one (its thread's)
    limit: int | None = None

    def matches(self, checkpoint: Checkpoint) -> bool:
        """The filters a store does not answer itself (it answers thread, ns, before)."""
        return (self.source is None or checkpoint.source is self.source) and (
            self.step is None or checkpoint.step == self.step
        )


@dataclass(frozen=True, slots=True)
class SavedCheckpoint:
    """One checkpoint found by `search`, with where it was saved."""

    thread_id: str
    ns: str
    checkpoint: Checkpoint


class Checkpointer(Protocol):
    """Where checkpoints live. `blocking` stores are called from a worker thread."""

    blocking: bool

    def put(self, thread_id: str, ns: str, checkpoint: Checkpoint) -> None: ...

    def put_writes(
        self, thread_id: str, ns: str, checkpoint_id: str, writes: list[PendingWrite]
    ) -> None: ...

    def get(
        self, thread_id: str, ns: str, checkpoint_id: str | None = None
    ) -> Checkpoint | None: ...

    def list(self, thread_id: str, ns: str) -> list[Checkpoint]:
        """Oldest first."""
        ...

    def search(self, query: CheckpointQuery) -> list[SavedCheckpoint]:
        """Checkpoints across threads and namespaces, newest first (`CheckpointQuery`)."""
        ...

    def chain(self, thread_id: str, ns: str, checkpoint_id: str) -> list[Checkpoint]:
        """Root first, ending at `checkpoint_id`."""
        ...

    def writes(self, thread_id: str, ns: str, checkpoint_id: str) -> list[PendingWrite]: ...

    def delete_thread(self, thread_id: str) -> None:
        """Forget the thread: every checkpoint and pending write of it, in every namespace
        (its subgraphs' too). A thread that has none is no error."""
        ...

    def copy_thread(self, source_id: str, target_id: str) -> None:
        """Give `target_id`, a thread with nothing saved, a copy of everything `source_id`
        saved: every checkpoint and pending write, in every namespace, under the same ids
        and in the same order, so the copy reads, lists and continues as the source does
        and the two go their own ways afterwards. A source with nothing saved copies
        nothing."""
        ...

    def claim(self, thread_id: str) -> ThreadClaim:
        """Make this caller the thread's only writer until the claim is released, or raise
        `ThreadBusyError` at once (never wait). Cheap: it is taken on every run. A claim
        must not outlive its holder (SQLite: an OS lock the kernel drops with the process;
        PostgreSQL: a session advisory lock)."""
        ...

    def close(self) -> None: ...


def walk_chain(
    by_id: dict[str, Checkpoint],
    checkpoint_id: str,
    *,
    thread: str | None = None,
    where: str = "memory",
) -> list[Checkpoint]:
    """Root first, ending at `checkpoint_id`. A parent that is missing, or a chain that
    loops (a checkpoint that is its own ancestor), is `DamagedCheckpointError`."""
    out: list[Checkpoint] = []
    parents = {cid: c.parent_id for cid, c in by_id.items()}
    for cid in parent_ids(parents, checkpoint_id, thread=thread, where=where):
        out.append(by_id[cid])
    out.reverse()
    return out


def parent_ids(
    parents: dict[str, str | None],
    checkpoint_id: str,
    *,
    thread: str | None,
    where: str,
) -> list[str]:
    """`checkpoint_id` and its ancestors, newest first, by `parents` (id → parent id).
    Every walk of a parent chain goes through here: each id is visited once, so an edited
    store whose chain loops ends in a clear error instead of walking for ever."""
    ids: list[str] = []
    seen: set[str] = set()
    cid: str | None = checkpoint_id
    child: str | None = None
    while cid is not None:
        if cid in seen:
            what = (
                "it names itself as its parent"
                if cid == child
                else f"its parent chain loops back to checkpoint {cid}"
            )
            raise DamagedCheckpointError(
                what, thread=thread, where=where, checkpoint=child or checkpoint_id
            )
        if cid not in parents:
            if child is None:
                what = "it is not in the store"
            else:
                what = f"its parent checkpoint {cid} is missing"
            raise DamagedCheckpointError(
                what, thread=thread, where=where, checkpoint=child or checkpoint_id
            )
        seen.add(cid)
        ids.append(cid)
        child, cid = cid, parents[cid]
    return ids
