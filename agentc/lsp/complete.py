"""Completion in context: what may be written at the cursor.

Input: an analysed document (its index is the last text that parsed, so this works while
the line being typed is broken) and an offset. Output: completion items — statement
keywords for the block the cursor is in (file, agent, graph); middleware names inside
`middleware { }` and a middleware's parameters inside its `{ }`; node names after `edge`,
`->`, `route`, `interrupt before`; channel names after `when`; the functions and classes of
a `use`d Python module after `alias.`; model strings (`provider:name`, from the provider and
model-profile tables) inside a model's string; in a `test` block its statements, what
`expect` checks, `decide`'s answers and the matchers. The context is read from the raw text with
the bracket scanner syntax errors use (`dsl.scan`), since the text may not parse.
"""

from __future__ import annotations

import re
from functools import cache

from lsprotocol import types as lsp

from ..compiler.models import profiled_names, provider_table
from ..compiler.testblocks import DECISIONS, MATCHERS, SUBJECTS
from ..dsl import ast
from ..dsl.scan import scan
from . import python
from .analysis import Analysis
from .index import Kind

TOP = ("agentc", "use", "schema", "agent", "graph", "middleware", "router", "template", "test")
AGENT = ("model", "prompt", "tools", "output", "middleware", "state", "limits", "interrupt")
AGENT += ("checkpoint", "store", "trace", "context")
GRAPH = ("state", "node", "edge", "route", "hook", "interrupt", "limits", "checkpoint")
GRAPH += ("middleware", "output", "store", "trace", "context", "input")
TEST = ("agent", "model", "replay", "input", "decide", "expect")  # `test "…" { }`
_K = lsp.CompletionItemKind

_HEADER = re.compile(r"([A-Za-z_]\w*)(?:\s+([A-Za-z_]\w*))?\s*(?:\"[^\"\n]*\")?\s*$")
_NODE_SPOT = re.compile(
    r"(?:\bedge\s+(?:\[[\w\s,]*)?|->\s*\[?(?:[\w\s]*,\s*)*|\broute\s+|"
    r"\binterrupt\s+(?:before|after)\s+(?:\w+\s*,\s*)*|\bhook\s+\w+\s+)\w*$"
)
_WHEN = re.compile(r"\bwhen\s+(?:[^\n]*[\s(])?\w*$")
_DOTTED = re.compile(r"([A-Za-z_]\w*)\.(\w*)$")
_EXPECT = re.compile(r"^\s*expect\s+\w*$")
_EXPECT_VALUE = re.compile(r"^\s*expect\s+\w+\s+(?:.*[\s(\[{,:])?\w*$")
_DECIDE = re.compile(r"^\s*decide\s+\w*$")
_MODEL_STRING = re.compile(r"(?:\bmodel\s*\(?\s*|\bmodel:\s*)\"[^\"]*$")


def _items(names: list[str] | tuple[str, ...], kind: lsp.CompletionItemKind, detail: str = ""):
    return [lsp.CompletionItem(label=n, kind=kind, detail=detail or None) for n in names]


def complete(a: Analysis, offset: int) -> list[lsp.CompletionItem]:
    text = a.source.text
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[line_start:offset]
    if before.count('"') % 2 == 1:  # inside a string
        if _MODEL_STRING.search(before):
            return _items(model_strings(), _K.Value, "model")
        return []
    if "#" in before:
        return []
    dotted = _DOTTED.search(before)
    if dotted and (Kind.MODULE, "", dotted.group(1)) in a.index.symbols:
        found = python.names(a.module, a.base_dir, dotted.group(1))
        return [lsp.CompletionItem(label=n, kind=_K.Function, detail=sig) for n, sig in found]
    scope = a.index.scope_at(offset)
    if _WHEN.search(before):
        return _items(a.index.names(Kind.CHANNEL, scope), _K.Variable, "channel")
    if _NODE_SPOT.search(before):
        nodes = [*a.index.names(Kind.NODE, scope), "START", "END"]
        return _items(nodes, _K.Function, "node")
    in_test = _test_words(text, offset, before)
    return in_test if in_test is not None else _in_block(a, text, offset, before)


