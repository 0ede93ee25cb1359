"""What a static read of a Python module yields (the data of `pyscan`).

Input: nothing (definitions only). Output: `PyModule` — its top-level functions
(`PyFunction`, with `PyParam`s and `Decorator`s), classes (`PyClass`, with `PyField`s;
`ClassKind` tells pydantic models, dataclasses, TypedDicts and AgentMiddleware subclasses
apart) and other names — and `object_schema`, the JSON Schema of an object with fields.
Invariant: frozen values; literal values only (never objects of the scanned module).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import field
from typing import Any

import agentc.ir as ir

from ...dsl.astclass import Record, record

HOOK_DECORATORS = {p.value for p in ir.HookPoint}
MIDDLEWARE_METHODS = {p.value: p for p in ir.HookPoint if p is not ir.HookPoint.DYNAMIC_PROMPT}
MIDDLEWARE_METHODS.update({"a" + k: v for k, v in list(MIDDLEWARE_METHODS.items())})


class ClassKind(str, enum.Enum):
    MODEL = "model"  # pydantic BaseModel
    DATACLASS = "dataclass"
    TYPEDDICT = "typeddict"
    MIDDLEWARE = "middleware"  # an AgentMiddleware subclass
    OTHER = "other"


@record
class Decorator(Record):
    """`@tool`, `@tool("name", return_direct=True)`: the last name part and literal args."""

    name: str
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()
    called: bool = False

    def kwarg(self, key: str, default: Any = None) -> Any:
        return dict(self.kwargs).get(key, default)


@record
class PyParam(Record):
    name: str
    annotation: str | None
    schema: dict[str, Any]
    required: bool
    default: Any = None
    injected: ir.InjectedArg | None = None
    description: str | None = None
    line: int = 0  # where the parameter is written in its .py file (0: not known)
    refs: tuple[str, ...] = ()  # the names its annotation mentions (`list[Point]`: list, Point)


@record
class PyFunction(Record):
    name: str
    doc: str | None
    params: tuple[PyParam, ...]
    is_async: bool
    decorators: tuple[Decorator, ...]
    line: int
    var_keyword: bool = False  # takes **kwargs: any keyword goes (a model factory's options)

    def decorator(self, *names: str) -> Decorator | None:
        return next((d for d in self.decorators if d.name in names), None)

    @property
    def hook_point(self) -> ir.HookPoint | None:
        d = next((d for d in self.decorators if d.name in HOOK_DECORATORS), None)
        return ir.HookPoint(d.name) if d else None


class Visibility(str, enum.Enum):
    """Where a state field shows (LangChain's OmitFromSchema markers on a state_schema)."""

    PUBLIC = "public"  # input and output
    PRIVATE = "private"  # PrivateStateAttr: neither
    OUTPUT_ONLY = "output_only"  # OmitFromInput
    INPUT_ONLY = "input_only"  # OmitFromOutput

    @property
    def input(self) -> bool:
        return self in (Visibility.PUBLIC, Visibility.INPUT_ONLY)

    @property
    def output(self) -> bool:
        return self in (Visibility.PUBLIC, Visibility.OUTPUT_ONLY)


@record
class PyField(Record):
    name: str
    schema: dict[str, Any]
    required: bool
    default: Any = None
    annotation: str | None = None
    visibility: Visibility = Visibility.PUBLIC


@record
class PyClass(Record):
    name: str
    kind: ClassKind
    doc: str | None
    fields: tuple[PyField, ...]
    hooks: tuple[ir.HookPoint, ...]
    jumps: tuple[tuple[ir.HookPoint, tuple[str, ...]], ...]
    line: int
    # AgentMiddleware subclasses only: what the compiler checks and lowers statically.
    init_params: tuple[PyParam, ...] | None = None  # None: no `__init__` of its own
    init_kwargs: bool = False  # `__init__` takes **kwargs: any setting goes
    state_schema: str | None = None  # `state_schema = Name` (a class of this module)
    tool_names: tuple[str, ...] = ()  # `tools = [f, g]` (class body or `self.tools` in __init__)
    # False for a plain class (no base, no pydantic schema hook, not a dataclass …): pydantic
    # can check an instance of it but no JSON schema can describe it to a model
    describable: bool = True

    def json_schema(self) -> dict[str, Any]:
        return object_schema(self.name, self.doc, self.fields)


@record
class PyModule(Record):
    path: str
    functions: dict[str, PyFunction] = field(default_factory=dict)
    classes: dict[str, PyClass] = field(default_factory=dict)
    names: frozenset[str] = frozenset()  # every other module-level binding (bindings.py)
    star_imports: tuple[str, ...] = ()  # `from m import *`: names this scan cannot see

    def has(self, name: str) -> bool:
        return name in self.functions or name in self.classes or name in self.names

    @property
    def all_names(self) -> list[str]:
        return sorted(set(self.functions) | set(self.classes) | set(self.names))


def object_schema(
    title: str | None, doc: str | None, fields: Iterable[PyField | PyParam]
) -> dict[str, Any]:
    fields = list(fields)
    schema: dict[str, Any] = {"type": "object"}
    if title:
        schema["title"] = title
    if doc:
        schema["description"] = doc
    schema["properties"] = {f.name: f.schema for f in fields}
    required = [f.name for f in fields if f.required]
    if required:
        schema["required"] = required
    return schema
