"""Go to definition, find references, rename.

Input: an analysed document and an offset. Output: LSP locations and edits. Definitions
reach agents, graphs, schemas, declared middleware (the prelude's too), nodes and channels
in this file; the Python function or class a `use`d module defines, at its line (read by
the static scan, never imported); and the declaration in another `.agent` file a `use`
names. References and rename cover every occurrence the index knows; a name declared
outside this file (the prelude's) is not renamed.
"""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types as lsp

from ..dsl import ast
from ..dsl.parse import parse_file
from . import python
from .analysis import Analysis
from .hover import word_at
from .index import BUILT_IN_NODES, Key, Kind
from .positions import file_uri, path_to_uri, span_range

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _at_line(path: Path, line: int) -> lsp.Location:
    start = lsp.Position(line=max(line - 1, 0), character=0)
    return lsp.Location(uri=path_to_uri(path), range=lsp.Range(start=start, end=start))


def _part(text: str, offset: int) -> tuple[list[str], int] | None:
    """The dotted word's parts and which of them the cursor is on."""
    found = word_at(text, offset)
    if found is None:
        return None
    word, at, _ = found
    parts = word.split(".")
    for i, part in enumerate(parts):
        if at <= offset <= at + len(part):
            return parts, i
        at += len(part) + 1
    return parts, len(parts) - 1


def definition(a: Analysis, offset: int) -> list[lsp.Location]:
    use = _use_string_at(a, offset)
    if use is not None:
        return _module_location(a, use, None)
    found = _part(a.source.text, offset)
    if found is None:
        return []
    parts, which = found
    if which >= 1 and (Kind.MODULE, "", parts[0]) in a.index.symbols:
        use = python.use_of(a.module, parts[0])
        return _module_location(a, use, parts[which]) if use is not None and which == 1 else []
    occurrence = a.index.at(offset)
    if occurrence is None:
        return []
    symbol = a.index.symbols[occurrence.key]
    if occurrence.key[0] is Kind.MODULE and isinstance(symbol.decl, ast.UseDecl):
        return _module_location(a, symbol.decl, None)
    return _symbol_location(a, occurrence.key)


def _symbol_location(a: Analysis, key: Key) -> list[lsp.Location]:
    symbol = a.index.symbols[key]
    uri = file_uri(symbol.span.file, a.filename, a.uri)
    if uri is None:
        return []
    if symbol.span.file == a.filename:
        return [lsp.Location(uri=uri, range=span_range(a.source, symbol.span))]
    start = lsp.Position(line=symbol.span.start.line - 1, character=symbol.span.start.col - 1)
    end = lsp.Position(line=symbol.span.end.line - 1, character=symbol.span.end.col - 1)
    return [lsp.Location(uri=uri, range=lsp.Range(start=start, end=end))]


def _use_string_at(a: Analysis, offset: int) -> ast.UseDecl | None:
    for item in a.module.items if a.module is not None else ():
        if isinstance(item, ast.UseDecl):
            span = item.target.span
            if span.start.offset <= offset <= span.end.offset:
                return item
    return None


def _module_location(a: Analysis, use: ast.UseDecl, name: str | None) -> list[lsp.Location]:
    """Into the Python module (at the function or class), or the `.agent` file a `use`
    names (at the declaration)."""
    target = use.target.value
    if target.endswith(".agent"):
        path = (a.base_dir / target).resolve()
        if not path.is_file():
            return []
        return [_agent_decl(path, name)]
    found = python.target(a.module, a.base_dir, use.alias.text, name) if use.alias else None
    if found is None and use.alias is None:
        path = python.module_file(use, a.base_dir)
        return [_at_line(path, 1)] if path is not None else []
    return [_at_line(found.path, found.line)] if found is not None else []


def _agent_decl(path: Path, name: str | None) -> lsp.Location:
    parsed = parse_file(path)
    for item in parsed.module.items if parsed.module is not None and name else ():
        if isinstance(item, ast.AgentDecl | ast.GraphDecl | ast.SchemaDecl | ast.DeclareDecl):
            if item.name.text == name:
                return lsp.Location(
                    uri=path_to_uri(path), range=span_range(parsed.source, item.name.span)
                )
    return _at_line(path, 1)


def references(a: Analysis, offset: int, include_declaration: bool) -> list[lsp.Location]:
    occurrence = a.index.at(offset)
    if occurrence is None:
        return []
    return [
        lsp.Location(uri=a.uri, range=span_range(a.source, o.span))
        for o in a.index.of(occurrence.key)
        if include_declaration or not o.is_def
    ]


def prepare_rename(a: Analysis, offset: int) -> lsp.Range | None:
    occurrence = a.index.at(offset)
    if occurrence is None or not _renamable(a, occurrence.key):
        return None
    return span_range(a.source, occurrence.span)


def _renamable(a: Analysis, key: Key) -> bool:
    symbol = a.index.symbols.get(key)
    return (
        symbol is not None
        and symbol.span.file == a.filename
        and key[0] in (Kind.NODE, Kind.CHANNEL, Kind.AGENT, Kind.GRAPH, Kind.SCHEMA)
    )


def rename(a: Analysis, offset: int, new_name: str) -> lsp.WorkspaceEdit | None:
    occurrence = a.index.at(offset)
    if occurrence is None or not _renamable(a, occurrence.key):
        return None
    if not _NAME.fullmatch(new_name) or new_name in BUILT_IN_NODES:
        return None
    edits = [
        lsp.TextEdit(range=span_range(a.source, o.span), new_text=new_name)
        for o in a.index.of(occurrence.key)
    ]
    return lsp.WorkspaceEdit(changes={a.uri: edits})
