"""Highlighting and the outline, from our own lexer, parser and index (so neither drifts
from the language).

Input: an analysed document. Output: LSP semantic tokens (keywords, strings, numbers,
comments, and names by what they are: agents and graphs, schemas, nodes, channels, `use`
aliases, middleware; declarations marked) and document symbols (each declaration, with an
agent's or graph's nodes and channels below it).
"""

from __future__ import annotations

from lark import Token
from lark.exceptions import LarkError
from lsprotocol import types as lsp

from ..dsl import ast
from ..dsl.source import Span
from ..fmt.comments import comments
from ..grammar import load_parser
from .analysis import Analysis
from .index import Kind
from .positions import span_range

TOKEN_TYPES = [
    "keyword", "string", "number", "comment", "class", "type", "function", "variable",
    "namespace", "macro", "property", "operator",
]  # fmt: skip
TOKEN_MODIFIERS = ["declaration"]
LEGEND = lsp.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)

_BY_KIND = {
    Kind.AGENT: "class", Kind.GRAPH: "class", Kind.SCHEMA: "type", Kind.NODE: "function",
    Kind.CHANNEL: "variable", Kind.MODULE: "namespace", Kind.MIDDLEWARE: "macro",
    Kind.ROUTER: "macro", Kind.TEMPLATE: "macro",
}  # fmt: skip
_LITERAL = {"STRING": "string", "LONG_STRING": "string", "INT": "number", "FLOAT": "number"}
_LITERAL |= {"DURATION": "number", "BAD_NUMBER": "number"}
_OPERATORS = frozenset({"->", "==", "!=", "<=", ">=", "<", ">", "|", "=", "?"})


def _lexed(text: str) -> list[Token]:
    out: list[Token] = []
    try:
        for tok in load_parser().lex(text):
            out.append(tok)
    except LarkError:
        pass  # highlight what lexes; the rest waits for the text to be fixed
    return out


def semantic_tokens(a: Analysis) -> list[int]:
    """The LSP's relative encoding: (Δline, Δstart, length, type, modifiers) per token."""
    text = a.source.text
    found: list[tuple[int, int, str, int]] = []  # (start, end, type, modifiers)
    lexed = _lexed(text)
    for i, tok in enumerate(lexed):
        kind = _token_type(a, tok, lexed[i + 1] if i + 1 < len(lexed) else None)
        if kind is not None:
            start = tok.start_pos or 0
            found.append((start, tok.end_pos or start, kind[0], kind[1]))
    found += [(c.start, c.end, "comment", 0) for c in comments(text)]
    found.sort()
    return _encode(a, found)


def _token_type(a: Analysis, tok: Token, after: Token | None) -> tuple[str, int] | None:
    literal = _LITERAL.get(tok.type)
    if literal is not None:
        return literal, 0
    if tok.type == "NAME" or str(tok).isidentifier():
        start = tok.start_pos or 0
        occurrence = a.index.at(start)
        if occurrence is not None and occurrence.span.start.offset == start:
            return _BY_KIND[occurrence.key[0]], int(occurrence.is_def)
        if after is not None and after.type == "COLON":
            return "property", 0
        if tok.type != "NAME":
            return "keyword", 0
        return None
    if str(tok) in _OPERATORS:
        return "operator", 0
    return None


def _encode(a: Analysis, found: list[tuple[int, int, str, int]]) -> list[int]:
    data: list[int] = []
    prev_line, prev_char = 0, 0
    types = {t: i for i, t in enumerate(TOKEN_TYPES)}
    for start, end, kind, mods in found:
        for s, e in _per_line(a.source.text, start, end):
            r = span_range(a.source, a.source.span(s, e))
            line, char = r.start.line, r.start.character
            length = r.end.character - char
            if length <= 0:
                continue
            delta_char = char - prev_char if line == prev_line else char
            data += [line - prev_line, delta_char, length, types[kind], mods]
            prev_line, prev_char = line, char
    return data


def _per_line(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A multi-line token as one piece per line (the protocol's tokens cannot span lines)."""
    out = []
    while start < end:
        stop = text.find("\n", start, end)
        stop = end if stop < 0 else stop
        out.append((start, stop))
        start = stop + 1
    return out


def document_symbols(a: Analysis) -> list[lsp.DocumentSymbol]:
    out = []
    for item in a.module.items if a.module is not None else ():
        symbol = _top_symbol(a, item)
        if symbol is not None:
            out.append(symbol)
    for test in a.module.tests if a.module is not None else ():
        out.append(_test_symbol(a, test))
    return out


def _test_symbol(a: Analysis, test: ast.TestDecl) -> lsp.DocumentSymbol:
    """A `test "…"` block, its `expect` lines as children (the outline of a test file)."""
    top = lsp.DocumentSymbol(
        name=test.name.value,
        kind=lsp.SymbolKind.Method,
        range=span_range(a.source, test.span),
        selection_range=span_range(a.source, test.name.span),
        detail="test",
        children=[],
    )
    top.children = [
        _symbol(a, stmt.subject, stmt.span, lsp.SymbolKind.Event, "expect")
        for stmt in test.body
        if isinstance(stmt, ast.TestExpect)
    ]
    return top


def _symbol(a: Analysis, name: ast.Name, whole: Span, kind: lsp.SymbolKind, detail: str):
    return lsp.DocumentSymbol(
        name=name.text,
        kind=kind,
        range=span_range(a.source, whole),
        selection_range=span_range(a.source, name.span),
        detail=detail,
        children=[],
    )


def _top_symbol(a: Analysis, item: ast.Item) -> lsp.DocumentSymbol | None:
    S = lsp.SymbolKind
    if isinstance(item, ast.UseDecl):
        return (
            _symbol(a, item.alias, item.span, S.Module, item.target.value) if item.alias else None
        )
    if isinstance(item, ast.SchemaDecl):
        return _symbol(a, item.name, item.span, S.Struct, "schema")
    if isinstance(item, ast.DeclareDecl):
        return _symbol(a, item.name, item.span, S.Interface, item.kind.text)
    if not isinstance(item, ast.AgentDecl | ast.GraphDecl):
        return None
    kind = "agent" if isinstance(item, ast.AgentDecl) else "graph"
    top = _symbol(a, item.name, item.span, S.Class, kind)
    children: list[lsp.DocumentSymbol] = []
    top.children = children
    for stmt in item.body:
        if isinstance(stmt, ast.NodeDecl):
            children.append(_symbol(a, stmt.name, stmt.span, S.Function, "node"))
        elif isinstance(stmt, ast.StateStmt):
            children += [_symbol(a, f.name, f.span, S.Field, "channel") for f in stmt.fields]
    return top
