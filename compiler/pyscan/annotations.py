"""Python annotations and literals read with `ast`: annotation → JSON Schema (B11), E4's
injected arguments, constant values.

Input: `ast` expression nodes of a scanned module. Output: JSON Schema dicts, a
description from `Annotated[T, "doc"]`, `ir.InjectedArg`s, literal values. Annotations
are read as written: `int`, `list[str]`, `Optional[X]`, `X | None`, `Literal[...]`,
`Annotated[...]` map to JSON Schema; anything else maps to `{}` (any value). Invariant:
nothing is evaluated (`ast.literal_eval` on literals only).
"""

from __future__ import annotations

import ast
from typing import Any

import agentc.ir as ir

_SCALARS = {"int": "integer", "str": "string", "float": "number", "bool": "boolean"}
_SEQUENCES = {"list", "List", "Sequence", "tuple", "Tuple", "set", "Set", "Iterable"}
_MAPPINGS = {"dict", "Dict", "Mapping", "MutableMapping"}


def last_name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript):
        return last_name(node.value)
    return ""


def literal(node: ast.expr | None) -> Any:
    """A constant expression's value (None when it is not a plain literal)."""
    if node is None:
        return None
    try:
        return ast.literal_eval(node)  # literals only: never evaluates code
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


# ---------------------------------------------------------------- annotations


def annotation_schema(node: ast.expr) -> tuple[dict[str, Any], str | None]:
    """JSON Schema of an annotation, and a description from `Annotated[T, "doc"]`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:  # a string annotation: "int" or a forward reference
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return {}, None
    if isinstance(node, ast.Subscript) and last_name(node.value) == "Annotated":
        items = subscript_items(node)
        docs = [literal(m) for m in items[1:] if isinstance(literal(m), str)]
        return annotation_schema(items[0])[0], (docs[0] if docs else None)
    return _schema(node), None


def annotation_names(node: ast.expr) -> tuple[str, ...]:
    """Every name an annotation mentions, in order (`dict[str, Point] | None`: dict, str,
    Point); a string annotation is read as the expression it holds."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return ()
    names = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    return tuple(dict.fromkeys(names))


def _schema(node: ast.expr) -> dict[str, Any]:
    if isinstance(node, ast.Constant) and node.value is None:
        return {"type": "null"}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union([node.left, node.right])
    name = last_name(node)
    if isinstance(node, (ast.Name, ast.Attribute)):
        if name in _SCALARS:
            return {"type": _SCALARS[name]}
        if name in _SEQUENCES:
            return {"type": "array"}
        if name in _MAPPINGS:
            return {"type": "object"}
        return {}
    if isinstance(node, ast.Subscript):
        return _generic(name, subscript_items(node))
    return {}


def _generic(name: str, items: list[ast.expr]) -> dict[str, Any]:
    if name in _SEQUENCES:
        return {"type": "array", "items": _schema(items[0])} if items else {"type": "array"}
    if name in _MAPPINGS:
        value = _schema(items[1]) if len(items) == 2 else {}
        return {"type": "object", "additionalProperties": value} if value else {"type": "object"}
    if name == "Optional":
        return _union([items[0], ast.Constant(value=None)])
    if name == "Union":
        return _union(items)
    if name == "Literal":
        values = [literal(i) for i in items]
        return {"enum": values}
    if name in ("Annotated", "NotRequired", "Required", "ReadOnly"):
        return _schema(items[0])
    return {}


def _union(members: list[ast.expr]) -> dict[str, Any]:
    # `int | str | …` is a chain of `BinOp`s as long as the union: flattened with a stack,
    # not by recursion, so a union of a thousand members is read like one of two.
    flat = [f for m in members for f in union_members(m)]
    schemas = [_schema(m) for m in flat]
    if any(s == {} for s in schemas):
        return {}
    return {"anyOf": schemas}


def union_members(node: ast.expr) -> list[ast.expr]:
    """`a | b | c` as `[a, b, c]` (one member when `node` is no union), without recursion:
    the chain of `BinOp`s is as deep as the union is long."""
    flat: list[ast.expr] = []
    pending = [node]
    while pending:
        m = pending.pop()
        if isinstance(m, ast.BinOp) and isinstance(m.op, ast.BitOr):
            pending += [m.right, m.left]
        else:
            flat.append(m)
    return flat


def unparse(node: ast.expr) -> str:
    """An annotation as source text; a long union member by member (`ast.unparse` recurses
    once per `|`)."""
    members = union_members(node)
    if len(members) == 1:
        return ast.unparse(node)
    return " | ".join(ast.unparse(m) for m in members)


def subscript_items(node: ast.Subscript) -> list[ast.expr]:
    sl = node.slice
    return list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]


# ---------------------------------------------------------------- injected arguments (E4)

_INJECTED = {
    "InjectedState": ir.InjectedKind.STATE,
    "InjectedStore": ir.InjectedKind.STORE,
    "InjectedToolCallId": ir.InjectedKind.TOOL_CALL_ID,
    "ToolRuntime": ir.InjectedKind.RUNTIME,
}


def injected_arg(param: str, ann: ast.expr | None) -> ir.InjectedArg | None:
    """E4: a parameter the runtime fills in, hidden from the model's schema."""
    if ann is None:
        return None
    candidates = [ann]
    if isinstance(ann, ast.Subscript) and last_name(ann.value) == "Annotated":
        candidates = subscript_items(ann)
    for node in candidates:
        target = node.func if isinstance(node, ast.Call) else node
        kind = _INJECTED.get(last_name(target))
        if kind is None:
            continue
        fld = None
        if isinstance(node, ast.Call) and node.args and isinstance(literal(node.args[0]), str):
            fld = literal(node.args[0])
        return ir.InjectedArg(param=param, kind=kind, field=fld)
    return None
