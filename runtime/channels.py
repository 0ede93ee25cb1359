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
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any


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

    def view(self) -> Any:
        """What a node reads: treated as read-only (no copy per step)."""
        return self.value

    def output(self) -> Any:
        """What a run's result holds."""
        return self.value

    def prepare(self, value: Any) -> Any:
        """A write in the form it is saved in before it is applied (a pending write that is
        applied again at each restore must apply the same way: messages get their ids)."""
        return value

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

    def drop_delta(self) -> None:
        """`take_delta()` when nothing saves: the baseline resets, no delta is built."""
        self.take_delta()

    def apply_delta(self, delta: Delta) -> None:
        kind, payload = delta
        self.value = MISSING if kind is DeltaKind.CLEAR else payload
        self.dirty = False


class ReducerChannel(Channel):
    """Folds each write into the value with `reducer(current, write)`."""

    __slots__ = ("reducer",)

    def __init__(
        self, name: str, reducer: Callable[[Any, Any], Any], default: Any = MISSING
    ) -> None:
        super().__init__(name, default)
        self.reducer = reducer

    def update(self, values: Sequence[Any]) -> bool:
        value = self.value
        for v in values:
            value = v if value is MISSING else self.reducer(value, v)
        self.value = value
        self.dirty = True
        return True


class ListView(Sequence):
    """A read-only snapshot of an append-only list: its first `n` items. Appends after the
    snapshot do not show through; a channel that must change an item copies the list first
    (copy-on-write), so every view handed out stays as it was."""

    __slots__ = ("_base", "_n")

    def __init__(self, base: list[Any], n: int) -> None:
        self._base, self._n = base, n

    def __len__(self) -> int:
        return self._n

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _VIEWS.add(cls)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            start, stop, step = i.indices(self._n)
            if step > 0:  # only the items asked for (`messages[k:]` each turn stays O(k))
                return self._base[start:stop:step]
            return self._base[: self._n][i]  # a normalised negative stop means "before 0"
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("list index out of range")
        return self._base[i]

    def __iter__(self) -> Iterator[Any]:
        return islice(self._base, self._n)

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (list, tuple, ListView)):
            return len(other) == self._n and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a list-like value

    def __add__(self, other: Any) -> list[Any]:
        return [*self, *other]

    def __radd__(self, other: Any) -> list[Any]:
        return [*other, *self]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


_VIEWS: set[type] = {ListView}  # ListView and its subclasses (`list_parts` reads them)


def list_parts(items: Sequence[Any]) -> tuple[Sequence[Any], int]:
    """`items` and its length; for a `ListView`, the list under it and the view's length
    (its items are `list[:n]`), for a reader that indexes many of them: one call instead
    of one per item (treat the list as read-only). No `isinstance`: a `Sequence` subclass
    pays for an ABC check in Python."""
    if type(items) in _VIEWS:
        view: Any = items
        return view._base, view._n
    return items, len(items)


class AppendChannel(Channel):
    """The `append` reducer, incrementally: an update appends in O(update) to one shared
    list (nodes see `ListView` snapshots of it) and checkpoints store only the new items."""

    __slots__ = ("base", "added", "reset")

    def __init__(self, name: str, default: Any = MISSING) -> None:
        super().__init__(name, default)
        self.base: list[Any] = list(default) if isinstance(default, (list, tuple)) else []
        if default is not MISSING and not isinstance(default, (list, tuple)):
            self.base.append(default)
        self.added: list[Any] = []
        self.reset = self.dirty

    def view(self) -> Any:
        return ListView(self.base, len(self.base)) if self.value is not MISSING else MISSING

    def output(self) -> Any:
        return list(self.base) if self.value is not MISSING else MISSING

    def update(self, values: Sequence[Any]) -> bool:
        if self.value is MISSING:
            self.base, self.reset = [], True
        for v in values:
            # a ListView is a list too: a subgraph's input hands the parent's view on
            items = v if isinstance(v, (list, tuple, ListView)) else (v,)
            self.base.extend(items)
            if not self.reset:
                self.added.extend(items)
        self.value = self.base
        self.dirty = True
        return True

    def clear(self) -> bool:
        if self.value is MISSING:
            return False
        self.base, self.value, self.dirty, self.reset, self.added = [], MISSING, True, True, []
        return True

    def take_delta(self) -> Delta | None:
        if not self.dirty:
            return None
        self.dirty = False
        if self.reset or self.value is MISSING:
            self.reset, self.added = False, []
            return (
                (DeltaKind.CLEAR, None)
                if self.value is MISSING
                else (DeltaKind.SET, list(self.base))
            )
        added, self.added = self.added, []
        return (DeltaKind.OPS, added)

    def apply_delta(self, delta: Delta) -> None:
        kind, payload = delta
        if kind is DeltaKind.OPS:
            if self.value is MISSING:
                self.base = []
            self.base.extend(payload)
            self.value = self.base
        elif kind is DeltaKind.CLEAR:
            self.base, self.value = [], MISSING
        else:
            self.base = list(payload)
            self.value = self.base
        self.dirty, self.reset, self.added = False, False, []
