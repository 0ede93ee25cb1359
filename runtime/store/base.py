"""Long-term memory (I1): namespaced JSON items that outlive a conversation.

Input: what integrator code writes — a tool given the store (`InjectedStore`,
`ToolRuntime.store`) or a middleware reading `runtime.store`. Output: items back by
namespace and key, searches under a namespace prefix with an exact-match filter, and the
namespaces in use. This is LangGraph's `BaseStore` for create_agent, on agentc's terms.

Invariants:
- I1: nothing is written here unless integrator code writes it; the agent loop never
  reads or writes the store, and a run has none unless the file says `store memory` /
  `store sqlite("…")` or the caller passes one to `compile` / `load`.
- Values are JSON objects (a dict with string keys of JSON values), checked on `put` and
  stored as JSON text, so every read returns a fresh copy: a caller cannot change a stored
  item in place, and the in-memory and SQLite stores answer alike (D6: never pickle).
- A namespace is a tuple of non-empty strings without `.` (the SQLite form joins labels
  with dots); `put` needs at least one label.
- Order: items come back oldest first by their first write (a later `put` of the same key
  keeps its place; a delete and a new `put` moves it to the end).
- One core: the backend's operations are plain calls (`put`, `get`, …); the `a…` names are
  the one async adapter, which moves a blocking backend (SQLite) off the event loop.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Protocol

from agentc.runtime.errors import AgentcRuntimeError
from agentc.runtime.records import dataclass

Namespace = tuple[str, ...]
WILDCARD = "*"  # list_namespaces: a prefix/suffix label that matches any label
DEFAULT_SQLITE_PATH = ".agentc/memory.db"
OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")


class StoreError(AgentcRuntimeError, ValueError):
    """A store call the store cannot honour (a bad namespace, value, filter or page)."""

    code = "bad-store-call"


class DamagedStoreError(AgentcRuntimeError):
    """A stored item (or the store's file) that is not what agentc wrote: an edited row, a
    corrupt SQLite file. Never repaired by guessing, never pickled or evaluated."""

    code = "damaged-store"


# ---------------------------------------------------------------- items


@dataclass(frozen=True, slots=True)
class Item:
    """One stored value. `value` is a fresh copy on every read."""

    namespace: Namespace
    key: str
    value: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    score: float | None = None  # search results: no ranking here (no semantic index)

    def dict(self) -> dict[str, Any]:
        """LangGraph's `Item.dict()` shape."""
        return {
            "namespace": list(self.namespace),
            "key": self.key,
            "value": self.value,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class Row:
    """What a backend keeps: the value as JSON text, times as POSIX seconds."""

    namespace: Namespace
    key: str
    text: str
    created_at: float
    updated_at: float

    def item(self) -> Item:
        return Item(
            self.namespace,
            self.key,
            json.loads(self.text),
            _utc(self.created_at),
            _utc(self.updated_at),
        )


def _utc(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


class Store(Protocol):
    """What tools and middleware code against (a user may pass their own). `ItemStore`
    also has the async adapter (`aput`, `aget`, …) for async tools."""

    def put(self, namespace: Namespace, key: str, value: Mapping[str, Any]) -> None: ...

    def get(self, namespace: Namespace, key: str) -> Item | None: ...

    def delete(self, namespace: Namespace, key: str) -> None: ...

    def search(
        self,
        namespace_prefix: Namespace,
        /,
        *,
        filter: Mapping[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[Item]: ...

    def list_namespaces(
        self,
        *,
        prefix: Namespace | None = None,
        suffix: Namespace | None = None,
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Namespace]: ...


class Backend(Protocol):
    """Rows by (namespace, key). `blocking` backends are called off the event loop."""

    blocking: bool

    def write(self, namespace: Namespace, key: str, text: str, now: float) -> None: ...

    def remove(self, namespace: Namespace, key: str) -> None: ...

    def read(self, namespace: Namespace, key: str) -> Row | None: ...

    def scan(self, prefix: Namespace) -> list[Row]:
        """Rows under `prefix` (all for `()`), oldest first write first."""
        ...

    def namespaces(self) -> list[Namespace]:
        """Every namespace that holds at least one item."""
        ...

    def close(self) -> None: ...


# ---------------------------------------------------------------- the store over a backend


class ItemStore:
    """Checks, JSON, filters and paging over a `Backend` (see the module docstring)."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    def put(self, namespace: Namespace, key: str, value: Mapping[str, Any]) -> None:
        ns = check_namespace(namespace, allow_empty=False)
        self.backend.write(ns, check_key(key), value_text(value), time.time())

    def get(self, namespace: Namespace, key: str) -> Item | None:
        row = self.backend.read(check_namespace(namespace), check_key(key))
        return row.item() if row is not None else None

    def delete(self, namespace: Namespace, key: str) -> None:
        self.backend.remove(check_namespace(namespace), check_key(key))

    def search(
        self,
        namespace_prefix: Namespace,
        /,
        *,
        query: str | None = None,
        filter: Mapping[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[Item]:
        if query is not None:  # LangGraph ignores a query when the store has no index
            raise StoreError(
                "this store has no semantic index, so `search(query=…)` cannot rank items",
                help="search by namespace prefix and `filter={…}` instead",
            )
        check_page(limit, offset)
        check_filter(filter)
        items = (r.item() for r in self.backend.scan(check_namespace(namespace_prefix)))
        found = [i for i in items if matches(i.value, filter)]
        return found[offset : offset + limit]

    def list_namespaces(
        self,
        *,
        prefix: Namespace | None = None,
        suffix: Namespace | None = None,
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Namespace]:
        check_page(limit, offset)
        pre = check_namespace(prefix or (), wildcard=True)
        suf = check_namespace(suffix or (), wildcard=True)
        if max_depth is not None and (not isinstance(max_depth, int) or max_depth < 1):
            raise StoreError(f"max_depth must be a whole number of at least 1, not {max_depth!r}")
        found = {
            ns[:max_depth] if max_depth else ns
            for ns in self.backend.namespaces()
            if _labels_match(ns, pre) and _labels_match(ns[::-1], suf[::-1])
        }
        return sorted(found)[offset : offset + limit]

    # ---- the async adapter (one line each: the work is the sync call above)

    async def aput(self, namespace: Namespace, key: str, value: Mapping[str, Any]) -> None:
        await self._off_loop(self.put, namespace, key, value)

    async def aget(self, namespace: Namespace, key: str) -> Item | None:
        return await self._off_loop(self.get, namespace, key)

    async def adelete(self, namespace: Namespace, key: str) -> None:
        await self._off_loop(self.delete, namespace, key)

    async def asearch(self, namespace_prefix: Namespace, /, **kw: Any) -> list[Item]:
        return await self._off_loop(lambda: self.search(namespace_prefix, **kw))

    async def alist_namespaces(self, **kw: Any) -> list[Namespace]:
        return await self._off_loop(lambda: self.list_namespaces(**kw))

    async def _off_loop(self, fn: Any, *args: Any) -> Any:
        if not self.backend.blocking:
            return fn(*args)
        return await asyncio.to_thread(fn, *args)

    def close(self) -> None:
        self.backend.close()


# ---------------------------------------------------------------- checks


def check_namespace(
    namespace: Any, *, allow_empty: bool = True, wildcard: bool = False
) -> Namespace:
    if not isinstance(namespace, tuple):
        raise StoreError(
            f"a namespace is a tuple of strings, not {type(namespace).__name__}",
            help='write it as ("memories", user_id)',
        )
    if not namespace and not allow_empty:
        raise StoreError(
            "an item's namespace needs at least one label",
            help='put it under a namespace such as ("memories",)',
        )
    for label in namespace:
        if not isinstance(label, str) or not label or "." in label or "\x00" in label:
            raise StoreError(
                f"namespace label {label!r} in {namespace!r} is not a non-empty string without `.`",
                help="labels are names, not dotted paths",
            )
        if label == WILDCARD and not wildcard:
            raise StoreError(f"`*` is a wildcard of list_namespaces, not a label ({namespace!r})")
    return namespace


def check_key(key: Any) -> str:
    if not isinstance(key, str) or not key:
        raise StoreError(f"an item key is a non-empty string, not {key!r}")
    return key


def check_page(limit: Any, offset: Any) -> None:
    for name, n in (("limit", limit), ("offset", offset)):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise StoreError(f"{name} must be a whole number of at least 0, not {n!r}")


def value_text(value: Any) -> str:
    """The JSON text of a JSON object, or `StoreError` naming the first non-JSON part."""
    if not isinstance(value, Mapping):
        raise StoreError(
            f"a stored value is a JSON object (a dict), not {type(value).__name__}",
            help='wrap it: {"value": …}',
        )
    _check_json(value, "value")
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _check_json(value: Any, where: str) -> None:
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise StoreError(f"{where} is {value}, which JSON cannot hold")
        return
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                raise StoreError(f"{where} has the key {k!r}; JSON object keys are strings")
            _check_json(v, f"{where}[{k!r}]")
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_json(v, f"{where}[{i}]")
        return
    raise StoreError(
        f"{where} is a {type(value).__name__}, which is not a JSON value",
        help="store JSON only: dicts, lists, strings, numbers, booleans, None",
    )


def check_filter(filter: Any) -> None:
    if filter is None:
        return
    if not isinstance(filter, Mapping):
        raise StoreError(f"a search filter is a dict, not {type(filter).__name__}")
    _check_operators(filter)


def _check_operators(value: Any) -> None:
    if isinstance(value, Mapping):
        for k, v in value.items():
            if isinstance(k, str) and k.startswith("$") and k not in OPERATORS:
                raise StoreError(
                    f"unknown filter operator `{k}`", help=f"use one of {', '.join(OPERATORS)}"
                )
            _check_operators(v)


# ---------------------------------------------------------------- filters (LangGraph's rules)


def matches(value: Mapping[str, Any], filter: Mapping[str, Any] | None) -> bool:
    """Every filter key matches: equal values, nested maps key by key, or operators."""
    return not filter or all(_compare(value.get(k), f) for k, f in filter.items())


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(isinstance(k, str) and k.startswith("$") for k in wanted):
            return all(_operator(actual, op, arg) for op, arg in wanted.items())
        return isinstance(actual, Mapping) and all(
            _compare(actual.get(k), v) for k, v in wanted.items()
        )
    if isinstance(wanted, (list, tuple)):
        return (
            isinstance(actual, (list, tuple))
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return actual == wanted


def _operator(actual: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return actual == arg
    if op == "$ne":
        return actual != arg
    if not _is_number(actual) or not _is_number(arg):
        return False  # an order comparison with a missing or non-number value: no match
    return {"$gt": actual > arg, "$gte": actual >= arg, "$lt": actual < arg, "$lte": actual <= arg}[
        op
    ]


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _labels_match(ns: Namespace, pattern: Namespace) -> bool:
    return len(ns) >= len(pattern) and all(
        p in (WILDCARD, n) for n, p in zip(ns, pattern, strict=False)
    )
