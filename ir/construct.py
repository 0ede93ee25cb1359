"""IR models built without validation, for the compiler (`trusted_build`).

Input: keyword arguments for an IR model, given inside `trusted_build()` by code whose
every value was checked or computed by itself (the compiler). Output: the model, equal to
the one validation makes from the same values. Why: validating first builds the pydantic
schema of each IR model it meets (the models are `defer_build`): most of a small file's
check, and per element a large one's. Invariants: a field the model lacks, or a required
one left out, is a `TypeError`; defaults and default factories are filled as pydantic
fills them; an int given for a `float` field becomes a float (as validation makes it);
nothing else is converted, so values must already be of their field's type (the compiler's
tests compare its IR with the validated copy, type for type). Outside `trusted_build` (the
default, for every other caller and thread), building a model validates its input. Each
model's builder is one function compiled from the model's own field names (never from a
file's contents), on its first trusted build.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import enum
import sys
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

TRUSTED = contextvars.ContextVar("agentc_ir_trusted", default=False)
# True: the IR's models are plain records (`ir/records.py`), chosen before they first load
RECORDS = False
_IMMUTABLE = (type(None), bool, int, float, str, bytes, tuple, frozenset, enum.Enum)
Builder = Callable[..., None]
_BUILDERS: dict[type, Builder] = {}


@contextlib.contextmanager
def trusted_build() -> Iterator[None]:
    """Inside: IR models are built from the values given, as they are (no validation)."""
    token = TRUSTED.set(True)
    try:
        yield
    finally:
        TRUSTED.reset(token)


def use_records() -> bool:
    """Make the IR's models plain records (`ir/records.py`) in this process, if they have not
    loaded yet; True when they will be records. Only for a process that does nothing but
    check (`agentc check` from the command line): records are never validated and have no
    pydantic schema, so nothing in the process may need the pydantic IR afterwards."""
    global RECORDS
    if "agentc.ir.base" not in sys.modules:
        RECORDS = True
    return RECORDS


def build(model: Any, data: dict[str, Any]) -> None:
    """Fill `model` (a fresh instance) from `data` as `model_construct` would, checked."""
    cls = type(model)
    builder = _BUILDERS.get(cls) or _compile(cls)
    builder(model, data, **data)


def _compile(cls: type) -> Builder:
    env: dict[str, Any] = {"_set": object.__setattr__, "_copy": copy.deepcopy}
    params: list[str] = []
    body: list[str] = []
    for name, info in cls.__pydantic_fields__.items():  # type: ignore[attr-defined]
        if info.is_required():
            params.append(name)
        elif info.default_factory is not None:
            if info.default_factory_takes_validated_data:
                raise TypeError(f"{cls.__name__}.{name}: a factory taking data")
            env[f"_f_{name}"] = info.default_factory
            params.append(f"{name}=_M")
            body.append(f"    if {name} is _M: {name} = _f_{name}()")
        elif isinstance(info.default, _IMMUTABLE):
            env[f"_d_{name}"] = info.default
            params.append(f"{name}=_d_{name}")
        else:  # a mutable default: copied for each instance, as pydantic does
            env[f"_d_{name}"] = info.default
            params.append(f"{name}=_M")
            body.append(f"    if {name} is _M: {name} = _copy(_d_{name})")
        if _is_float(info.annotation):
            body.append(f"    if {name}.__class__ is int: {name} = float({name})")
    env["_M"] = object()
    names = list(cls.__pydantic_fields__)  # type: ignore[attr-defined]
    values = ", ".join(f"{n!r}: {n}" for n in names)
    star = ["*"] if params else []
    lines = [
        f"def _build(__s, __d, {', '.join(star + params)}):",
        *body,
        f"    _set(__s, '__dict__', {{{values}}})",
        "    _set(__s, '__pydantic_fields_set__', set(__d))",
        "    _set(__s, '__pydantic_extra__', None)",
        "    _set(__s, '__pydantic_private__', None)",
    ]
    exec("\n".join(lines), env)  # our own field names, never a file's contents
    builder = _BUILDERS[cls] = env["_build"]
    builder.__qualname__ = f"{cls.__name__}.<trusted build>"
    return builder


def dump_json(value: Any) -> Any:
    """`model.model_dump(mode="json")` for IR the compiler built (`trusted_build`), without
    building the model's pydantic serialiser: models (pydantic's or `ir/records.py`'s) by
    their fields in order, enums by value, tuples as lists. The IR has no aliases and no
    custom serialisers."""
    fields = getattr(value.__class__, "__pydantic_fields__", None)
    if fields is not None:
        return {name: dump_json(getattr(value, name)) for name in fields}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list | tuple):
        return [dump_json(v) for v in value]
    if isinstance(value, dict):
        return {dump_json(k): dump_json(v) for k, v in value.items()}
    return value


def _is_float(annotation: Any) -> bool:
    """`float` or `float | None`: validation turns an int into a float there (`2` → `2.0`,
    e.g. a retry's `backoff_factor: 2`)."""
    if annotation is float:
        return True
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    return origin in (typing.Union, types.UnionType) and set(args) == {float, type(None)}


__all__ = ["RECORDS", "TRUSTED", "build", "dump_json", "trusted_build", "use_records"]
