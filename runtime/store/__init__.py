"""Long-term memory (I1): namespaced JSON items that outlive a conversation.

`InMemoryStore`, `SqliteStore` (LangGraph's names) and `PostgresStore` (`postgres.py`,
imported when opened: psycopg is optional) over one `ItemStore` core; see `base.py` for the
invariants. `open_store(spec)` opens what a graph's `store …` line asks for.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import agentc.ir as ir
from agentc.runtime.checkpoint.pgopen import open_postgres_store

from .base import (
    DEFAULT_SQLITE_PATH,
    WILDCARD,
    Backend,
    DamagedStoreError,
    Item,
    ItemStore,
    Namespace,
    Row,
    Store,
    StoreError,
)
from .memory import InMemoryStore
from .sqlite import SqliteStore

if TYPE_CHECKING:
    from .postgres import PostgresStore

__all__ = [
    "DEFAULT_SQLITE_PATH",
    "WILDCARD",
    "Backend",
    "DamagedStoreError",
    "InMemoryStore",
    "Item",
    "ItemStore",
    "Namespace",
    "PostgresStore",
    "Row",
    "SqliteStore",
    "Store",
    "StoreError",
    "open_store",
]


def open_store(spec: ir.StoreSpec | None, base_dir: str = ".") -> ItemStore | None:
    """The store a graph's `store …` statement asks for; None without one (I1's default)."""
    if spec is None or spec.kind is ir.StoreKind.NONE:
        return None
    if spec.kind is ir.StoreKind.MEMORY:
        return InMemoryStore()
    if spec.kind is ir.StoreKind.POSTGRES:
        return open_postgres_store(spec.path, spec.url_env, span=spec.span)
    return SqliteStore(os.path.join(base_dir, spec.path or DEFAULT_SQLITE_PATH))


def __getattr__(name: str) -> Any:
    if name == "PostgresStore":  # psycopg is optional: loaded on first use
        from .postgres import PostgresStore

        return PostgresStore
    raise AttributeError(name)
