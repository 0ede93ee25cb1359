"""Checks of one `graph { … }` block before it is lowered.

Input: `Ctx` and an `ast.GraphDecl` (its settings read once by `Ctx.graph_settings`).
Output: diagnostics for settings written twice, node declarations (nodes.py), edges
(unknown endpoints, START/END misuse, `when` groups without an `otherwise`), routes
(router, labels), hooks, interrupts, state, limits, checkpoint, store and misplaced
statements. Reachability and the path to END are checked after lowering (structure.py).
Invariant: the AST is only read; every rule reports and carries on.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator

import agentc.ir as ir

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ..context import Ctx
from ..resolve import declaration, python_ref
from ..settings import BOUNDARY, STORE, GraphSettings, duplicate_settings, when_groups
from ..suggest import did_you_mean
from ..symbols import SymbolKind
from ..typecheck import describe
from .common import check_config, check_fields
from .nodes import Nodes, check_nodes, check_python_call
from .run_settings import (
    check_checkpoint,
    check_interrupt_checkpointer,
    check_interrupt_words,
    check_limits,
    check_store,
)

HOOK_WORDS = ("before", "after")
GRAPH_HOOK_POINTS = tuple(p.value for p in ir.HookPoint)


def check_graph(ctx: Ctx, graph: ast.GraphDecl) -> Iterator[Diagnostic]:
    settings = ctx.graph_settings(graph)
    yield from duplicate_settings(settings.repeated)
    nodes = yield from check_nodes(ctx, settings.nodes)
    fields = _state_fields(settings)
    for stmt in graph.body:  # every statement as written, a repeated one too
        yield from _check_stmt(ctx, stmt, nodes, fields)
    yield from check_when_groups(settings.edges)
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
    yield from check_interrupt_checkpointer(settings.interrupts, settings.checkpoint)


def _state_fields(settings: GraphSettings) -> set[str]:
    """The channels a condition may read. A repeated `state` (already an error) counts
    too, so its channels are not reported a second time as unknown."""
    states = [settings.state, *(r.again for r in settings.repeated)]
    return {f.name.text for s in states if isinstance(s, ast.StateStmt) for f in s.fields}


def _check_stmt(
    ctx: Ctx, stmt: ast.GraphStmt, nodes: Nodes, fields: set[str]
) -> Iterator[Diagnostic]:
    if isinstance(stmt, ast.StateStmt):
        yield from check_fields(ctx, stmt.fields, allow_reducers=True)
    elif isinstance(stmt, ast.EdgeDecl):
        yield from check_edge(ctx, stmt, nodes, fields)
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
        yield from check_checkpoint(stmt)
    elif isinstance(stmt, ast.MiddlewareStmt):
        yield error(
            Code.UNKNOWN_PARAM,
            "graphs take no `middleware` block",
            stmt.span,
            "middleware belongs to agent blocks",
            help="use `hook before <node> = python(…)` in a graph",
        )
    elif isinstance(stmt, ast.SettingStmt) and stmt.key.text != STORE:
        yield error(
            Code.UNKNOWN_SETTING,
            f"graphs have no setting `{stmt.key.text}`",
            stmt.key.span,
            "unknown setting",
        )


# ---------------------------------------------------------------- edges and routes


def node_exists(
    name: ast.Name, nodes: Nodes, *, boundary: str | None = None
) -> Iterator[Diagnostic]:
    if name.text in nodes or (boundary is not None and name.text == boundary):
        return
    if name.text in BOUNDARY:
        where = (
            "START can only begin an edge" if name.text == "START" else "END can only end an edge"
        )
        yield error(Code.BAD_EDGE, f"`{name.text}` cannot be used here", name.span, where)
        return
    candidates = list(nodes) + ([boundary] if boundary else [])
    near = did_you_mean(name.text, candidates)
    secondary: tuple[Label, ...] = ()
    if near:
        target = nodes.get(near.split("`")[1])
        if target is not None:
            secondary = (Label(target.name.span, "a similar name is declared here"),)
    yield error(
        Code.UNKNOWN_NODE,
        f"`{name.text}` is not a node of this graph",
        name.span,
        "unknown node",
        secondary=secondary,
        help=near,
    )


def check_edge(
    ctx: Ctx, edge: ast.EdgeDecl, nodes: Nodes, fields: set[str]
) -> Iterator[Diagnostic]:
    yield from node_exists(edge.source, nodes, boundary="START")
    for target in edge.targets:
        yield from node_exists(target, nodes, boundary="END")
    if edge.condition is not None:
        if len(edge.targets) != 1:
            yield error(
                Code.BAD_EDGE,
                "a `when` edge has one target",
                edge.span,
                "several targets",
                help="write one `edge … when …` per target",
            )
        yield from check_condition(ctx, edge.condition, fields)


def check_condition(ctx: Ctx, cond: ast.Expr, fields: set[str]) -> Iterator[Diagnostic]:
    if isinstance(cond, ast.BinaryOp):
        yield from check_condition(ctx, cond.left, fields)
        yield from check_condition(ctx, cond.right, fields)
    elif isinstance(cond, ast.UnaryOp):
        yield from check_condition(ctx, cond.operand, fields)
    elif isinstance(cond, ast.ListLit):
        for item in cond.items:
            yield from check_condition(ctx, item, fields)
    elif isinstance(cond, ast.Ref):
        head = cond.parts[0].text
        if head in fields:
            return
        if head in ctx.unit.python and len(cond.parts) == 2:
            found = python_ref(ctx.unit, cond)  # a predicate function of the state
            if isinstance(found, Diagnostic):
                yield found
            return
        yield error(
            Code.UNKNOWN_FIELD,
            f"the state has no channel `{head}`",
            cond.parts[0].span,
            "unknown channel",
            help=did_you_mean(head, fields),
        )
    elif isinstance(cond, (ast.Call, ast.MapLit)):
        yield error(
            Code.TYPE_MISMATCH,
            f"{describe(cond)} cannot be a condition",
            cond.span,
            "expected channels, literals and comparisons",
        )


def check_when_groups(edges: Iterable[ast.EdgeDecl]) -> Iterator[Diagnostic]:
    for source, group in when_groups(edges).items():
        whens = [e for e in group if e.condition is not None]
        others = [e for e in group if e.otherwise]
        if whens and not others:
            yield error(
                Code.MISSING_OTHERWISE,
                f"`when` edges out of `{source}` have no `otherwise`",
                whens[0].span,
                "if no condition holds, the run would stop here",
                help=f"add `edge {source} -> <node> otherwise`",
            )
        if others and not whens:
            yield error(
                Code.BAD_EDGE,
                f"`otherwise` out of `{source}` has no `when`",
                others[0].span,
                "nothing to be otherwise to",
                help="make it a plain edge, or add `when` edges beside it",
            )
        for extra in others[1:]:
            yield error(
                Code.BAD_EDGE,
                f"`{source}` has two `otherwise` edges",
                extra.span,
                "second otherwise",
                secondary=(Label(others[0].span, "first here"),),
            )


def check_route(ctx: Ctx, route: ast.RouteDecl, nodes: Nodes) -> Iterator[Diagnostic]:
    yield from node_exists(route.source, nodes)
    labels = yield from check_router(ctx, route.router)
    for case in route.cases:
        yield from node_exists(case.target, nodes, boundary="END")
        if labels is not None and case.label.text not in labels:
            yield error(
                Code.UNKNOWN_ROUTE_LABEL,
                f"the router never returns `{case.label.text}`",
                case.label.span,
                "unknown label",
                notes=("it returns: " + ", ".join(labels),),
                help=did_you_mean(case.label.text, labels),
            )


def check_router(
    ctx: Ctx, router: ast.Ref | ast.Call
) -> Generator[Diagnostic, None, tuple[str, ...] | None]:
    """Yields diagnostics; returns the router's declared labels (None: any label)."""
    ref = router.callee if isinstance(router, ast.Call) else router
    sym = declaration(ctx.unit, ref, SymbolKind.ROUTER)
    if sym is not None:
        info = ctx.decl_info(sym)
        config = None
        if isinstance(router, ast.Call) and router.args:
            entries = tuple(
                ast.MapEntry(key=a.name, value=a.value, span=a.span)
                for a in router.args
                if a.name is not None
            )
            config = ast.MapLit(entries=entries, span=router.span)
        yield from check_config(ctx, info, config, ref.span, ref.dotted)
        return info.labels or None
    if len(ref.parts) == 2 and ref.parts[0].text in ctx.unit.python:
        found = python_ref(ctx.unit, ref)
        if isinstance(found, Diagnostic):
            yield found
        return None
    yield error(
        Code.UNKNOWN_ROUTER,
        f"unknown router `{ref.dotted}`",
        ref.span,
        "not a declared router or a Python function",
        help=did_you_mean(ref.dotted, ctx.unit.names_of(SymbolKind.ROUTER)),
    )
    return None


def check_hook(ctx: Ctx, hook: ast.HookDecl, nodes: Nodes) -> Iterator[Diagnostic]:
    point = hook.point.text
    if hook.target is not None:
        if point not in HOOK_WORDS:
            yield error(
                Code.BAD_HOOK_POINT,
                f"`hook {point} <node>` is not a hook point",
                hook.point.span,
                "expected before or after",
                help=did_you_mean(point, HOOK_WORDS),
            )
        yield from node_exists(hook.target, nodes)
    elif point not in GRAPH_HOOK_POINTS:
        yield error(
            Code.BAD_HOOK_POINT,
            f"unknown hook point `{point}`",
            hook.point.span,
            "not a hook point",
            help=did_you_mean(point, GRAPH_HOOK_POINTS + HOOK_WORDS),
        )
    call = hook.value
    if call.callee.dotted != "python":
        yield error(
            Code.BAD_NODE, "a hook runs `python(module.function)`", call.span, "expected python(…)"
        )
    else:
        yield from check_python_call(ctx, call)
