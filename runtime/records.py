"""`@dataclass`, made cheaply: the runtime's and the standard library's record classes.

Input: a class body with annotated fields, as for `dataclasses.dataclass` with `frozen`,
`slots` and `eq` (fields may use `dataclasses.field` with `default`, `default_factory`,
`init`, `repr`, `compare`, `hash`). Output: the same class as far as its users can tell —
`dataclasses.fields`, `is_dataclass`, `replace`, `asdict`, `__match_args__`, the
positional-or-keyword `__init__` with `__post_init__`, field-wise `==` and `hash` (as
`dataclass` decides them), the dataclass `repr`, `FrozenInstanceError` on assignment to a
frozen record, and copy support.

Why: `dataclass` compiles up to six generated methods per class, one `exec` each, and
importing what a run needs defines ~80 records: ~0.4 ms each, a tenth of a cached
`agentc run`. Here `dataclasses.dataclass` only collects the fields (and adds slots);
`==`, `hash`, `repr` and the frozen guards are shared functions, and the `__init__`s of
all records waiting are compiled together in one `exec` by `finish()`, on the first
construction of any of them. A class that defines one of those methods itself, or uses
`InitVar`, `KW_ONLY` or keyword-only fields, or derives from a frozen `dataclass`, is
made by `dataclasses.dataclass` itself. The code compiled is built from field names only.
Type checkers see `dataclasses.dataclass` (`typing.dataclass_transform`, PEP 681).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")
_set = object.__setattr__
_FACTORY: Any = getattr(dataclasses, "_HAS_DEFAULT_FACTORY", object())  # shown "<factory>"
_OWN = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")
_PENDING: list[type] = []
_LOCK = threading.Lock()


@overload
def dataclass(cls: type[_T], /) -> type[_T]: ...
@overload
def dataclass(
    *, frozen: bool = False, slots: bool = False, eq: bool = True
) -> Callable[[type[_T]], type[_T]]: ...
@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def dataclass(
    cls: type[_T] | None = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True
) -> Any:
    """`dataclasses.dataclass(cls, frozen=…, slots=…, eq=…)`, its methods made cheaply."""

    def wrap(c: type[_T]) -> type[_T]:
        if _needs_dataclass(c, frozen):
            return dataclasses.dataclass(c, frozen=frozen, slots=slots, eq=eq)
        return _make(c, frozen, slots, eq)

    return wrap if cls is None else wrap(cls)


def _needs_dataclass(cls: type, frozen: bool) -> bool:
    """What only `dataclasses.dataclass` itself does right."""
    if any(name in cls.__dict__ for name in _OWN):
        return True
    notes = cls.__dict__.get("__annotations__", {})
    if any("InitVar" in str(a) or "KW_ONLY" in str(a) for a in notes.values()):
        return True
    for base in cls.__mro__[1:]:
        params = base.__dict__.get("__dataclass_params__")
        if params is not None and params.frozen and "_rec_names" not in base.__dict__:
            return True  # a frozen `dataclass` base checks its subclasses' flags
    return False


def _make(cls: type[_T], frozen: bool, slots: bool, eq: bool) -> type[_T]:
    undocumented = not cls.__dict__.get("__doc__")
    if undocumented:  # else `dataclass` reads the (not yet made) __init__'s signature
        cls.__doc__ = "-"
    # Below another record, `dataclass` checks the frozen flags agree (and, frozen, makes
    # the guards itself: replaced below by the shared ones).
    under = frozen and any("__dataclass_params__" in b.__dict__ for b in cls.__mro__[1:])
    made: Any = dataclasses.dataclass(
        cls, init=False, repr=False, eq=False, slots=slots, frozen=frozen and under
    )
    if undocumented:
        made.__doc__ = None
    fields = dataclasses.fields(made)
    if any(f.kw_only for f in fields):
        raise TypeError(f"{made.__name__}: keyword-only fields need dataclasses.dataclass")
    made._rec_names = tuple(f.name for f in fields)
    made._rec_repr = tuple(f.name for f in fields if f.repr)
    made.__repr__ = _repr
    if eq:
        key = _key(tuple(f.name for f in fields if f.compare))
        made._rec_key = key
        made.__eq__ = _eq
        if frozen:
            hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
            made._rec_hash = _key(tuple(hashed))
            made.__hash__ = _hash
        else:
            made.__hash__ = None
    if frozen:
        made.__setattr__ = _frozen_setattr
        made.__delattr__ = _frozen_delattr
        if slots:
            made.__getstate__ = _getstate
            made.__setstate__ = _setstate
    params = made.__dict__["__dataclass_params__"]  # truthful for introspection
    params.init, params.repr, params.eq, params.frozen = True, True, eq, frozen
    made._rec_frozen = frozen
    made.__init__ = _placeholder(made)
    _PENDING.append(made)
    return made


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A tuple of the named fields, as `dataclass` compares and hashes them."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    return lambda self: ()


def _placeholder(cls: type) -> Callable[..., None]:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        finish()  # gives `cls` (and every record waiting) its own __init__
        cls.__init__(self, *args, **kwargs)

    return __init__


def finish() -> None:
    """Compile the `__init__` of every record made so far, all in one `exec`."""
    with _LOCK:
        if not _PENDING:
            return
        classes = list(_PENDING)
        lines: list[str] = []
        env: dict[str, Any] = {"_set": _set, "_FACTORY": _FACTORY}
        for i, cls in enumerate(classes):
            lines += _init_source(i, cls, env)
        exec("\n".join(lines), env)  # our own generated text, never a file's contents
        for i, cls in enumerate(classes):
            init = env[f"_init_{i}"]
            init.__qualname__ = f"{cls.__qualname__}.__init__"
            init.__module__ = cls.__module__
            cls.__init__ = init
        del _PENDING[: len(classes)]


def _init_source(i: int, cls: Any, env: dict[str, Any]) -> list[str]:
    """`dataclasses._init_fn`'s text for one record (no InitVar, no keyword-only field)."""
    params: list[str] = []
    body: list[str] = []
    frozen, slots = cls._rec_frozen, "__slots__" in cls.__dict__
    for f in dataclasses.fields(cls):
        name, default = f.name, f"_d{i}_{f.name}"
        if f.default_factory is not dataclasses.MISSING:
            env[default] = f.default_factory
            value = f"{default}() if {name} is _FACTORY else {name}" if f.init else f"{default}()"
            if f.init:
                params.append(f"{name}=_FACTORY")
        elif f.init:
            value = name
            if f.default is dataclasses.MISSING:
                if params and "=" in params[-1]:
                    raise TypeError(f"non-default argument {name!r} follows default argument")
                params.append(name)
            else:
                env[default] = f.default
                params.append(f"{name}={default}")
        elif slots and f.default is not dataclasses.MISSING:
            env[default] = f.default
            value = default
        else:
            continue  # read from the class attribute holding the default
        body.append(
            f"    _set(self, {name!r}, {value})" if frozen else f"    self.{name} = {value}"
        )
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    return [f"def _init_{i}(self, {', '.join(params)}):", *(body or ["    pass"])]


def _repr(self: Any) -> str:
    parts = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._rec_repr)
    return f"{self.__class__.__qualname__}({parts})"


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is self.__class__:
        return self._rec_key(self) == self._rec_key(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self._rec_hash(self))


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    if "_rec_names" in type(self).__dict__ or name in type(self)._rec_names:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _frozen_delattr(self: Any, name: str) -> None:
    if "_rec_names" in type(self).__dict__ or name in type(self)._rec_names:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, n) for n in self._rec_names]


def _setstate(self: Any, state: list[Any]) -> None:
    for name, value in zip(self._rec_names, state, strict=False):
        _set(self, name, value)


__all__ = ["dataclass", "finish"]
