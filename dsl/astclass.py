"""`@node`: a frozen, slotted dataclass, made cheaply (the AST's class decorator).

Input: a class body with annotated fields, as for `@dataclass(frozen=True, slots=True)`.
Output: the same thing as far as anyone can tell — `dataclasses.fields`, `is_dataclass`,
`replace`, `__match_args__`, field-wise `==` and `hash`, the dataclass `repr`,
`FrozenInstanceError` on assignment, and copy support.

Why: `dataclass` compiles six generated methods per class with one `exec` each; for the
AST's ~45 classes that is ~25 ms of every `agentc check` (a cold start budget of 300 ms).
Here `dataclass` only collects fields and adds slots (no generated code); `==`, `hash`,
`repr` and the frozen guards are shared functions of `Node`, and the `__init__`s of all
classes waiting are compiled together in one `exec` by `finish()` (or on first need).
Type checkers see `@node` as `@dataclass(frozen=True)` (`typing.dataclass_transform`,
PEP 681), so every constructor call, field type and assignment is checked.
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter
from typing import Any, ClassVar, TypeVar, dataclass_transform

_set = object.__setattr__
_PENDING: list[type[Node]] = []


class Node:
    """The shared behaviour of every AST node (no fields of its own)."""

    __slots__ = ()
    _key: ClassVar[attrgetter[Any]]  # per class: its field values, for == and hash
    _names: ClassVar[tuple[str, ...]]
    # Set on every subclass by `dataclasses.dataclass` (declared here, never assigned, so
    # type checkers accept a node wherever `dataclasses.fields` or `replace` takes one).
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            key = self._key
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key(self))

    def __repr__(self) -> str:
        parts = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._names)
        return f"{self.__class__.__qualname__}({parts})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> list[Any]:
        return [getattr(self, n) for n in self._names]

    def __setstate__(self, state: list[Any]) -> None:
        for name, value in zip(self._names, state, strict=False):
            _set(self, name, value)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Only reached before `finish()` gave this class its own `__init__`.
        finish()
        type(self).__init__(self, *args, **kwargs)


_N = TypeVar("_N", bound=Node)


@dataclass_transform(frozen_default=True, kw_only_default=True)
def node(cls: type[_N]) -> type[_N]:
    """Make `cls` (which must derive from `Node`) a frozen, slotted dataclass."""
    made = dataclasses.dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    names = tuple(f.name for f in dataclasses.fields(made))
    made._names = names
    # attrgetter is not a descriptor: `self._key(self)` calls it with the instance once.
    made._key = attrgetter(*names)
    _PENDING.append(made)
    return made


def finish() -> None:
    """Compile the `__init__` of every class made so far, all in one `exec`."""
    if not _PENDING:
        return
    classes = list(_PENDING)
    lines: list[str] = []
    env: dict[str, Any] = {"_set": _set}
    _PENDING.clear()
    for i, cls in enumerate(classes):
        lines += _init_source(i, cls, env)
    exec("\n".join(lines), env)  # our own generated text, never a file's contents
    for i, cls in enumerate(classes):
        init = env[f"_init_{i}"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        cls.__init__ = init


def _init_source(i: int, cls: type[Node], env: dict[str, Any]) -> list[str]:
    params: list[str] = []
    body: list[str] = []
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: @node does not take default factories")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            env[f"_d{i}_{f.name}"] = f.default
            params.append(f"{f.name}=_d{i}_{f.name}")
        # The slot's own setter: no attribute lookup and no frozen `__setattr__` on the way.
        env[f"_s{i}_{f.name}"] = getattr(cls, f.name).__set__
        body.append(f"    _s{i}_{f.name}(self, {f.name})")
    star = ["*"] if params else []  # keyword-only, as type checkers are told (kw_only_default)
    return [f"def _init_{i}(self, {', '.join(star + params)}):", *(body or ["    pass"])]


__all__ = ["Node", "node", "finish"]