def _test_words(text: str, offset: int, before: str) -> list[lsp.CompletionItem] | None:
    """Inside a `test` block: its statements, `expect`'s subjects and matchers, `decide`'s
    answers; None elsewhere (the words are keywords only there)."""
    braces = [o for o in scan(text, 0, offset).open_brackets if text[o] == "{"]
    if not braces or _header(text, braces[0]) != ("test", None):
        return None
    if _EXPECT.search(before):
        return _items(SUBJECTS, _K.Keyword, "expect")
    if _DECIDE.search(before):
        return _items(DECISIONS, _K.EnumMember, "decision")
    if _EXPECT_VALUE.search(before):
        return _items(MATCHERS, _K.Function, "matcher")
    if len(braces) == 1 and re.fullmatch(r"\s*\w*", before):
        return _items(TEST, _K.Keyword)
    return []


def _in_block(a: Analysis, text: str, offset: int, before: str) -> list[lsp.CompletionItem]:
    opens = scan(text, 0, offset).open_brackets
    braces = [o for o in opens if text[o] == "{"]
    statement_start = bool(re.fullmatch(r"\s*\w*", before)) or bool(
        re.search(r"[{,]\s*\w*$", before)
    )
    if not braces:
        return _items(TOP, _K.Keyword) if statement_start else []
    inner = _header(text, braces[-1])
    outer = _header(text, braces[-2]) if len(braces) > 1 else None
    if inner == ("middleware", None) and statement_start:
        return _middleware_names(a)
    if outer == ("middleware", None) and inner is not None and inner[1] is None:
        return _params(a, inner[0]) if statement_start else []
    if inner is not None and inner[0] == "agent" and statement_start:
        return _items(AGENT, _K.Keyword)
    if inner is not None and inner[0] == "graph" and statement_start:
        return _items(GRAPH, _K.Keyword)
    return []


def _header(text: str, brace: int) -> tuple[str, str | None] | None:
    """The words before a `{`: (`agent`, `name`), (`middleware`, None), (`summarization`, None)."""
    line_start = text.rfind("\n", 0, brace) + 1
    m = _HEADER.search(text, line_start, brace)
    if m is None:
        return None
    first, second = m.group(1), m.group(2)
    if first in ("agent", "graph", "schema") and second is not None:
        return first, second
    return (second, None) if second is not None else (first, None)


def _middleware_names(a: Analysis) -> list[lsp.CompletionItem]:
    out = []
    for key, symbol in a.index.symbols.items():
        if key[0] is Kind.MIDDLEWARE and isinstance(symbol.decl, ast.DeclareDecl):
            doc = symbol.decl.doc.value if symbol.decl.doc is not None else None
            params = ", ".join(p.name.text for p in symbol.decl.params)
            out.append(
                lsp.CompletionItem(
                    label=key[2], kind=_K.Module, detail=f"middleware({params})", documentation=doc
                )
            )
    return out


def _params(a: Analysis, middleware: str) -> list[lsp.CompletionItem]:
    symbol = a.index.symbols.get((Kind.MIDDLEWARE, "", middleware))
    if symbol is None or not isinstance(symbol.decl, ast.DeclareDecl):
        return []
    return [
        lsp.CompletionItem(
            label=p.name.text,
            kind=_K.Property,
            insert_text=f"{p.name.text}: ",
            documentation=p.doc.value if p.doc is not None else None,
        )
        for p in symbol.decl.params
    ]


@cache
def model_strings() -> tuple[str, ...]:
    out: list[str] = []
    for provider in provider_table().providers:
        names = profiled_names(provider) or ()
        out += [f"{provider}:{n}" for n in names] or [f"{provider}:"]
    return tuple(out)
