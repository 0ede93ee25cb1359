"""Symbol tables: what each top-level name of a file refers to.

Input: a parsed `ast.Module` (and, for `use`s, the scanned Python modules and loaded
`.agent` files). Output: `FileUnit`, one per loaded `.agent` file: its source, AST, the
table of its top-level names (`use` aliases, schemas, agents, graphs, declared middleware,
routers and templates) and links to what it uses, with the prelude's names visible below
the file's own. Invariant: the AST is never annotated in place; tables are built once and
read by the later passes.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..dsl import ast
from ..dsl.astclass import Record, record
from ..dsl.source import SourceFile, Span
from .pyscan import PyModule


class SymbolKind(str, enum.Enum):
    PYTHON = "python module"
    AGENT_FILE = "agent file"
    MCP_SERVER = "MCP server"
    SCHEMA = "schema"
    AGENT = "agent"
    GRAPH = "graph"
    MIDDLEWARE = "middleware"
    ROUTER = "router"
    TEMPLATE = "template"


DECL_KINDS = {
    "middleware": SymbolKind.MIDDLEWARE,
    "router": SymbolKind.ROUTER,
    "template": SymbolKind.TEMPLATE,
}


@record
class Symbol(Record):
    name: str
    kind: SymbolKind
    span: Span  # the name as declared
    decl: ast.Item


@dataclass
class FileUnit:
    """One loaded `.agent` file and its names; `prefix` qualifies its graphs (`shared.`)."""

    name: str
    path: Path | None
    source: SourceFile
    module: ast.Module
    prefix: str = ""
    symbols: dict[str, Symbol] = field(default_factory=dict)
    python: dict[str, PyModule | None] = field(default_factory=dict)  # alias → scan (None: missing)
    agent_files: dict[str, FileUnit | None] = field(default_factory=dict)
    mcp: dict[str, str] = field(default_factory=dict)  # alias → MCP server URL (A10)
    prelude: FileUnit | None = None

    @property
    def base_dir(self) -> Path:
        return self.path.parent if self.path is not None else Path.cwd()

    def lookup(self, name: str) -> Symbol | None:
        sym = self.symbols.get(name)
        if sym is None and self.prelude is not None:
            sym = self.prelude.symbols.get(name)
        return sym

    def names_of(self, *kinds: SymbolKind) -> Iterator[str]:
        """Lazily: a suggestion past the check's budget never walks the names."""
        yield from (s.name for s in self.symbols.values() if s.kind in kinds)
        if self.prelude is not None:
            yield from (s.name for s in self.prelude.symbols.values() if s.kind in kinds)

    def items(self, cls: type) -> Iterable:
        return (i for i in self.module.items if isinstance(i, cls))

    def qualify(self, name: str) -> str:
        return f"{self.prefix}{name}"


def item_kind(item: ast.Item) -> SymbolKind:
    if isinstance(item, ast.SchemaDecl):
        return SymbolKind.SCHEMA
    if isinstance(item, ast.AgentDecl):
        return SymbolKind.AGENT
    if isinstance(item, ast.GraphDecl):
        return SymbolKind.GRAPH
    if isinstance(item, ast.DeclareDecl):
        return DECL_KINDS.get(item.kind.text, SymbolKind.MIDDLEWARE)
    target = item.target.value
    if "://" in target:
        return SymbolKind.MCP_SERVER
    return SymbolKind.AGENT_FILE if target.endswith(".agent") else SymbolKind.PYTHON


def use_alias(use: ast.UseDecl) -> str:
    """The name a `use` binds: its alias, else the file stem or last dotted part."""
    if use.alias is not None:
        return use.alias.text
    target = use.target.value.rstrip("/")
    last = target.rsplit("/", 1)[-1]
    for suffix in (".agent", ".py"):
        if last.endswith(suffix):
            return last[: -len(suffix)]
    return last.rsplit(".", 1)[-1]
