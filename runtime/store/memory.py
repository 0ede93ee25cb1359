"""The in-memory long-term store: gone when the process ends."""

from __future__ import annotations

import threading

from .base import ItemStore, Namespace, Row

# ---------------------------------------------------------------- backends


class MemoryBackend:
    """Rows in a dict kept in first-write order, under a lock (tools run in threads)."""

    blocking = False

    def __init__(self) -> None:
        self._rows: dict[tuple[Namespace, str], Row] = {}
        self._lock = threading.Lock()

    def write(self, namespace: Namespace, key: str, text: str, now: float) -> None:
        with self._lock:
            old = self._rows.get((namespace, key))
            created = old.created_at if old is not None else now
            self._rows[(namespace, key)] = Row(namespace, key, text, created, now)

    def remove(self, namespace: Namespace, key: str) -> None:
        with self._lock:
            self._rows.pop((namespace, key), None)

    def read(self, namespace: Namespace, key: str) -> Row | None:
        return self._rows.get((namespace, key))

    def scan(self, prefix: Namespace) -> list[Row]:
        n = len(prefix)
        with self._lock:
            return [r for r in self._rows.values() if r.namespace[:n] == prefix]

    def namespaces(self) -> list[Namespace]:
        with self._lock:
            return list(dict.fromkeys(ns for ns, _ in self._rows))

    def close(self) -> None:
        pass


class InMemoryStore(ItemStore):
    """A store in this process's memory, gone when the process ends (LangGraph's name)."""

    def __init__(self) -> None:
        super().__init__(MemoryBackend())
