"""Channels: where state lives between supersteps, and how a step's writes land in it.

Input: the writes of one step for one channel, in task order (E5). Output: the new value,
whether it changed, and for checkpoints the *delta* since the last save, so a checkpoint
stores what changed and not the whole state. Invariants: a channel without a default is
empty until written (the result omits it); a last-value channel takes one write per step;
an ephemeral channel is cleared at the end of the step after the one that wrote it.

A reducer may name its own channel class through a `__agentc_channel__` attribute (the
messages reducer does: its channel applies an update in O(update), not O(history)).
"""

from __future__ import annotations

import enum
from typing import Any, Callable, Sequence


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class DeltaKind(str, enum.Enum):
    SET = "set"  # the whole new value
    CLEAR = "clear"  # back to empty
    OPS = "ops"  # channel-specific increments, replayed in order


Delta = tuple  # (DeltaKind, payload)


class Channel:
    """A last-value channel; the base of the others (LangGraph's BaseChannel, trimmed)."""

    __slots__ = ("name", "value", "dirty")

    def __init__(self, name: str, default: Any = MISSING) -> None:
        self.name = name
        self.value = default
        self.dirty = default is not MISSING

    def is_set(self) -> bool:
        return self.value is not MISSING

    def view(self) -> Any:
        """What a node reads: treated as read-only (no copy per step)."""
        return self.value

    def output(self) -> Any:
        """What a run's result holds."""
        return self.value

    def update(self, values: Sequence[Any]) -> bool:
        # The caller guarantees len(values) == 1 for last-value channels (see algo).
        self.value = values[-1]
        self.dirty = True
        return True

    def clear(self) -> bool:
        if self.value is MISSING:
            return False
        self.value = MISSING
        self.dirty = True
        return True

    def take_delta(self) -> Delta | None:
        """The change since the last take, or None; resets the baseline."""
        if not self.dirty:
            return None
        self.dirty = False
        if self.value is MISSING:
            return (DeltaKind.CLEAR, None)
        return (DeltaKind.SET, self.value)

    def apply_delta(self, delta: Delta) -> None:
        kind, payload = delta
        self.value = MISSING if kind is DeltaKind.CLEAR else payload
        self.dirty = False


class ReducerChannel(Channel):
    """Folds each write into the value with `reducer(current, write)`."""

    __slots__ = ("reducer",)

    def __init__(self, name: str, reducer: Callable[[Any, Any], Any],
                 default: Any = MISSING) -> None:
        super().__init__(name, default)
        self.reducer = reducer

    def update(self, values: Sequence[Any]) -> bool:
        value = self.value
        for v in values:
            value = v if value is MISSING else self.reducer(value, v)
        self.value = value
        self.dirty = True
        return True


class AppendChannel(Channel):
    """The `append` reducer, incrementally: checkpoints store only the new items."""

    __slots__ = ("added", "reset")

    def __init__(self, name: str, default: Any = MISSING) -> None:
        super().__init__(name, list(default) if isinstance(default, list) else default)
        self.added: list[Any] = []
        self.reset = self.dirty

    def update(self, values: Sequence[Any]) -> bool:
        if self.value is MISSING:
            self.value, self.reset = [], True
        new = list(self.value)  # copy-on-write: earlier views stay as they were
        for v in values:
            items = v if isinstance(v, (list, tuple)) else [v]
            new.extend(items)
            self.added.extend(items)
        self.value = new
        self.dirty = True
        return True

    def take_delta(self) -> Delta | None:
        if not self.dirty:
            return None
        self.dirty = False
        if self.reset or self.value is MISSING:
            self.reset, self.added = False, []
            return super_take(self)
        added, self.added = self.added, []
        return (DeltaKind.OPS, added)

    def apply_delta(self, delta: Delta) -> None:
        kind, payload = delta
        if kind is DeltaKind.OPS:
            self.value = [*(self.value if self.value is not MISSING else ()), *payload]
        else:
            Channel.apply_delta(self, delta)
        self.dirty, self.reset, self.added = False, False, []


def super_take(ch: Channel) -> Delta:
    if ch.value is MISSING:
        return (DeltaKind.CLEAR, None)
    return (DeltaKind.SET, ch.value)
