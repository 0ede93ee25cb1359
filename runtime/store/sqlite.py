"""The SQLite long-term store: its own table, so it may share the checkpoint file."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .base import DamagedStoreError, ItemStore, Namespace, Row

_SCHEMA = """
CREATE TABLE IF NOT EXISTS store_items (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  created_at REAL NOT NULL, updated_at REAL NOT NULL,
  UNIQUE (ns, key));
"""
_SEP = "."  # labels never hold it; "/" sorts right after it (prefix ranges below)


class SqliteBackend:
    """Rows in the table `store_items` of a SQLite file (WAL), one connection under a lock."""

    blocking = True

    def __init__(self, path: str) -> None:
        from agentc.runtime.sqlitedb import connect  # sqlite3 loads only when used

        self.path = path
        with self._db():
            self._conn = connect(path)
        self._lock = threading.Lock()
        with self._lock, self._db():
            self._conn.executescript(_SCHEMA)

    @contextmanager
    def _db(self) -> Iterator[None]:
        """A corrupt file is `DamagedStoreError`, not SQLite's raw error."""
        import sqlite3  # loaded already by `connect`

        from agentc.runtime.sqlitedb import is_damaged

        try:
            yield
        except sqlite3.DatabaseError as e:
            if is_damaged(e):
                raise DamagedStoreError(
                    f"the long-term store in {self.path} is damaged: the database file is "
                    f"unreadable ({e})",
                    help="restore the file from a backup, or remove it to start empty",
                ) from None
            raise

    def _row(self, r: tuple[Any, ...]) -> Row:
        """One row back; anything but what `write` wrote is `DamagedStoreError`."""
        try:
            value = json.loads(r[2])
            if type(value) is not dict:
                raise ValueError("its value is not a JSON object")
            return Row(tuple(r[0].split(_SEP)), r[1], r[2], float(r[3]), float(r[4]))
        except (ValueError, TypeError, AttributeError, RecursionError) as e:
            what = (
                "a value is nested too deeply to read" if isinstance(e, RecursionError) else str(e)
            )
            raise DamagedStoreError(
                f"the long-term store in {self.path} is damaged (item {r[1]!r} under "
                f"{r[0]!r}): {' '.join(what.split())[:200]}",
                help="restore the file from a backup, or delete the item",
            ) from None

    def write(self, namespace: Namespace, key: str, text: str, now: float) -> None:
        with self._lock, self._db():  # an upsert keeps the row's seq (its place) and created_at
            self._conn.execute(
                "INSERT INTO store_items (ns, key, value, created_at, updated_at) "
                "VALUES (?,?,?,?,?) ON CONFLICT (ns, key) DO UPDATE SET "
                "value=excluded.value, updated_at=excluded.updated_at",
                (_SEP.join(namespace), key, text, now, now),
            )

    def remove(self, namespace: Namespace, key: str) -> None:
        with self._lock, self._db():
            self._conn.execute(
                "DELETE FROM store_items WHERE ns=? AND key=?", (_SEP.join(namespace), key)
            )

    def read(self, namespace: Namespace, key: str) -> Row | None:
        with self._lock, self._db():
            row = self._conn.execute(
                "SELECT ns, key, value, created_at, updated_at FROM store_items "
                "WHERE ns=? AND key=?",
                (_SEP.join(namespace), key),
            ).fetchone()
        return self._row(row) if row else None

    def scan(self, prefix: Namespace) -> list[Row]:
        cols = "SELECT ns, key, value, created_at, updated_at FROM store_items"
        with self._lock, self._db():
            if not prefix:
                rows = self._conn.execute(f"{cols} ORDER BY seq").fetchall()
            else:
                p = _SEP.join(prefix)
                rows = self._conn.execute(
                    f"{cols} WHERE ns=? OR (ns>=? AND ns<?) ORDER BY seq", (p, p + _SEP, p + "/")
                ).fetchall()
        return [self._row(r) for r in rows]

    def namespaces(self) -> list[Namespace]:
        with self._lock, self._db():
            rows = self._conn.execute("SELECT DISTINCT ns FROM store_items").fetchall()
        return [tuple(r[0].split(_SEP)) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class SqliteStore(ItemStore):
    """A store in a SQLite file: its own table, so it may share the checkpoint file."""

    def __init__(self, path: str) -> None:
        super().__init__(SqliteBackend(path))
        self.path = path
