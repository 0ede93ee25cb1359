"""`@node` and `@record`: frozen, slotted dataclasses, made cheaply.

Input: a class body with annotated fields, as for `@dataclass(frozen=True, slots=True)`
(`@node`: the AST's classes, keyword-only; `@record`: any other such class — spans,
symbols, the compiler's tables — whose fields may also be given by position, with
`field(default_factory=…)` allowed).
Output: the same thing as far as anyone can tell — `dataclasses.fields`, `is_dataclass`,
`replace`, `__match_args__`, field-wise `==` and `hash`, the dataclass `repr`,
`FrozenInstanceError` on assignment, and copy support.

Why: `dataclass` compiles six generated methods per class with one `exec` each; for the
AST's ~45 classes and the ~50 others a check imports that is ~40 ms of every `agentc
check` (a cold start budget of 300 ms). Here `dataclass` only collects fields and adds
slots (no generated code); `==`, `hash`, `repr` and the frozen guards are shared
functions of `Record`, and the `__init__`s of all classes waiting are compiled together
in one `exec` by `finish()` (or on first need).
Type checkers see both as `@dataclass(frozen=True)` (`typing.dataclass_transform`,
PEP 681), so every constructor call, field type and assignment is checked. The generated
`__init__` sets each slot through the slot's own setter, which also makes building a
`Span` or a node cheaper than a dataclass's `object.__setattr__` per field.
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter
from typing import Any, ClassVar, TypeVar, dataclass_transform

_set = object.__setattr__
_PENDING: list[type[Record]] = []


class Record:
    """The shared behaviour of every `@node` and `@record` class (no fields of its own)."""

    __slots__ = ()
    _kw_only: ClassVar[bool] = False
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


class Node(Record):
    """The shared behaviour of every AST node (no fields of its own)."""

    __slots__ = ()
    _kw_only: ClassVar[bool] = True


_N = TypeVar("_N", bound=Node)
_R = TypeVar("_R", bound=Record)


@dataclass_transform(frozen_default=True, kw_only_default=True)
def node(cls: type[_N]) -> type[_N]:
    """Make `cls` (which must derive from `Node`) a frozen, slotted dataclass whose fields
    are given by keyword."""
    return _make(cls)


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def record(cls: type[_R]) -> type[_R]:
    """Make `cls` (which must derive from `Record`, not `Node`) a frozen, slotted dataclass
    whose fields may be given by position or by keyword."""
    if issubclass(cls, Node):
        raise TypeError(f"{cls.__name__}: an AST node is made with @node")
    return _make(cls)


def _make(cls: type[_R]) -> type[_R]:
    if "__post_init__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}: @node and @record do not call __post_init__")
    made = dataclasses.dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    names = tuple(f.name for f in dataclasses.fields(made))
    made._names = names
    # attrgetter is not a descriptor: `self._key(self)` calls it with the instance once.
    made._key = attrgetter(*names) if names else attrgetter("__class__")  # no fields: all equal
    _PENDING.append(made)
    return made


def finish() -> None:
    """Compile the `__init__` of every class made so far, all in one `exec`."""
    if not _PENDING:
        return
    classes = list(_PENDING)
    lines: list[str] = []
    env: dict[str, Any] = {"_set": _set, "_MISSING": dataclasses.MISSING}
    _PENDING.clear()
    for i, cls in enumerate(classes):
        lines += _init_source(i, cls, env)
    exec("\n".join(lines), env)  # our own generated text, never a file's contents
    for i, cls in enumerate(classes):
        init = env[f"_init_{i}"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        cls.__init__ = init


def _init_source(i: int, cls: type[Record], env: dict[str, Any]) -> list[str]:
    params: list[str] = []
    body: list[str] = []
    for f in dataclasses.fields(cls):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: every field is set by `__init__`")
        if f.default_factory is not dataclasses.MISSING:
            if cls._kw_only:
                raise TypeError(f"{cls.__name__}.{f.name}: @node takes no default factories")
            env[f"_f{i}_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            body.append(f"    if {f.name} is _MISSING: {f.name} = _f{i}_{f.name}()")
        elif f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            env[f"_d{i}_{f.name}"] = f.default
            params.append(f"{f.name}=_d{i}_{f.name}")
        # The slot's own setter: no attribute lookup and no frozen `__setattr__` on the way.
        env[f"_s{i}_{f.name}"] = getattr(cls, f.name).__set__
        body.append(f"    _s{i}_{f.name}(self, {f.name})")
    # `@node`: keyword-only, as type checkers are told (kw_only_default)
    star = ["*"] if params and cls._kw_only else []
    return [f"def _init_{i}(self, {', '.join(star + params)}):", *(body or ["    pass"])]


__all__ = ["Node", "Record", "node", "record", "finish"]
