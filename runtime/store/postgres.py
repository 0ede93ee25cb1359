"""The PostgreSQL long-term store: the table `agentc_store_items` beside the checkpoints.

Input and output as every `Backend` (base.py). Invariants: the SQLite store's layout — a
namespace is kept as its labels joined with `.` in a column compared byte by byte
(`COLLATE "C"`, so the prefix range below means the same in every locale), an upsert keeps
an item's place (`seq`) and `created_at`; values are JSON text, read back through `Row`;
a row that is not what `write` wrote is `DamagedStoreError`. The database is opened and
migrated by `pgdb.Database`, as the checkpointer's.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import PoolTimeout

from agentc.runtime.checkpoint.pgdb import Connection, Database, is_unreachable

from .base import DamagedStoreError, ItemStore, Namespace, Row, StoreError

_SEP = "."  # labels never hold it; "/" sorts right after it (prefix ranges below)
_COLS = "SELECT ns, key, value, created_at, updated_at FROM agentc_store_items"


class PostgresBackend:
    """Rows of `agentc_store_items`, over the database's connection pool."""

    blocking = True

    def __init__(self, url: str) -> None:
        self.db = Database(url)
        self.where = self.db.where  # the connection string with its password as ***

    @contextmanager
    def _sql(self) -> Iterator[Connection]:
        try:
            with self.db.connection() as conn:
                yield conn
        except (psycopg.Error, PoolTimeout) as e:
            if is_unreachable(e):
                raise self.db.unreachable(e) from None
            raise StoreError(
                f"the long-term store in {self.where} refused the call: {self.db.reason(e)}"
            ) from None

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
                f"the long-term store in {self.where} is damaged (item {r[1]!r} under "
                f"{r[0]!r}): {' '.join(what.split())[:200]}",
                help="restore the database from a backup, or delete the item",
            ) from None

    def write(self, namespace: Namespace, key: str, text: str, now: float) -> None:
        with self._sql() as conn:  # an upsert keeps the row's seq (its place) and created_at
            conn.execute(
                "INSERT INTO agentc_store_items (ns, key, value, created_at, updated_at) "
                "VALUES (%s,%s,%s,%s,%s) ON CONFLICT (ns, key) DO UPDATE SET "
                "value=excluded.value, updated_at=excluded.updated_at",
                (_SEP.join(namespace), key, text, now, now),
            )

    def remove(self, namespace: Namespace, key: str) -> None:
        with self._sql() as conn:
            conn.execute(
                "DELETE FROM agentc_store_items WHERE ns=%s AND key=%s",
                (_SEP.join(namespace), key),
            )

    def read(self, namespace: Namespace, key: str) -> Row | None:
        with self._sql() as conn:
            row = conn.execute(
                f"{_COLS} WHERE ns=%s AND key=%s", (_SEP.join(namespace), key)
            ).fetchone()
        return self._row(row) if row else None

    def scan(self, prefix: Namespace) -> list[Row]:
        with self._sql() as conn:
            if not prefix:
                rows = conn.execute(f"{_COLS} ORDER BY seq").fetchall()
            else:
                p = _SEP.join(prefix)
                rows = conn.execute(
                    f"{_COLS} WHERE ns=%s OR (ns>=%s AND ns<%s) ORDER BY seq",
                    (p, p + _SEP, p + "/"),
                ).fetchall()
        return [self._row(r) for r in rows]

    def namespaces(self) -> list[Namespace]:
        with self._sql() as conn:
            rows = conn.execute("SELECT DISTINCT ns FROM agentc_store_items").fetchall()
        return [tuple(r[0].split(_SEP)) for r in rows]

    def close(self) -> None:
        self.db.close()


class PostgresStore(ItemStore):
    """A store in a PostgreSQL database, shared by every process that opens it."""

    def __init__(self, url: str) -> None:
        backend = PostgresBackend(url)
        super().__init__(backend)
        self.where = backend.where
