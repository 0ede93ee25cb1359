"""Lowering: checked AST + symbols → `ir.Program`.

Input: the root `FileUnit` (and the units it uses) after resolve and check reported no
errors, and `ctx_for`, the pipeline's one `Ctx` per unit (so each block's settings are the
ones the checker read). Output: an `ir.Program` with the root's schemas and graphs in
declaration order, followed by every graph they reference from other files (qualified
`alias.name`). Invariant: runs only on error-free input, so it asserts instead of
reporting.

Choices the IR leaves open (see also ir/__init__.py's docstring):
- agent blocks (agent.py, middleware.py) become the graph create_agent builds
  (template.py); graph blocks (graph.py) their nodes, edges, branches and spliced hooks.
- graph-block nodes (nodes.py): model/tools nodes use the factories
  `agentc.stdlib.nodes:model_node` / `:tool_node`, agent/subgraph nodes
  `agentc.runtime.subgraph:subgraph_node`; `config` is the JSON of their typed config
  (`ir.ModelNodeConfig`, `ir.ToolNodeConfig`, `ir.SubgraphNodeConfig`, whose `graph` is
  the child's qualified name).
- reducers: `messages` channels get `agentc.stdlib.messages:add_messages`; `reduce append |
  merge | add` name `agentc.runtime.reducers:<name>`; `replace` is last-value (None).
- settings a block does not write take the values in defaults.py.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import agentc.ir as ir

from ...dsl import ast
from ..context import Ctx
from ..decls import span_ir
from ..symbols import FileUnit, use_alias
from .agent import lower_agent_block
from .common import Lowering, schema_specs
from .graph import lower_graph


def lower_program(root: FileUnit, ctx_for: Callable[[FileUnit], Ctx]) -> ir.Program:
    low = Lowering(ctx_for)
    ctx = ctx_for(root)
    for spec in schema_specs(ctx):
        low.schemas[spec.name] = spec
    for item in root.module.items:
        if isinstance(item, (ast.AgentDecl, ast.GraphDecl)):
            low.graphs[item.name.text] = _lower_item(low, ctx, item)
    while low.pending:
        target = low.pending.pop(0)
        if target.qualified not in low.graphs:
            decl = target.symbol.decl
            assert isinstance(decl, (ast.AgentDecl, ast.GraphDecl)), decl
            low.graphs[target.qualified] = _lower_item(low, ctx_for(target.unit), decl)
    version = root.module.version.version if root.module.version else 1
    return ir.Program(
        language_version=version,
        source=ir.SourceRef(
            file=root.name, sha256=hashlib.sha256(root.source.text.encode("utf-8")).hexdigest()
        ),
        modules=[_module_spec(u) for u in root.items(ast.UseDecl)],
        schemas=list(low.schemas.values()),
        graphs=list(low.graphs.values()),
    )


def _module_spec(use: ast.UseDecl) -> ir.ModuleSpec:
    target = use.target.value
    if "://" in target:  # resolve accepted only http(s) URLs (A10)
        return ir.ModuleSpec(
            alias=use_alias(use),
            target=target,
            kind=ir.ModuleKind.MCP,
            is_file=False,
            span=span_ir(use.span),
        )
    kind = ir.ModuleKind.AGENT if target.endswith(".agent") else ir.ModuleKind.PYTHON
    is_file = target.endswith((".py", ".agent")) or "/" in target
    return ir.ModuleSpec(
        alias=use_alias(use), target=target, kind=kind, is_file=is_file, span=span_ir(use.span)
    )


def _lower_item(low: Lowering, ctx: Ctx, item: ast.AgentDecl | ast.GraphDecl) -> ir.Graph:
    name = ctx.unit.qualify(item.name.text)
    if isinstance(item, ast.GraphDecl):
        return lower_graph(low, ctx, item, name)
    return lower_agent_block(low, ctx, item, name)


__all__ = ["lower_program"]
