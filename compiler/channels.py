"""A block's state channels with their types, and what a model node may write into one.

Input: the `state { … }` of a graph (or an agent, with the channels every agent has) and
the type scope of its file. Output: `StateView` — channel name → `Channel` (type, reducer
as written, declaration) — and the rules both the checker and the lowering apply to
channels: which `ir.AnswerKind` a model node's `into` channel takes (`answer_kind`), and
whether a child graph's channel may be mapped to a parent's (`assignable`).
Invariant: pure; unknown types were reported by the checker and read here as `any`.
"""

from __future__ import annotations

from collections.abc import Iterable

import agentc.ir as ir

from ..dsl import ast
from ..dsl.astclass import Record, record
from .resolve import PyTarget, python_ref
from .symbols import FileUnit, SymbolKind
from .types import ANY, NONE, STR, Ty, TyKind, TypeScope, resolve_type

CONVERSATION = "messages"  # the channel a model node reads and writes unless told
# Reducers that add one written value to a list channel (`append`) rather than replace it.
_ITEM_REDUCERS = ("append",)
# An agent's built-in channels as a parent graph sees them (B3, G1; jump_to is private).
AGENT_BUILTIN = {"messages": Ty(TyKind.MESSAGES), "structured_response": ANY}


@record
class Channel(Record):
    name: str
    ty: Ty
    reducer: str | None  # as written (`append`); None: last value wins (or add_messages)
    decl: ast.FieldDecl | None  # None: built into an agent


@record
class StateView(Record):
    channels: dict[str, Channel]
    complete: bool = True  # False: an agent whose middleware may add channels we cannot see

    def get(self, name: str) -> Channel | None:
        return self.channels.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self.channels


def unit_scope(unit: FileUnit) -> TypeScope:
    return TypeScope(frozenset(n for n, s in unit.symbols.items() if s.kind is SymbolKind.SCHEMA))


def state_view(scope: TypeScope, states: Iterable[ast.StateStmt | None]) -> StateView:
    """The channels of every `state` given (a repeated one too: already an error)."""
    out: dict[str, Channel] = {}
    for stmt in states:
        for f in stmt.fields if stmt is not None else ():
            if f.name.text not in out:
                ty = resolve_type(f.type, scope, lambda d: None)
                reducer = f.reducer.dotted if f.reducer is not None else None
                out[f.name.text] = Channel(f.name.text, ty, reducer, f)
    return StateView(out)


def agent_view(scope: TypeScope, agent: ast.AgentDecl) -> StateView:
    """An agent used as a node: its built-in channels and its `state`; middleware may add
    more (their state schemas), so a name not found is not known to be wrong."""
    states = [s for s in agent.body if isinstance(s, ast.StateStmt)]
    view = state_view(scope, states)
    builtin = {n: Channel(n, ty, None, None) for n, ty in AGENT_BUILTIN.items()}
    has_middleware = any(isinstance(s, ast.MiddlewareStmt) for s in agent.body)
    return StateView({**builtin, **view.channels}, complete=not has_middleware)


# ---------------------------------------------------------------- model answers


def answer_kind(ch: Channel, output: str | None) -> ir.AnswerKind | str:
    """The kind of answer a model node writes into `ch`, or why it cannot.

    Without `output`: a `messages` channel takes the AI message, a `str` (or `any`)
    channel its text.
    With `output` (the schema's name): the channel holds that schema, a map or `any`. A
    list channel with `reduce append` takes one item of its element type either way."""
    ty = ch.ty
    if ch.reducer in _ITEM_REDUCERS and ty.kind is TyKind.LIST:
        ty = ty.args[0]
    if output is not None:
        if _holds_structured(ty, output):
            return ir.AnswerKind.STRUCTURED
        return f"holds `{ch.ty.display()}`, not a `{output}`"
    if ty.kind is TyKind.MESSAGES:
        return ir.AnswerKind.MESSAGE
    if _holds(ty, STR) or ty == ANY:
        return ir.AnswerKind.TEXT
    return f"holds `{ch.ty.display()}`; a reply is text (`str`) or a message (`messages`)"


def _holds_structured(ty: Ty, schema: str) -> bool:
    return any(
        o == ANY or o.kind is TyKind.MAP or (o.kind is TyKind.SCHEMA and o.name == schema)
        for o in _options(ty)
    )


def _holds(ty: Ty, want: Ty) -> bool:
    return any(o == want for o in _options(ty))


def _options(ty: Ty) -> tuple[Ty, ...]:
    """A type's members, `none` left out (an optional channel holds the answer too)."""
    members = ty.args if ty.kind is TyKind.UNION else (ty,)
    return tuple(m for m in members if m != NONE)


# ---------------------------------------------------------------- subgraph maps


def assignable(source: Ty, target: Ty) -> bool:
    """May a value of type `source` be written into a channel of type `target`? Loose on
    purpose: only clearly different known types are refused (`int` into `messages`)."""
    if ANY in (source, target) or source == target:
        return True
    targets = _options(target) if target.kind is TyKind.UNION else (target,)
    sources = _options(source) if source.kind is TyKind.UNION else (source,)
    return all(any(_compatible(s, t) for t in targets) for s in sources)


def _compatible(s: Ty, t: Ty) -> bool:
    if ANY in (s, t) or s == t:
        return True
    if TyKind.LITERAL in (s.kind, t.kind):
        lit, other = (s, t) if s.kind is TyKind.LITERAL else (t, s)
        if other.kind is TyKind.LITERAL:
            return lit.value == other.value
        names = {str: "str", bool: "bool", int: "int", float: "float"}
        return other.kind is TyKind.PRIM and names.get(type(lit.value)) == other.name
    if s.kind is not t.kind:
        return False
    if s.kind in (TyKind.LIST, TyKind.MAP):
        return _compatible(s.args[0], t.args[0])
    if s.kind is TyKind.PRIM:
        return (s.name, t.name) == ("int", "float")
    if s.kind is TyKind.SCHEMA:
        return s.name == t.name
    return True  # messages, and the special types


# ---------------------------------------------------------------- schema fields


def schema_fields(unit: FileUnit, ref: ast.Expr) -> dict[str, Ty] | None:
    """The fields of a schema reference (a declared `schema` or a Python class), by name;
    None when it names no schema (the checker reported that)."""
    if not isinstance(ref, ast.Ref):
        return None
    if len(ref.parts) == 2 and ref.parts[0].text in unit.python:
        found = python_ref(unit, ref)
        if not isinstance(found, PyTarget) or found.cls is None:
            return None
        props = found.cls.json_schema().get("properties", {})
        return {name: ANY for name in props}
    sym = unit.symbols.get(ref.dotted)
    if sym is None or not isinstance(sym.decl, ast.SchemaDecl):
        return None
    scope = unit_scope(unit)
    return {f.name.text: resolve_type(f.type, scope, lambda d: None) for f in sym.decl.fields}


def declared_fields(unit: FileUnit, ty: Ty) -> dict[str, Ty] | None:
    """The fields of a channel's type when it is (optionally) one declared schema."""
    schemas = [o for o in _options(ty) if o.kind is TyKind.SCHEMA]
    if len(schemas) != 1 or len(_options(ty)) != 1:
        return None
    sym = unit.symbols.get(schemas[0].name)
    if sym is None or not isinstance(sym.decl, ast.SchemaDecl):
        return None
    scope = unit_scope(unit)
    return {f.name.text: resolve_type(f.type, scope, lambda d: None) for f in sym.decl.fields}
