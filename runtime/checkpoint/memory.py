"""The in-memory checkpointer: checkpoints in this process's memory."""

from __future__ import annotations

import threading

from agentc.runtime.threadlock import LocalClaims, ThreadClaim

from .base import Checkpoint, CheckpointQuery, PendingWrite, SavedCheckpoint, walk_chain


class MemoryCheckpointer:
    """Checkpoints in this process's memory. Values are kept as the objects written (not
    copied): nodes must treat state as read-only, as the runtime's views already ask."""

    blocking = False

    def __init__(self) -> None:
        self._ckpts: dict[tuple[str, str], list[Checkpoint]] = {}
        self._by_id: dict[tuple[str, str], dict[str, Checkpoint]] = {}
        self._writes: dict[tuple[str, str, str], list[PendingWrite]] = {}
        self._lock = threading.Lock()
        self._claims = LocalClaims()

    def put(self, thread_id: str, ns: str, checkpoint: Checkpoint) -> None:
        with self._lock:
            self._ckpts.setdefault((thread_id, ns), []).append(checkpoint)
            self._by_id.setdefault((thread_id, ns), {})[checkpoint.id] = checkpoint

    def put_writes(
        self, thread_id: str, ns: str, checkpoint_id: str, writes: list[PendingWrite]
    ) -> None:
        with self._lock:
            self._writes.setdefault((thread_id, ns, checkpoint_id), []).extend(writes)

    def get(self, thread_id: str, ns: str, checkpoint_id: str | None = None) -> Checkpoint | None:
        if checkpoint_id is None:
            items = self._ckpts.get((thread_id, ns))
            return items[-1] if items else None
        return self._by_id.get((thread_id, ns), {}).get(checkpoint_id)

    def list(self, thread_id: str, ns: str) -> list[Checkpoint]:
        return list(self._ckpts.get((thread_id, ns), ()))

    def search(self, query: CheckpointQuery) -> list[SavedCheckpoint]:
        with self._lock:  # saved in order: a list per (thread, ns), newest last
            found = [
                (c.id, SavedCheckpoint(thread, ns, c))
                for (thread, ns), items in self._ckpts.items()
                if query.thread_id in (None, thread) and query.ns in (None, ns)
                for c in _before(items, query.before)
                if query.matches(c)
            ]
        found.sort(key=lambda pair: pair[0], reverse=True)  # ids sort by time saved
        return [saved for _, saved in found[: query.limit]]

    def chain(self, thread_id: str, ns: str, checkpoint_id: str) -> list[Checkpoint]:
        return walk_chain(self._by_id.get((thread_id, ns), {}), checkpoint_id, thread=thread_id)

    def writes(self, thread_id: str, ns: str, checkpoint_id: str) -> list[PendingWrite]:
        return list(self._writes.get((thread_id, ns, checkpoint_id), ()))

    def delete_thread(self, thread_id: str) -> None:
        with self._lock:
            for key in [k for k in self._ckpts if k[0] == thread_id]:
                del self._ckpts[key], self._by_id[key]
            for ckpt in [k for k in self._writes if k[0] == thread_id]:
                del self._writes[ckpt]

    def copy_thread(self, source_id: str, target_id: str) -> None:
        with self._lock:  # the records themselves are shared: saved values are read-only
            for (thread, ns), items in list(self._ckpts.items()):
                if thread == source_id:
                    self._ckpts[(target_id, ns)] = list(items)
                    self._by_id[(target_id, ns)] = dict(self._by_id[(thread, ns)])
            for (thread, ns, cid), writes in list(self._writes.items()):
                if thread == source_id:
                    self._writes[(target_id, ns, cid)] = list(writes)

    def claim(self, thread_id: str) -> ThreadClaim:
        return self._claims.claim(thread_id)  # the store lives in this process only

    def close(self) -> None:
        pass


def _before(items: list[Checkpoint], checkpoint_id: str | None) -> list[Checkpoint]:
    if checkpoint_id is None:
        return items
    ids = [c.id for c in items]
    return items[: ids.index(checkpoint_id)] if checkpoint_id in ids else []
