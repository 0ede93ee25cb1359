"""Node caching (`cache: { ttl: 60s }`, LangGraph's CachePolicy with InMemoryCache).

Input: a task's node name and input (the state view it reads, or its Send payload).
Output: the `TaskResult` the node returned for the same input, while its time to live
lasts. One cache per compiled graph, in memory, shared by that graph's runs. The key is
the node name and a hash of the canonical JSON of the input (sorted keys, the checkpoint
encoding of registered types), so equal states hit whatever object holds them. Only a
task that finished is stored (an interrupt or a failure is not, as LangGraph). Time comes
from an injectable clock (`time.monotonic` by default) so tests step it instead of
sleeping.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from agentc.runtime.algo import TaskResult
from agentc.runtime.errors import SerializationError
from agentc.runtime.serde import encode

Clock = Callable[[], float]


def cache_key(node: str, value: Any) -> str | None:
    """`node` + the hash of `value`'s canonical JSON; None when `value` has a type the
    checkpoint encoding refuses (such an input is never cached rather than guessed at)."""
    try:
        text = json.dumps(encode(_plain(value)), sort_keys=True, separators=(",", ":"))
    except (SerializationError, TypeError, ValueError):
        return None
    return f"{node}:{hashlib.blake2b(text.encode(), digest_size=16).hexdigest()}"


def _plain(value: Any) -> Any:
    # a state view is a read-only mapping proxy, which the checkpoint encoding (made for
    # channel values) would read as a sequence of its keys
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


class NodeCache:
    """LangGraph's InMemoryCache for one compiled graph: key → (result, expiry)."""

    __slots__ = ("clock", "_items", "_lock")

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self._items: dict[str, tuple[TaskResult, float | None]] = {}
        self._lock = threading.Lock()  # sync nodes finish in pool threads

    def get(self, key: str) -> TaskResult | None:
        with self._lock:
            entry = self._items.get(key)
            if entry is None:
                return None
            result, expiry = entry
            if expiry is not None and self.clock() >= expiry:
                del self._items[key]
                return None
        # a copy marked as a hit: the stored one stays as the node returned it
        return TaskResult(list(result.writes), list(result.goto), cached=True)

    def set(self, key: str, result: TaskResult, ttl_s: float | None) -> None:
        expiry = None if ttl_s is None else self.clock() + ttl_s
        with self._lock:
            self._items[key] = (result, expiry)

    def clear(self, nodes: Any = None) -> None:
        """Forget every entry, or those of the named nodes."""
        with self._lock:
            if nodes is None:
                self._items.clear()
                return
            names = {nodes} if isinstance(nodes, str) else set(nodes)
            for key in [k for k in self._items if k.split(":", 1)[0] in names]:
                del self._items[key]

    def __len__(self) -> int:
        return len(self._items)
