"""AST → S-expression text, for golden tests and `agentc` debugging.

Input: any `dsl.ast` node (usually a `Module`). Output: a deterministic, indented
S-expression: `(ClassName @line:col-line:col field: value …)`; fields in declaration
order, tuples as `[ … ]`, strings JSON-quoted, `None` as `nil`. Spans can be left out
(`spans=False`) when only the shape matters.
"""

from __future__ import annotations

import dataclasses
import json

from .astclass import Node
from .source import Span


def dump(node: Node, *, spans: bool = True) -> str:
    """The S-expression form of an AST node, ending with a newline."""
    out: list[str] = []
    _emit(node, 0, out, spans)
    return "\n".join(out) + "\n"


def _span_text(span: Span) -> str:
    return f"@{span.start.line}:{span.start.col}-{span.end.line}:{span.end.col}"


def _atom(value: object) -> str | None:
    """The one-line form of a leaf value, or None for a node or a tuple."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return None


def _leaf_fields(node: Node) -> list[str] | None:
    """The fields of a node whose fields are all atoms (it prints on one line), else None."""
    atoms: list[str] = []
    for f in dataclasses.fields(node):
        if f.name != "span":
            atom = _atom(getattr(node, f.name))
            if atom is None:
                return None
            atoms.append(atom)
    return atoms


def _head(node: Node, spans: bool) -> str:
    head = f"({type(node).__name__}"
    span = getattr(node, "span", None)
    if spans and isinstance(span, Span):
        head += f" {_span_text(span)}"
    return head


def _emit(node: object, depth: int, out: list[str], spans: bool, prefix: str = "") -> None:
    pad = "  " * depth
    atom = _atom(node)
    if atom is not None:
        out.append(f"{pad}{prefix}{atom}")
        return
    if isinstance(node, tuple):
        _emit_tuple(node, depth, out, spans, prefix)
        return
    assert isinstance(node, Node), node  # a field holds an atom, a tuple or a node
    leaf = _leaf_fields(node)
    if leaf is not None:
        fields = " ".join(leaf)
        out.append(f"{pad}{prefix}{_head(node, spans)}{' ' + fields if fields else ''})")
    else:
        out.append(f"{pad}{prefix}{_head(node, spans)}")
        for f in dataclasses.fields(node):
            if f.metadata.get("omit_empty") and not getattr(node, f.name):
                continue  # a field added later (a Module's tests): old dumps stay as they were
            if f.name != "span":
                _emit(getattr(node, f.name), depth + 1, out, spans, f"{f.name}: ")
        out[-1] += ")"


def _emit_tuple(
    items: tuple[object, ...], depth: int, out: list[str], spans: bool, prefix: str
) -> None:
    pad = "  " * depth
    if not items:
        out.append(f"{pad}{prefix}[]")
        return
    out.append(f"{pad}{prefix}[")
    for item in items:
        _emit(item, depth + 1, out, spans)
    out.append(f"{pad}]")
