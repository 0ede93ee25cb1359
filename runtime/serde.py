"""Checkpoint serialisation: JSON of registered types only — never pickle (D6).

Input: channel values and deltas (JSON values, registered pydantic models and dataclasses,
tuples). Output: JSON-compatible data, and back. Invariants: an unregistered type is refused
when saved (`SerializationError`) and when loaded (`UnknownStoredTypeError`, D6: LangGraph
rebuilds arbitrary stored types by default; we refuse them). Registered names are stable
across processes, so the stdlib registers its message classes by their `type` discriminator.
A `TypeAllowlist` (the file's `checkpoint sqlite("…", types: [...])`, LangGraph's
`allowed_msgpack_modules`) narrows what a load rebuilds further: agentc's own types
(messages, sends, interrupts, the file's own `schema`s) and the listed ones, nothing else.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any

from agentc.runtime.errors import SerializationError, UnknownStoredTypeError
from agentc.runtime.records import dataclass

TAG = "__agentc__"
_TUPLE, _DICT = "tuple", "dict"

Rebuild = Callable[[Any], Any]  # decodes the nested values of a stored one
Decoder = Callable[[Any, Rebuild], Any]

_BY_CLASS: dict[type, tuple[str, Callable[[Any], Any]]] = {}
_BY_NAME: dict[str, tuple[type, Decoder]] = {}

# registered names of agentc's own types: messages, runtime values, in-file `schema`s
OWN_PREFIXES = ("agentc.", "message.", "schema.")
FILE_MODULE_PREFIX = "agentc_user_"  # how the runtime names a Python file a `use` imports


def type_ref(cls: type) -> str:
    """`module:Qualname`, as a `types: [...]` list writes it (a used file: its file name)."""
    module = cls.__module__
    if module.startswith(FILE_MODULE_PREFIX):
        path = getattr(sys.modules.get(module), "__file__", None) or module
        module = os.path.basename(path)
    return f"{module}:{cls.__qualname__}"


def _as_written(cls: type) -> str:
    if cls.__module__.startswith(FILE_MODULE_PREFIX):  # named through its `use` alias
        return f"`alias.{cls.__qualname__}` (the alias of the `use` line of its file)"
    return f'"{type_ref(cls)}"'


@dataclass(frozen=True, slots=True)
class TypeAllowlist:
    """D6: the types a checkpoint may rebuild beyond agentc's own (an empty list: none).

    `names` are `module:Qualname` of importable modules, compared without importing;
    `classes` are classes of `use`d files, already imported by the run's bind."""

    names: frozenset[str] = frozenset()
    classes: frozenset[type] = frozenset()

    def allows(self, tag: str, cls: type) -> bool:
        return (
            tag.startswith(OWN_PREFIXES)
            or cls in self.classes
            or f"{cls.__module__}:{cls.__qualname__}" in self.names
        )

    def listed(self) -> str:
        refs = sorted({*self.names, *(type_ref(c) for c in self.classes)})
        return "[" + ", ".join(f'"{r}"' for r in refs) + "]"


def allowlist(names: Iterable[str], classes: Iterable[type] = ()) -> TypeAllowlist:
    return TypeAllowlist(frozenset(names), frozenset(classes))


def register_type(cls: type, name: str | None = None, *, exclude_defaults: bool = True) -> type:
    """Allow `cls` (a pydantic model, a dataclass or an Enum) in checkpoints under `name`."""
    name = name or f"{cls.__module__}.{cls.__qualname__}"
    enc: Callable[[Any], Any]
    dec: Decoder
    if hasattr(cls, "model_validate"):
        enc, dec = _model_codec(cls, exclude_defaults)
    elif dataclasses.is_dataclass(cls):
        enc, dec = _dataclass_codec(cls)
    elif issubclass(cls, enum.Enum):
        enc, dec = _enum_value, _enum_codec(cls)
    else:
        raise TypeError(f"register_type takes a pydantic model, dataclass or Enum, not {cls!r}")
    _BY_CLASS[cls] = (name, enc)
    _BY_NAME[name] = (cls, dec)
    return cls


def _model_codec(cls: Any, exclude_defaults: bool) -> tuple[Callable[[Any], Any], Decoder]:
    def enc(v: Any) -> Any:
        return v.model_dump(mode="json", exclude_defaults=exclude_defaults)

    def dec(d: Any, _rebuild: Rebuild) -> Any:  # pydantic types its own fields
        return cls.model_validate(d)

    return enc, dec


def _dataclass_codec(cls: Any) -> tuple[Callable[[Any], Any], Decoder]:
    names = [f.name for f in dataclasses.fields(cls)]

    def enc(v: Any) -> Any:
        return {n: encode(getattr(v, n)) for n in names}

    def dec(d: Any, rebuild: Rebuild) -> Any:  # nested values go through the same allowlist
        return cls(**{k: rebuild(v) for k, v in d.items()})

    return enc, dec


def _enum_codec(cls: type[enum.Enum]) -> Decoder:
    def dec(d: Any, _rebuild: Rebuild) -> Any:
        return cls(d)

    return dec


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


def decode(data: Any, allowed: TypeAllowlist | None = None) -> Any:
    """The value `data` encodes; with `allowed`, only agentc's own and the listed types."""

    def rebuild(data: Any) -> Any:
        t = type(data)
        if t is list:
            return [rebuild(v) for v in data]
        if t is not dict:
            return data
        tag = data.get(TAG)
        if tag is None:
            return {k: rebuild(v) for k, v in data.items()}
        if tag == _TUPLE:
            return tuple(rebuild(v) for v in data["items"])
        if tag == _DICT:
            return {rebuild(k): rebuild(v) for k, v in data["items"]}
        entry = _BY_NAME.get(tag)
        if entry is None:
            raise UnknownStoredTypeError(
                f"the checkpoint holds a value of type `{tag}`, which this process has not "
                "registered",
                help="import the module that registers it, or register_type it; "
                "agentc never rebuilds unlisted types (D6)",
            )
        cls, dec = entry
        if allowed is not None and not allowed.allows(tag, cls):
            raise UnknownStoredTypeError(
                f"the checkpoint holds a value of type `{type_ref(cls)}`, which is not in "
                f"the checkpoint's `types` list {allowed.listed()}",
                help=f"add {_as_written(cls)} to `types: [...]` on the `checkpoint` line to "
                "rebuild it; the list names every type a load may rebuild beyond agentc's "
                "own (D6)",
            )
        return dec(data["data"], rebuild)

    return rebuild(data)


def dumps(value: Any) -> str:
    return json.dumps(encode(value), separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes, allowed: TypeAllowlist | None = None) -> Any:
    return decode(json.loads(text), allowed)
