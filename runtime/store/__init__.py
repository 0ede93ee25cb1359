"""Long-term memory (I1): namespaced JSON items that outlive a conversation.

`InMemoryStore` and `SqliteStore` (LangGraph's names) over one `ItemStore` core; see
`base.py` for the invariants. `open_store(spec)` opens what a graph's `store …` line asks for.
"""

from __future__ import annotations

import os

import agentc.ir as ir

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

__all__ = [
    "DEFAULT_SQLITE_PATH",
    "WILDCARD",
    "Backend",
    "DamagedStoreError",
    "InMemoryStore",
    "Item",
    "ItemStore",
    "Namespace",
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
    return SqliteStore(os.path.join(base_dir, spec.path or DEFAULT_SQLITE_PATH))
