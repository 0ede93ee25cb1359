"""Value types of the language, resolved from the AST's type expressions.

Input: `ast.TypeExpr` plus the names of the schemas in scope. Output: `Ty`, a small frozen
tree the checker compares literal values against (`typecheck.check_value`) and the lowering
turns into JSON Schema (`json_schema`) and a display string. Invariant: unknown type names
become a diagnostic and the type `any`, so one mistake is reported once.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import Any

from ..dsl import ast
from ..dsl.astclass import Record, record
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error
from .suggest import did_you_mean


class TyKind(str, enum.Enum):
    PRIM = "prim"  # str int float bool any none
    LIST = "list"
    MAP = "map"  # string keys
    UNION = "union"
    LITERAL = "literal"
    SCHEMA = "schema"
    MESSAGES = "messages"
    SPECIAL = "special"  # model, ref, context_size, duration


Report = Callable[[Diagnostic], None]

PRIMS = ("str", "int", "float", "bool", "any", "none")
SPECIALS = ("model", "ref", "context_size", "duration")
GENERICS = ("list", "map", "dict")
BUILTIN_TYPE_NAMES = PRIMS + SPECIALS + GENERICS + ("messages",)


@record
class Ty(Record):
    kind: TyKind
    name: str = ""  # PRIM / SCHEMA / SPECIAL name
    args: tuple[Ty, ...] = ()  # LIST (1), MAP (1), UNION (n)
    value: Any = None  # LITERAL

    def display(self) -> str:
        if self.kind is TyKind.LIST:
            return f"list[{self.args[0].display()}]"
        if self.kind is TyKind.MAP:
            return f"map[{self.args[0].display()}]"
        if self.kind is TyKind.UNION:
            non_none = [a for a in self.args if a != NONE]
            if len(non_none) == 1 and len(self.args) == 2:
                return f"{non_none[0].display()}?"
            return " | ".join(a.display() for a in self.args)
        if self.kind is TyKind.LITERAL:
            return _literal_text(self.value)
        if self.kind is TyKind.MESSAGES:
            return "messages"
        return self.name

    @property
    def is_list(self) -> bool:
        return self.kind is TyKind.LIST or (self.kind is TyKind.PRIM and self.name == "any")


def _literal_text(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def prim(name: str) -> Ty:
    return Ty(TyKind.PRIM, name)


ANY = prim("any")
NONE = prim("none")
STR = prim("str")


def union(options: Iterable[Ty]) -> Ty:
    # A dict keeps first-seen order and dedupes in linear time: a list's `in` made a
    # union of a few thousand literals quadratic (seconds to check one file).
    seen: dict[Ty, None] = {}
    for o in options:
        for member in o.args if o.kind is TyKind.UNION else (o,):
            seen.setdefault(member, None)
    flat = tuple(seen)
    return flat[0] if len(flat) == 1 else Ty(TyKind.UNION, args=flat)


@record
class TypeScope(Record):
    """What a type name may refer to besides the built-ins."""

    schemas: frozenset[str]


def resolve_type(texpr: ast.TypeExpr, scope: TypeScope, report: Report) -> Ty:
    if isinstance(texpr, ast.OptionalType):
        return union([resolve_type(texpr.inner, scope, report), NONE])
    if isinstance(texpr, ast.UnionType):
        return union(resolve_type(o, scope, report) for o in texpr.options)
    if isinstance(texpr, ast.LiteralType):
        return Ty(TyKind.LITERAL, value=texpr.value.value)
    if isinstance(texpr, ast.GenericType):
        return _generic(texpr, scope, report)
    return _named(texpr, scope, report)


def _generic(texpr: ast.GenericType, scope: TypeScope, report: Report) -> Ty:
    args = [resolve_type(a, scope, report) for a in texpr.args]
    name = texpr.name.text
    want = {"list": 1, "map": 1, "dict": 2}.get(name)
    if want is None or len(args) != want:
        shape = {"list": "list[T]", "map": "map[T]", "dict": "dict[str, T]"}.get(name)
        report(
            error(
                Code.UNKNOWN_TYPE,
                f"`{name}[…]` is not a generic type",
                texpr.span,
                "unknown generic type" if shape is None else f"expected {shape}",
                help="use `list[T]`, `map[T]` or `dict[str, T]`",
            )
        )
        return ANY
    if name == "list":
        return Ty(TyKind.LIST, args=(args[0],))
    return Ty(TyKind.MAP, args=(args[-1],))


def _named(texpr: ast.NamedType, scope: TypeScope, report: Report) -> Ty:
    name = texpr.name.dotted
    if name in PRIMS:
        return prim(name)
    if name in SPECIALS:
        return Ty(TyKind.SPECIAL, name)
    if name == "messages":
        return Ty(TyKind.MESSAGES)
    if name in ("list", "map", "dict"):
        return Ty(TyKind.LIST, args=(ANY,)) if name == "list" else Ty(TyKind.MAP, args=(ANY,))
    if name in scope.schemas:
        return Ty(TyKind.SCHEMA, name)
    candidates = list(BUILTIN_TYPE_NAMES) + sorted(scope.schemas)
    report(
        error(
            Code.UNKNOWN_TYPE,
            f"unknown type `{name}`",
            texpr.span,
            "not a type",
            help=did_you_mean(name, candidates),
        )
    )
    return ANY


# ---------------------------------------------------------------- JSON Schema

_JSON_TYPES = {
    "str": "string",
    "int": "integer",
    "float": "number",
    "bool": "boolean",
    "none": "null",
}


def json_schema(ty: Ty) -> dict[str, Any]:
    """The JSON Schema the runtime validates a channel or field with."""
    if ty.kind is TyKind.PRIM:
        return {"type": _JSON_TYPES[ty.name]} if ty.name in _JSON_TYPES else {}
    if ty.kind is TyKind.LIST:
        inner = json_schema(ty.args[0])
        return {"type": "array", "items": inner} if inner else {"type": "array"}
    if ty.kind is TyKind.MAP:
        inner = json_schema(ty.args[0])
        return {"type": "object", "additionalProperties": inner} if inner else {"type": "object"}
    if ty.kind is TyKind.UNION:
        if all(a.kind is TyKind.LITERAL for a in ty.args):
            return {"enum": [a.value for a in ty.args]}
        members = [json_schema(a) for a in ty.args]
        return {} if {} in members else {"anyOf": members}
    if ty.kind is TyKind.LITERAL:
        return {"const": ty.value}
    if ty.kind is TyKind.SCHEMA:
        return {"$ref": f"#/$defs/{ty.name}"}
    if ty.kind is TyKind.MESSAGES:
        return {"type": "array", "items": {"type": "object"}}
    if ty.kind is TyKind.SPECIAL and ty.name == "model":
        return {"type": "string"}
    if ty.kind is TyKind.SPECIAL and ty.name == "duration":
        return {"type": "number"}
    return {}
