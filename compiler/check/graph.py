"""Checks of one `graph { … }` block before it is lowered.

Input: `Ctx` and an `ast.GraphDecl` (its settings read once by `Ctx.graph_settings`).
Output: diagnostics for settings written twice, node declarations (nodes.py) and their
options (node_options.py), edges, joins and routes (edges.py), hooks (hooks.py),
interrupts, state, `context` / `input` / `output` (graph_io.py), limits, checkpoint, store
and misplaced statements. Reachability and the path to END are checked after lowering
(structure.py).
Invariant: the AST is only read; every rule reports and carries on.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, error
from ..channels import StateView, state_view
from ..context import Ctx
from ..settings import GRAPH_SETTING_KEYS, INPUT, GraphSettings, duplicate_settings
from ..suggest import did_you_mean
from .common import check_fields
from .edges import Nodes, check_edge, check_join, check_route, check_when_groups, node_exists
from .graph_io import check_channel_list, check_context, check_output_stmt
from .hooks import check_hook, check_hook_bypass
from .node_options import check_node_options
from .nodes import check_nodes
from .run_settings import (
    check_checkpoint,
    check_interrupt_checkpointer,
    check_interrupt_words,
    check_limits,
    check_store,
)
from .trace import check_trace


def check_graph(ctx: Ctx, graph: ast.GraphDecl) -> Iterator[Diagnostic]:
    settings = ctx.graph_settings(graph)
    yield from duplicate_settings(settings.repeated)
    view = _state(ctx, settings)
    nodes = yield from check_nodes(ctx, settings.nodes, view)
    for node in nodes.values():
        yield from check_node_options(ctx, node.options, nodes)
    for stmt in graph.body:  # every statement as written, a repeated one too
        yield from _check_stmt(ctx, stmt, nodes, view)
    yield from check_when_groups(settings.edges)
    yield from check_hook_bypass(settings.hooks, nodes, settings.routes)
    if not any(e.source.text == "START" for e in settings.edges):
        yield error(
            Code.NO_ENTRY,
            f"graph `{graph.name.text}` has no entry edge",
            graph.name.span,
            "nothing runs first",
            help="add `edge START -> <first node>`",
        )
    if settings.store is not None:
        yield from check_store(settings.store)  # I1
    if settings.trace is not None:
        yield from check_trace(settings.trace)
    yield from check_interrupt_checkpointer(settings.interrupts, settings.checkpoint)


def _state(ctx: Ctx, settings: GraphSettings) -> StateView:
    """The graph's channels. A repeated `state` (already an error) counts too, so its
    channels are not reported a second time as unknown."""
    states = [settings.state, *(r.again for r in settings.repeated)]
    return state_view(ctx.scope, [s for s in states if isinstance(s, ast.StateStmt)])


def _check_stmt(
    ctx: Ctx, stmt: ast.GraphStmt, nodes: Nodes, view: StateView
) -> Iterator[Diagnostic]:
    fields = set(view.channels)
    if isinstance(stmt, ast.StateStmt):
        yield from check_fields(ctx, stmt.fields, allow_reducers=True)
    elif isinstance(stmt, ast.EdgeDecl):
        yield from check_edge(ctx, stmt, nodes, fields, view)
    elif isinstance(stmt, ast.JoinDecl):
        yield from check_join(stmt, nodes)
    elif isinstance(stmt, ast.RouteDecl):
        yield from check_route(ctx, stmt, nodes)
    elif isinstance(stmt, ast.HookDecl):
        yield from check_hook(ctx, stmt, nodes)
    elif isinstance(stmt, ast.InterruptStmt):
        yield from check_interrupt_words(stmt)
        for n in stmt.nodes:
            yield from node_exists(n, nodes)
    elif isinstance(stmt, ast.LimitsStmt):
        yield from check_limits(stmt)
    elif isinstance(stmt, ast.CheckpointStmt):
        yield from check_checkpoint(stmt, ctx.unit)
    elif isinstance(stmt, ast.OutputStmt):
        yield from check_output_stmt(stmt, view)
    elif isinstance(stmt, ast.MiddlewareStmt):
        yield error(
            Code.UNKNOWN_PARAM,
            "graphs take no `middleware` block",
            stmt.span,
            "middleware belongs to agent blocks",
            help="use `hook before <node> = python(…)` in a graph",
        )
    elif isinstance(stmt, ast.SettingStmt):
        yield from _check_setting(ctx, stmt, view)


def _check_setting(ctx: Ctx, stmt: ast.SettingStmt, view: StateView) -> Iterator[Diagnostic]:
    key = stmt.key.text
    if key == "context":
        yield from check_context(ctx, stmt)
    elif key == INPUT:
        yield from check_channel_list(INPUT, stmt.value, view)
    elif key not in GRAPH_SETTING_KEYS:  # the store and trace: check_store, check_trace
        yield error(
            Code.UNKNOWN_SETTING,
            f"graphs have no setting `{key}`",
            stmt.key.span,
            "unknown setting",
            help=did_you_mean(key, [*GRAPH_SETTING_KEYS, "output"]),
        )
