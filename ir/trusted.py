"""Rebuilding an `ir.Program` from JSON that agentc itself wrote, without validating it.

Input: the `model_dump(mode="json")` of a `Program`, read back from a store this toolchain
wrote and checked (the IR cache: keyed by the toolchain's own file hashes, the entry's
bytes checked against the digest written beside them). Output: a `Program` equal to
`Program.model_validate(data)`. Why: validating first builds the pydantic schema of every
IR model it meets (the models are `defer_build`): reading the calculator example's cache
entry takes ~31 ms that way and ~6 ms this way, as `model_construct` needs no schema.
Invariants: only for
data this toolchain dumped (nothing is checked: a value of the wrong shape raises
`TrustedDataError` or yields a wrong model, so untrusted JSON goes through
`model_validate`); every model, enum, list and dict is rebuilt as validation would.
"""

from __future__ import annotations

import enum
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from .program import Program


class TrustedDataError(ValueError):
    """The data does not have the shape of the model it is read as (a damaged entry)."""


def load_trusted(data: dict[str, Any]) -> Program:
    program = _model(Program, data)
    assert isinstance(program, Program)
    return program


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type[BaseModel]) -> dict[str, Any]:
    """The resolved annotation of each field (resolved once per class: the IR modules use
    string annotations and forward references, e.g. `Condition` inside itself)."""
    hints = _HINTS.get(cls)
    if hints is None:
        every = typing.get_type_hints(cls, include_extras=True)
        hints = _HINTS[cls] = {name: every[name] for name in cls.model_fields}
    return hints


def _model(cls: type[BaseModel], data: Any) -> BaseModel:
    if not isinstance(data, dict):
        raise TrustedDataError(f"{cls.__name__}: expected an object, got {type(data).__name__}")
    hints = _hints(cls)
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in hints:
            raise TrustedDataError(f"{cls.__name__} has no field `{key}`")
        values[key] = _value(hints[key], value)
    return cls.model_construct(**values)


def _value(tp: Any, value: Any) -> Any:
    origin = get_origin(tp)
    if origin is typing.Annotated:
        return _value(get_args(tp)[0], value)
    if origin is Union or origin is types.UnionType:
        return _union(get_args(tp), value)
    if origin is list:
        if not isinstance(value, list):
            raise TrustedDataError(f"expected a list, got {type(value).__name__}")
        (item,) = get_args(tp)
        return [_value(item, v) for v in value]
    if origin is dict:
        if not isinstance(value, dict):
            raise TrustedDataError(f"expected an object, got {type(value).__name__}")
        key_tp, item = get_args(tp)
        return {_value(key_tp, k): _value(item, v) for k, v in value.items()}
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _model(tp, value)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    return value  # str, int, float, bool, Literal[…], JSON (Any): as JSON gave it


def _union(options: tuple[Any, ...], value: Any) -> Any:
    if value is None:
        return None
    plain = _members(options)
    if isinstance(value, dict):
        models = [o for o in plain if isinstance(o, type) and issubclass(o, BaseModel)]
        if len(models) == 1:
            return _model(models[0], value)
        if models:
            return _model(_by_kind(models, value), value)
        return value  # a JSON object where the union allows one (`dict[str, JSON] | …`)
    for o in plain:
        if isinstance(o, type) and issubclass(o, enum.Enum):
            return o(value)
    if isinstance(value, list):
        lists = [o for o in plain if get_origin(o) is list]
        return _value(lists[0], value) if lists else value
    return value


def _members(options: tuple[Any, ...]) -> list[Any]:
    """A union's members, nested unions (`Condition | None`) and `Annotated` flattened."""
    found: list[Any] = []
    for o in options:
        o = get_args(o)[0] if get_origin(o) is typing.Annotated else o
        if get_origin(o) is Union or get_origin(o) is types.UnionType:
            found += _members(get_args(o))
        elif o is not type(None):
            found.append(o)
    return found


def _by_kind(models: list[type[BaseModel]], value: dict[str, Any]) -> type[BaseModel]:
    """A discriminated union's member: the model whose `kind` literal is the value's."""
    kind = value.get("kind")
    for m in models:
        ann = _hints(m).get("kind")
        if ann is not None and get_origin(ann) is Literal and kind in get_args(ann):
            return m
    raise TrustedDataError(f"no model of {[m.__name__ for m in models]} has kind {kind!r}")
