"""The built-in reducers a `state { x: T reduce NAME }` field can name.

Input: the channel's current value and one write. Output: the new value (never mutating
the old one: earlier snapshots and nodes' views share it). `append` carries its own
incremental channel so checkpoints store only the new items.
"""

from __future__ import annotations

from typing import Any

from agentc.runtime.channels import AppendChannel, ListView


def append(left: Any, right: Any) -> list[Any]:
    """Concatenate: a list (or tuple) write adds its items, any other value adds itself."""
    items = list(right) if isinstance(right, (list, tuple, ListView)) else [right]
    return [*(left or ()), *items]


append.__agentc_channel__ = AppendChannel  # type: ignore[attr-defined]


def merge(left: Any, right: Any) -> dict[str, Any]:
    """Shallow dict merge, right wins."""
    return {**(left or {}), **(right or {})}


def add(left: Any, right: Any) -> Any:
    """`left + right` (numbers, strings, lists)."""
    return right if left is None else left + right


def replace(left: Any, right: Any) -> Any:
    """The last write wins, but several writes in one step are allowed (unlike no reducer)."""
    return right
