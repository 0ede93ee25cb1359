"""The IR's models as plain records, for a process that only checks (`agentc check`).

Input: the same class bodies as the pydantic IR (`ir/base.py`, `ir/agent.py`,
`ir/nodes.py`, `ir/program.py`), whose base `Frozen` is this module's when the process chose
records before the IR was first loaded (`ir/construct.py: use_records`). Output: classes
with the same fields, defaults, default factories and methods, whose instances the compiler
builds exactly as a trusted build fills a pydantic model (`ir/construct.py: build`: an
unknown or missing field is a `TypeError`, an int given for a float becomes a float), and
which answer what the compiler and the checks ask of a model: `model_copy(update=…)`,
`model_construct`, `model_fields`, `model_dump(mode="json")`, `==`, `hash`, `repr`.
Why: a check reads the IR it lowered (structural checks, test blocks) and throws it away;
importing pydantic's model machinery and creating the IR's pydantic classes was about a
third of a cold `agentc check`. Invariants: nothing is validated (only the compiler builds
these); instances are frozen; `tests/ir/test_ir_records.py` compiles the same files both
ways and compares the IR and the diagnostics.
"""

from __future__ import annotations

import copy
import typing
from typing import Any

from .construct import build, dump_json

_UNSET: Any = type("Unset", (), {"__repr__": lambda self: "<required>"})()


class FieldInfo:
    """What `ir/construct.py` and the compiler read of pydantic's `FieldInfo`."""

    __slots__ = ("annotation", "default", "default_factory")
    default_factory_takes_validated_data = False

    def __init__(self, default: Any, default_factory: Any, annotation: Any = None) -> None:
        self.default, self.default_factory, self.annotation = default, default_factory, annotation

    def is_required(self) -> bool:
        return self.default is _UNSET and self.default_factory is None


def Field(default: Any = _UNSET, *, default_factory: Any = None, **_: Any) -> Any:  # noqa: N802
    """pydantic's `Field` as far as records need it: a default or a default factory (the
    rest, e.g. a union's `discriminator`, only matters to validation)."""
    return FieldInfo(default, default_factory)


_SLOTS = ("__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")


class Frozen:
    """The records' base: fields from the class annotations, as pydantic collects them."""

    __slots__ = ("__dict__", *_SLOTS)
    __pydantic_fields_set__: set[str]
    __pydantic_fields__: typing.ClassVar[dict[str, FieldInfo]] = {}
    model_fields: typing.ClassVar[dict[str, FieldInfo]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: dict[str, FieldInfo] = {}
        for base in reversed(cls.__mro__[1:]):
            fields.update(base.__dict__.get("__pydantic_fields__", {}))
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if name.startswith("_") or _is_classvar(annotation):
                continue
            value = cls.__dict__.get(name, _UNSET)
            if isinstance(value, FieldInfo):
                fields[name] = FieldInfo(value.default, value.default_factory, annotation)
            else:
                fields[name] = FieldInfo(value, None, annotation)
            if name in cls.__dict__:  # pydantic keeps defaults in the fields, not the class
                delattr(cls, name)
        cls.__pydantic_fields__ = cls.model_fields = fields

    def __init__(self, /, **data: Any) -> None:
        build(self, data)

    @classmethod
    def model_construct(cls, **values: Any) -> Any:
        return cls(**values)

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Any:
        new = object.__new__(type(self))
        values = copy.deepcopy(self.__dict__) if deep else dict(self.__dict__)
        if update:
            values.update(update)
        object.__setattr__(new, "__dict__", values)
        object.__setattr__(
            new, "__pydantic_fields_set__", self.__pydantic_fields_set__ | set(update or ())
        )
        object.__setattr__(new, "__pydantic_extra__", None)
        object.__setattr__(new, "__pydantic_private__", None)
        return new

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        if mode != "json":
            raise ValueError("IR records dump only as JSON (mode='json')")
        return dump_json(self)

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError(f"{type(self).__name__} is frozen: `{name}` cannot be assigned")

    def __delattr__(self, name: str) -> None:
        raise TypeError(f"{type(self).__name__} is frozen: `{name}` cannot be deleted")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frozen):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash(tuple(self.__dict__.values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({fields})"

    def __copy__(self) -> Any:
        return self.model_copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self.model_copy(deep=True)


def _is_classvar(annotation: Any) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return annotation is typing.ClassVar or typing.get_origin(annotation) is typing.ClassVar


__all__ = ["Field", "FieldInfo", "Frozen"]
