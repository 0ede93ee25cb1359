"""What each name in a file is: the declarations and every use of them, for the editor.

Input: a parsed `ast.Module` (and the prelude's, for built-in middleware). Output: `Index`
— symbols (agents, graphs, schemas, declared middleware/routers/templates, `use` aliases,
and per agent or graph its nodes and state channels), and every occurrence of each (the
declaration and the references: edge ends, routes, interrupts, hooks, channel names in
conditions and arguments, refs to top-level names, types naming schemas). Go-to-definition,
references, rename, document symbols and semantic tokens read it.
Invariant: built from the AST only; nothing is resolved on disk here.
"""

from __future__ import annotations

import bisect
import dataclasses
import enum
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..dsl import ast
from ..dsl.astclass import Node
from ..dsl.source import Span


class Kind(enum.StrEnum):
    AGENT = "agent"
    GRAPH = "graph"
    SCHEMA = "schema"
    MIDDLEWARE = "middleware"
    ROUTER = "router"
    TEMPLATE = "template"
    MODULE = "module"
    NODE = "node"
    CHANNEL = "channel"


TOP_LEVEL = (Kind.AGENT, Kind.GRAPH, Kind.SCHEMA, Kind.MIDDLEWARE, Kind.ROUTER, Kind.TEMPLATE)
BUILT_IN_NODES = frozenset({"START", "END"})
_DECL_KINDS = {"middleware": Kind.MIDDLEWARE, "router": Kind.ROUTER, "template": Kind.TEMPLATE}

Decl = (
    ast.UseDecl
    | ast.SchemaDecl
    | ast.AgentDecl
    | ast.GraphDecl
    | ast.DeclareDecl
    | ast.FieldDecl
    | ast.NodeDecl
)
Key = tuple[Kind, str, str]  # (kind, scope: the agent or graph, or "" at top level, name)


@dataclass(frozen=True, slots=True)
class Symbol:
    key: Key
    span: Span  # the name where it is declared
    decl: Decl

    @property
    def kind(self) -> Kind:
        return self.key[0]

    @property
    def name(self) -> str:
        return self.key[2]


@dataclass(frozen=True, slots=True)
class Occurrence:
    key: Key
    span: Span
    is_def: bool


@dataclass
class Index:
    symbols: dict[Key, Symbol] = field(default_factory=dict)
    occurrences: list[Occurrence] = field(default_factory=list)
    scopes: list[tuple[Span, str]] = field(default_factory=list)  # agent/graph body spans
    _starts: list[int] = field(default_factory=list)

    def finish(self) -> None:
        self.occurrences.sort(key=lambda o: o.span.start.offset)
        self._starts = [o.span.start.offset for o in self.occurrences]

    def at(self, offset: int) -> Occurrence | None:
        """The occurrence under `offset` (its end counts: the cursor just after a word)."""
        i = bisect.bisect_right(self._starts, offset) - 1
        if i >= 0 and offset <= self.occurrences[i].span.end.offset:
            return self.occurrences[i]
        return None

    def of(self, key: Key) -> list[Occurrence]:
        return [o for o in self.occurrences if o.key == key]

    def scope_at(self, offset: int) -> str:
        for span, name in self.scopes:
            if span.start.offset <= offset <= span.end.offset:
                return name
        return ""

    def names(self, kind: Kind, scope: str = "") -> list[str]:
        return [k[2] for k in self.symbols if k[0] is kind and k[1] == scope]


def children(node: Node) -> Iterator[Node]:
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            yield from (v for v in value if isinstance(v, Node))


def walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(children(current))))


def build_index(module: ast.Module, prelude: ast.Module | None = None) -> Index:
    index = Index()
    for item in prelude.items if prelude is not None else ():
        if isinstance(item, ast.DeclareDecl):
            _define(index, (_DECL_KINDS[item.kind.text], "", item.name.text), item.name, item)
    index.occurrences.clear()  # the prelude's own occurrences are in another file
    for item in module.items:
        _declare_top(index, item)
    for item in module.items:
        _refs_in(index, item)
    index.finish()
    return index


def _define(index: Index, key: Key, name: ast.Name, decl: Decl) -> None:
    index.symbols.setdefault(key, Symbol(key, name.span, decl))
    index.occurrences.append(Occurrence(key, name.span, True))


def _declare_top(index: Index, item: ast.Item) -> None:
    if isinstance(item, ast.UseDecl):
        if item.alias is not None:
            _define(index, (Kind.MODULE, "", item.alias.text), item.alias, item)
    elif isinstance(item, ast.SchemaDecl):
        _define(index, (Kind.SCHEMA, "", item.name.text), item.name, item)
    elif isinstance(item, ast.AgentDecl | ast.GraphDecl):
        kind = Kind.AGENT if isinstance(item, ast.AgentDecl) else Kind.GRAPH
        scope = item.name.text
        _define(index, (kind, "", scope), item.name, item)
        index.scopes.append((item.span, scope))
        for stmt in item.body:
            if isinstance(stmt, ast.StateStmt):
                for f in stmt.fields:
                    _define(index, (Kind.CHANNEL, scope, f.name.text), f.name, f)
            elif isinstance(stmt, ast.NodeDecl):
                _define(index, (Kind.NODE, scope, stmt.name.text), stmt.name, stmt)
    elif isinstance(item, ast.DeclareDecl):
        kind = _DECL_KINDS.get(item.kind.text)
        if kind is not None:
            _define(index, (kind, "", item.name.text), item.name, item)


def _node_names(stmt: Node) -> tuple[ast.Name, ...]:
    """The names of nodes a graph statement mentions (edge ends, routes, interrupts)."""
    if isinstance(stmt, ast.EdgeDecl):
        return (stmt.source, *stmt.targets)
    if isinstance(stmt, ast.JoinDecl):
        return (*stmt.sources, *stmt.targets)
    if isinstance(stmt, ast.RouteDecl):
        return (stmt.source, *(c.target for c in stmt.cases), *(stmt.targets or ()))
    if isinstance(stmt, ast.InterruptStmt):
        return stmt.nodes
    if isinstance(stmt, ast.HookDecl) and stmt.target is not None:
        return (stmt.target,)
    return ()


def _refs_in(index: Index, item: ast.Item) -> None:
    scope = item.name.text if isinstance(item, ast.AgentDecl | ast.GraphDecl) else ""
    for node in walk(item):
        if isinstance(node, ast.Ref):
            _ref(index, node, scope)
        else:
            for name in _node_names(node):
                key = (Kind.NODE, scope, name.text)
                if key in index.symbols:
                    index.occurrences.append(Occurrence(key, name.span, False))


def _ref(index: Index, ref: ast.Ref, scope: str) -> None:
    head = ref.parts[0]
    channel = (Kind.CHANNEL, scope, head.text)
    if len(ref.parts) == 1 and channel in index.symbols:
        index.occurrences.append(Occurrence(channel, head.span, False))
        return
    for kind in (Kind.MODULE, *TOP_LEVEL):
        key = (kind, "", head.text)
        if key in index.symbols:
            index.occurrences.append(Occurrence(key, head.span, False))
            return
