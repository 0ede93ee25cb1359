"""Checkpoint serialisation: JSON of registered types only — never pickle (D6).

Input: channel values and deltas (JSON values, registered pydantic models and dataclasses,
tuples). Output: JSON-compatible data, and back. Invariants: an unregistered type is refused
when saved (`SerializationError`) and when loaded (`UnknownStoredTypeError`, D6: LangGraph
rebuilds arbitrary stored types by default; we refuse them). Registered names are stable
across processes, so the stdlib registers its message classes by their `type` discriminator.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Callable
from typing import Any

from agentc.runtime.errors import SerializationError, UnknownStoredTypeError

TAG = "__agentc__"
_TUPLE, _DICT = "tuple", "dict"

_BY_CLASS: dict[type, tuple[str, Callable[[Any], Any]]] = {}
_BY_NAME: dict[str, Callable[[Any], Any]] = {}


def register_type(cls: type, name: str | None = None, *, exclude_defaults: bool = True) -> type:
    """Allow `cls` (a pydantic model, a dataclass or an Enum) in checkpoints under `name`."""
    name = name or f"{cls.__module__}.{cls.__qualname__}"
    enc: Callable[[Any], Any]
    dec: Callable[[Any], Any]
    if hasattr(cls, "model_validate"):
        enc, dec = _model_codec(cls, exclude_defaults)
    elif dataclasses.is_dataclass(cls):
        enc, dec = _dataclass_codec(cls)
    elif issubclass(cls, enum.Enum):
        enc, dec = _enum_value, cls
    else:
        raise TypeError(f"register_type takes a pydantic model, dataclass or Enum, not {cls!r}")
    _BY_CLASS[cls] = (name, enc)
    _BY_NAME[name] = dec
    return cls


def _model_codec(
    cls: Any, exclude_defaults: bool
) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    def enc(v: Any) -> Any:
        return v.model_dump(mode="json", exclude_defaults=exclude_defaults)

    return enc, cls.model_validate


def _dataclass_codec(cls: Any) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    names = [f.name for f in dataclasses.fields(cls)]

    def enc(v: Any) -> Any:
        return {n: encode(getattr(v, n)) for n in names}

    def dec(d: Any) -> Any:
        return cls(**{k: decode(v) for k, v in d.items()})

    return enc, dec


def _enum_value(v: enum.Enum) -> Any:
    return v.value


def encode(value: Any) -> Any:
    """A JSON-compatible form of `value`."""
    t = type(value)
    if value is None or t is str or t is int or t is float or t is bool:
        return value
    if t is list:
        return [encode(v) for v in value]
    if t is dict:
        if TAG in value or not all(type(k) is str for k in value):
            return {TAG: _DICT, "items": [[encode(k), encode(v)] for k, v in value.items()]}
        return {k: encode(v) for k, v in value.items()}
    if t is tuple:
        return {TAG: _TUPLE, "items": [encode(v) for v in value]}
    entry = _BY_CLASS.get(t)
    if entry is not None:
        return {TAG: entry[0], "data": entry[1](value)}
    if (
        hasattr(value, "__len__")
        and hasattr(value, "__getitem__")
        and not isinstance(value, (str, bytes))
    ):
        return [encode(v) for v in value]  # read-only sequence views
    raise SerializationError(
        f"cannot save a value of type `{t.__module__}.{t.__qualname__}` in a checkpoint",
        help="register it with agentc.runtime.serde.register_type (JSON only, never pickle)",
    )


def decode(data: Any) -> Any:
    t = type(data)
    if t is list:
        return [decode(v) for v in data]
    if t is not dict:
        return data
    tag = data.get(TAG)
    if tag is None:
        return {k: decode(v) for k, v in data.items()}
    if tag == _TUPLE:
        return tuple(decode(v) for v in data["items"])
    if tag == _DICT:
        return {decode(k): decode(v) for k, v in data["items"]}
    dec = _BY_NAME.get(tag)
    if dec is None:
        raise UnknownStoredTypeError(
            f"the checkpoint holds a value of type `{tag}`, which this process has not registered",
            help="import the module that registers it, or register_type it; "
            "agentc never rebuilds unlisted types (D6)",
        )
    return dec(data["data"])


def dumps(value: Any) -> str:
    return json.dumps(encode(value), separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes) -> Any:
    return decode(json.loads(text))
