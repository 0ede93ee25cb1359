"""The rows the SQL checkpointers (SQLite, PostgreSQL) store, and reading them back.

Input: `Checkpoint` records and pending writes. Output: the JSON each is stored as, and the
records rebuilt from it. One owner for both stores, so they read each other's rows and
report damage alike. Invariants: JSON of registered types only (`serde`, never pickle; D6),
decoded under the store's type allowlist; a row that is not what `put` wrote (bad JSON, a
missing key, a value nested too deep, another checkpoint's data, a wrong parent) is
`DamagedCheckpointError` naming the thread, the store and the checkpoint.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from agentc.runtime.algo import Task
from agentc.runtime.barriers import Waits
from agentc.runtime.channels import MISSING, DeltaKind
from agentc.runtime.errors import AgentcRuntimeError, DamagedCheckpointError
from agentc.runtime.serde import TypeAllowlist, decode, encode

from .base import Checkpoint, CheckpointSource, PendingWrite, WriteKind

_ANY = object()  # `_load` without a parent to check


class RowReader:
    """Reading a SQL store's rows back: what `SqliteCheckpointer` and `PostgresCheckpointer`
    share. `where` names the store in errors (a file, or a URL with its password hidden)."""

    where: str
    types: TypeAllowlist | None  # D6: what a load may rebuild (None: every registered type)

    def _damaged(
        self, thread: str | None, what: str, checkpoint: str | None = None
    ) -> DamagedCheckpointError:
        return DamagedCheckpointError(what, thread=thread, where=self.where, checkpoint=checkpoint)

    def _load(
        self, thread: str, cid: str, data: Any, parent: str | None | object = _ANY
    ) -> Checkpoint:
        """One row back as a `Checkpoint`; anything but what `put` wrote is damage."""
        try:
            ckpt = _decode_checkpoint(json.loads(data), self.types)
        except AgentcRuntimeError:
            raise
        except _DAMAGE as e:
            raise self._damaged(thread, _what(e), cid) from None
        if ckpt.id != cid:
            raise self._damaged(thread, f"its data names another checkpoint, {ckpt.id!r}", cid)
        if parent is not _ANY and ckpt.parent_id != parent:
            raise self._damaged(
                thread,
                f"its row names parent {parent!r} but its data names {ckpt.parent_id!r}",
                cid,
            )
        return ckpt

    def _load_writes(
        self, thread: str, checkpoint_id: str, rows: Iterable[tuple[str, str, Any]]
    ) -> list[PendingWrite]:
        """`(task_id, kind, data)` rows back as pending writes; an unreadable one is damage."""
        try:
            return [
                (
                    tid,
                    WriteKind(kind),
                    _read_payload(WriteKind(kind), decode(json.loads(data), self.types)),
                )
                for tid, kind, data in rows
            ]
        except AgentcRuntimeError:
            raise
        except _DAMAGE as e:
            what = f"a pending write saved against it is unreadable: {_what(e)}"
            raise self._damaged(thread, what, checkpoint_id) from None


def dump_checkpoint(c: Checkpoint) -> str:
    """A checkpoint as the JSON text of its row."""
    return json.dumps(_encode_checkpoint(c), separators=(",", ":"), ensure_ascii=False)


def write_rows(
    thread: str, ns: str, checkpoint_id: str, writes: Iterable[PendingWrite]
) -> list[tuple[str, str, str, str, str, str]]:
    """Pending writes as the rows both stores insert: (thread_id, ns, checkpoint_id,
    task_id, kind, JSON text of the payload)."""
    return [
        (thread, ns, checkpoint_id, tid, kind.value, _dump_payload(kind, payload))
        for tid, kind, payload in writes
    ]


def _dump_payload(kind: WriteKind, payload: Any) -> str:
    return json.dumps(encode(_write_payload(kind, payload)), separators=(",", ":"))


_DK = {DeltaKind.SET: "s", DeltaKind.CLEAR: "c", DeltaKind.OPS: "o"}
_DK_BACK = {v: k for k, v in _DK.items()}


# what reading a row that is not what `put` wrote can raise (json, the decoders, pydantic)
_DAMAGE = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError)


def _what(e: BaseException) -> str:
    """What was wrong with a row, in words."""
    if isinstance(e, RecursionError):
        return "a value is nested too deeply to read"
    if isinstance(e, json.JSONDecodeError):
        return f"its data is not valid JSON ({e.msg} at character {e.pos})"
    if isinstance(e, KeyError):
        return f"its data lacks the key {e.args[0]!r}" if e.args else "its data lacks a key"
    text = " ".join(str(e).split())
    text = text if len(text) <= 200 else text[:200] + "…"
    return f"its data is not what agentc saves ({type(e).__name__}: {text})"


def _encode_checkpoint(c: Checkpoint) -> dict[str, Any]:
    return {
        "id": c.id,
        "parent": c.parent_id,
        "step": c.step,
        "source": c.source.value,
        "deltas": {k: [_DK[kind], encode(payload)] for k, (kind, payload) in c.deltas.items()},
        "versions": c.versions,
        "seen": c.seen,
        "ran": list(c.ran),
        "at": c.created_at,
        "next": [_encode_task(t) for t in c.next],
        **({"waits": c.waits.to_json()} if c.waits.seen or c.waits.waiting else {}),
    }


def _encode_task(t: Task) -> list[Any]:
    base = [t.id, t.node, t.path[0], t.path[1]]
    return base if t.arg is MISSING else [*base, encode(t.arg)]


def _decode_checkpoint(d: dict[str, Any], types: TypeAllowlist | None = None) -> Checkpoint:
    return Checkpoint(
        id=d["id"],
        parent_id=d["parent"],
        step=d["step"],
        source=CheckpointSource(d["source"]),
        deltas={k: (_DK_BACK[kind], decode(p, types)) for k, (kind, p) in d["deltas"].items()},
        versions=d["versions"],
        seen=d["seen"],
        ran=tuple(d["ran"]),
        created_at=d["at"],
        next=tuple(
            Task(t[0], t[1], (t[2], t[3]), decode(t[4], types) if len(t) > 4 else MISSING)
            for t in d["next"]
        ),
        waits=Waits.from_json(d.get("waits")),
    )


def _write_payload(kind: WriteKind, payload: Any) -> Any:
    if kind is WriteKind.RESULT or kind is WriteKind.UPDATE:
        return {"writes": [[k, v] for k, v in payload.writes], "goto": payload.goto}
    if kind is WriteKind.RESUME:
        return list(payload.items())
    return payload


def _read_payload(kind: WriteKind, data: Any) -> Any:
    from agentc.runtime.algo import TaskResult

    if kind is WriteKind.RESULT or kind is WriteKind.UPDATE:
        return TaskResult([(k, v) for k, v in data["writes"]], list(data["goto"]))
    if kind is WriteKind.RESUME:
        return {k: v for k, v in data}
    return data
