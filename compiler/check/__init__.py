"""Semantic checks: every rule of meaning the grammar leaves open.

Input: a `FileUnit` from resolve, through its `Ctx`. Output: diagnostics; the AST is
untouched. `check_unit` runs every rule and never stops at the first problem. The rules:
common.py (language version, declarations, fields and state, output schemas, settings
maps), run_settings.py (limits, checkpoint, store, interrupts: both kinds of block),
agent.py with tools.py and middleware.py (`agent` blocks), graph.py with nodes.py,
model_node.py, subgraph_node.py, node_options.py, edges.py and graph_io.py (`graph`
blocks; `context` of both), secrets.py (credentials written wherever configuration is).
Structural graph checks (reachability, a path to END) run later, on the lowered IR
(structure.py).
Invariant: the AST is never changed; no rule stops the others.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...dsl import ast
from ...dsl.diagnostics import Diagnostic
from ..context import Ctx
from .agent import check_agent
from .common import check_declaration, check_fields, check_version
from .graph import check_graph
from .secrets import check_secrets


def check_unit(ctx: Ctx) -> Iterator[Diagnostic]:
    yield from check_version(ctx.unit.module)
    yield from check_secrets(ctx.unit.module)
    for schema in ctx.unit.items(ast.SchemaDecl):
        yield from check_fields(ctx, schema.fields, allow_reducers=False)
    for decl in ctx.unit.items(ast.DeclareDecl):
        yield from check_declaration(ctx, decl)
    for agent in ctx.unit.items(ast.AgentDecl):
        yield from check_agent(ctx, agent)
    for graph in ctx.unit.items(ast.GraphDecl):
        yield from check_graph(ctx, graph)


__all__ = ["check_unit"]
