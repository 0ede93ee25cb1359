"""AST → S-expression text, for golden tests and `agentc` debugging.

Input: any `dsl.ast` node (usually a `Module`). Output: a deterministic, indented
S-expression: `(ClassName @line:col-line:col field: value …)`; fields in declaration
order, tuples as `[ … ]`, strings JSON-quoted, `None` as `nil`. Spans can be left out
(`spans=False`) when only the shape matters.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from .source import Span


def dump(node: Any, *, spans: bool = True) -> str:
    """The S-expression form of an AST node, ending with a newline."""
    out: list[str] = []
    _emit(node, 0, out, spans)
    return "\n".join(out) + "\n"


def _span_text(span: Span) -> str:
    return f"@{span.start.line}:{span.start.col}-{span.end.line}:{span.end.col}"


def _atom(value: Any) -> str | None:
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


def _leafy(node: Any) -> bool:
    """A node whose fields are all atoms prints on one line."""
    return all(
        _atom(getattr(node, f.name)) is not None
        for f in dataclasses.fields(node)
        if f.name != "span"
    )


def _head(node: Any, spans: bool) -> str:
    head = f"({type(node).__name__}"
    span = getattr(node, "span", None)
    if spans and isinstance(span, Span):
        head += f" {_span_text(span)}"
    return head


def _emit(node: Any, depth: int, out: list[str], spans: bool, prefix: str = "") -> None:
    pad = "  " * depth
    atom = _atom(node)
    if atom is not None:
        out.append(f"{pad}{prefix}{atom}")
    elif isinstance(node, tuple):
        _emit_tuple(node, depth, out, spans, prefix)
    elif _leafy(node):
        fields = " ".join(
            _atom(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name != "span"
        )
        out.append(f"{pad}{prefix}{_head(node, spans)}{' ' + fields if fields else ''})")
    else:
        out.append(f"{pad}{prefix}{_head(node, spans)}")
        for f in dataclasses.fields(node):
            if f.name != "span":
                _emit(getattr(node, f.name), depth + 1, out, spans, f"{f.name}: ")
        out[-1] += ")"


def _emit_tuple(items: tuple, depth: int, out: list[str], spans: bool, prefix: str) -> None:
    pad = "  " * depth
    if not items:
        out.append(f"{pad}{prefix}[]")
        return
    out.append(f"{pad}{prefix}[")
    for item in items:
        _emit(item, depth + 1, out, spans)
    out.append(f"{pad}]")
