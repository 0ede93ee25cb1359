"""Checkpointers: where a thread's steps are saved so a run can pause, resume and survive a
crash. `MemoryCheckpointer`, `SqliteCheckpointer` and `PostgresCheckpointer` (loaded on
first use, so `sqlite3` and psycopg are imported only when needed) implement the
`Checkpointer` protocol of `base.py`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import (
    Checkpoint,
    Checkpointer,
    CheckpointQuery,
    CheckpointSource,
    PendingWrite,
    SavedCheckpoint,
    WriteKind,
    new_checkpoint_id,
    walk_chain,
)
from .memory import MemoryCheckpointer

if TYPE_CHECKING:
    from .postgres import PostgresCheckpointer
    from .sqlite import SqliteCheckpointer

__all__ = [
    "Checkpoint",
    "CheckpointQuery",
    "CheckpointSource",
    "Checkpointer",
    "MemoryCheckpointer",
    "PendingWrite",
    "PostgresCheckpointer",
    "SavedCheckpoint",
    "SqliteCheckpointer",
    "WriteKind",
    "new_checkpoint_id",
    "walk_chain",
]


def __getattr__(name: str) -> Any:
    if name == "SqliteCheckpointer":
        from .sqlite import SqliteCheckpointer

        return SqliteCheckpointer
    if name == "PostgresCheckpointer":
        from .postgres import PostgresCheckpointer

        return PostgresCheckpointer
    raise AttributeError(name)
