"""What the checker and the lowering share about one file: names, declarations, values.

Input: a `FileUnit`. Output: `Ctx`, with the file's type scope, declaration facts
(`decl_info`, read once per declaration and cached; the prelude's once per process), each
block's settings (`agent_settings`, `graph_settings`: read once per block, settings.py),
the `ValueEnv` used to check and convert values, and the `ImportRef` of a Python target.
Invariant: one `Ctx` per file and compile, shared by check and lower, so what it
caches (declarations, settings) is read once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import agentc.ir as ir

from ..dsl import ast
from ..dsl.diagnostics import Diagnostic
from .decls import DeclInfo, read_decl, span_ir
from .models import check_bare_factory, check_model_string
from .paths import PRELUDE_NAME
from .resolve import MISSING, PyTarget, prelude_unit, python_ref
from .settings import AgentSettings, GraphSettings, agent_settings, graph_settings
from .symbols import FileUnit, Symbol, SymbolKind
from .typecheck import ValueEnv
from .types import TypeScope


@lru_cache(maxsize=1)
def prelude_decls() -> dict[str, DeclInfo]:
    unit = prelude_unit()
    scope = TypeScope(frozenset())
    problems: list[Diagnostic] = []
    infos = {  # every middleware, router and template of the prelude
        s.name: read_decl(s.decl, scope, problems.append)
        for s in unit.symbols.values()
        if isinstance(s.decl, ast.DeclareDecl)
    }
    if problems:
        raise RuntimeError(
            f"the stdlib prelude is malformed: {problems[0].span}: {problems[0].message}"
        )
    return infos


def python_import(target: PyTarget) -> ir.ImportRef:
    """The ImportRef of `alias.attr`: a file path relative to the naming file, or dotted."""
    use = target.use
    is_file = not (not use.target.value.endswith(".py") and "/" not in use.target.value)
    return ir.ImportRef(
        module=use.target.value, attr=target.attr, is_file=is_file, span=span_ir(use.target.span)
    )


@dataclass
class Ctx:
    unit: FileUnit
    report: Callable[[Diagnostic], None]
    _decls: dict[tuple[str, str], DeclInfo] = field(default_factory=dict)
    # id(block) → (block, its settings); the block is kept so its id stays its own
    _agents: dict[int, tuple[ast.AgentDecl, AgentSettings]] = field(default_factory=dict)
    _graphs: dict[int, tuple[ast.GraphDecl, GraphSettings]] = field(default_factory=dict)

    @property
    def scope(self) -> TypeScope:
        return TypeScope(
            frozenset(n for n, s in self.unit.symbols.items() if s.kind is SymbolKind.SCHEMA)
        )

    def decl_info(
        self, sym: Symbol, report: Callable[[Diagnostic], None] | None = None
    ) -> DeclInfo:
        if sym.span.file == PRELUDE_NAME:
            return prelude_decls()[sym.name]
        key = (sym.span.file, sym.name)
        if key not in self._decls:
            assert isinstance(sym.decl, ast.DeclareDecl), sym
            self._decls[key] = read_decl(sym.decl, self.scope, report or (lambda d: None))
        return self._decls[key]

    def agent_settings(self, agent: ast.AgentDecl) -> AgentSettings:
        if id(agent) not in self._agents:
            self._agents[id(agent)] = (agent, agent_settings(agent))
        return self._agents[id(agent)][1]

    def graph_settings(self, graph: ast.GraphDecl) -> GraphSettings:
        if id(graph) not in self._graphs:
            self._graphs[id(graph)] = (graph, graph_settings(graph))
        return self._graphs[id(graph)][1]

    def value_env(self, unit: FileUnit | None = None) -> ValueEnv:
        unit = unit or self.unit
        return ValueEnv(
            check_ref=lambda r: _check_ref(unit, r),
            check_model=_check_model,
            ref_json=lambda r: _ref_json(unit, r),
            check_factory=lambda r: check_bare_factory(unit, r),
        )


def _check_ref(unit: FileUnit, ref: ast.Ref) -> list[Diagnostic]:
    found = python_ref(unit, ref)
    return [found] if isinstance(found, Diagnostic) else []


def _check_model(expr: ast.StringLit) -> list[Diagnostic]:
    return check_model_string(expr)


def _ref_json(unit: FileUnit, ref: ast.Ref) -> Any:
    found = python_ref(unit, ref)
    if isinstance(found, PyTarget):
        imp = python_import(found)
        return {"$import": imp.key, "is_file": imp.is_file}
    assert found is not MISSING
    return ref.dotted
