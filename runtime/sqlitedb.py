"""One way to open a SQLite file, shared by the checkpointer and the long-term store."""

from __future__ import annotations

import os
import sqlite3


def connect(path: str) -> sqlite3.Connection:
    """One autocommit connection in WAL mode, shared across threads under the caller's
    lock; the file's folder is made if missing. Used by the checkpointer and the store."""
    if path != ":memory:":
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


def is_damaged(error: sqlite3.Error) -> bool:
    """Whether SQLite says the file itself is unreadable (corrupt, or not a database), as
    opposed to a failed write or a busy lock."""
    name = str(getattr(error, "sqlite_errorname", "") or "")
    return (
        name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or type(error) is sqlite3.DatabaseError
    )
