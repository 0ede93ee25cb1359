"""Lowering of a hand-built `graph { … }` block into an `ir.Graph`.

Input: a checked `ast.GraphDecl` and its settings (`Ctx.graph_settings`). Output: nodes,
static edges (fan-out: one edge per target), joins (`edge [a, b] -> c`), `when` branches
(conditions as `ir.Condition`), router branches (a target list: `routes` maps each node
to itself and `sends` is set), hooks spliced in as python nodes (below), interrupts,
limits and checkpoint (defaults.py when not written), the store, the run-context schema
and the `input` / `output` flags of each channel. Nodes are lowered by nodes.py.

`hook before X = python(f)` becomes a python node `f.before_X` spliced in front of X (every
edge, join and label route into X now enters the hook node, which flows into X; a route
with a target list and `goto` lists name X itself, so the checker refuses a hook in front
of a node they name: check/hooks.py), marked with
`NodeSpec.hook`; `hook after X` a node `f.after_X` between X and X's successors. A
`before_model`/`after_model` hook without a node applies to every model node,
`before_agent`/`after_agent` sit after START / before END; `wrap_model_call` /
`wrap_tool_call` hooks go in the model/tools nodes' `config["wrap"]`.
Invariant: runs on checked input only, so it asserts instead of reporting; the
IR is built by value (`model_copy`), never changed in place.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal, get_args

import agentc.ir as ir

from ...dsl import ast
from ..channels import state_view
from ..context import Ctx, python_import
from ..decls import span_ir
from ..resolve import PyTarget, declaration, python_ref
from ..settings import BOUNDARY, GraphSettings, when_groups
from ..symbols import SymbolKind
from ..typecheck import is_literal, to_json
from .common import (
    Lowering,
    channels,
    checkpoint_spec,
    context_schema,
    interrupt_specs,
    limits_spec,
    store_spec,
    trace_spec,
)
from .nodes import lower_node, python_target

CompareOp = Literal["==", "!=", "<", "<=", ">", ">=", "in"]  # as `ir.CompareCond.op`
_COMPARE_OPS: dict[str, CompareOp] = {op: op for op in get_args(CompareOp)}


def lower_graph(low: Lowering, ctx: Ctx, decl: ast.GraphDecl, name: str) -> ir.Graph:
    s = ctx.graph_settings(decl)
    view = state_view(ctx.scope, [s.state])
    edges = [
        ir.EdgeSpec(source=_end(e.source.text), target=_end(t.text), span=span_ir(e.span))
        for e in s.edges
        if e.condition is None and not e.otherwise
        for t in e.targets
    ]
    branches = list(_when_branches(ctx, s.edges)) + [_route(ctx, r) for r in s.routes]
    graph = ir.Graph(
        name=name,
        kind=ir.GraphKind.GRAPH,
        state=_io_flags(channels(ctx, s.state), s),
        nodes=[lower_node(low, ctx, n, view) for n in s.nodes],
        edges=edges,
        joins=[_join(j) for j in s.joins],
        branches=branches,
        interrupts=interrupt_specs(s.interrupts),
        limits=limits_spec(s.limits, ir.GraphKind.GRAPH),
        checkpoint=checkpoint_spec(s.checkpoint, ctx.unit),
        store=store_spec(s.store),
        trace=trace_spec(s.trace),
        context=context_schema(low, ctx, s.context),
        doc=decl.doc.value if decl.doc else None,
        span=span_ir(decl.span),
    )
    for hook in s.hooks:
        graph = _splice_hook(ctx, graph, hook)
    return graph


def _end(name: str) -> str:
    return BOUNDARY.get(name, name)


def _io_flags(state: list[ir.ChannelSpec], s: GraphSettings) -> list[ir.ChannelSpec]:
    """`input [..]` / `output [..]`: listed channels True, the others False (A5)."""
    inputs = _listed(s.input.value) if s.input is not None else None
    outputs = _listed(s.output.schema) if s.output is not None else None
    return [
        c.model_copy(
            update={
                "input": c.input if inputs is None else c.name in inputs,
                "output": c.output if outputs is None else c.name in outputs,
            }
        )
        for c in state
    ]


def _listed(value: ast.Expr) -> set[str]:
    assert isinstance(value, ast.ListLit), value
    return {i.dotted for i in value.items if isinstance(i, ast.Ref)}


def _join(join: ast.JoinDecl) -> ir.JoinSpec:
    return ir.JoinSpec(
        sources=[n.text for n in join.sources],
        target=_end(join.targets[0].text),
        span=span_ir(join.span),
    )


# ---------------------------------------------------------------- branches


def _when_branches(ctx: Ctx, edges: Iterable[ast.EdgeDecl]) -> Iterator[ir.BranchSpec]:
    for source, group in when_groups(edges).items():
        ordered = [e for e in group if not e.otherwise] + [e for e in group if e.otherwise]
        cases = [
            ir.BranchCase(
                condition=None if e.otherwise else _condition_of(ctx, e),
                target=_end(e.targets[0].text),
                span=span_ir(e.span),
            )
            for e in ordered
        ]
        yield ir.BranchSpec(
            source=source,
            kind=ir.BranchKind.WHEN,
            cases=cases,
            label="when",
            span=span_ir(group[0].span.cover(group[-1].span)),
        )


def _condition_of(ctx: Ctx, edge: ast.EdgeDecl) -> ir.Condition:
    assert edge.condition is not None, edge
    return condition(ctx, edge.condition)


def condition(ctx: Ctx, expr: ast.Expr) -> ir.Condition:
    if isinstance(expr, ast.BinaryOp) and expr.op in ("and", "or"):
        operands: list[ir.Condition] = []
        for side in (expr.left, expr.right):
            c = condition(ctx, side)
            operands.extend(c.operands if isinstance(c, ir.BoolCond) and c.kind == expr.op else [c])
        return ir.BoolCond(kind=expr.op, operands=operands)
    if isinstance(expr, ast.BinaryOp):
        return ir.CompareCond(
            op=_COMPARE_OPS[expr.op],
            left=condition(ctx, expr.left),
            right=condition(ctx, expr.right),
        )
    if isinstance(expr, ast.UnaryOp) and expr.op == "not":
        return ir.NotCond(operand=condition(ctx, expr.operand))
    if isinstance(expr, ast.Ref):
        head = expr.parts[0].text
        if head in ctx.unit.python and len(expr.parts) == 2:
            target = python_ref(ctx.unit, expr)
            if isinstance(target, PyTarget):
                return ir.PredicateCond(ref=python_import(target))
        return ir.FieldCond(name=head, path=[p.text for p in expr.parts[1:]])
    assert is_literal(expr), expr
    return ir.LiteralCond(value=to_json(expr))


def _route(ctx: Ctx, route: ast.RouteDecl) -> ir.BranchSpec:
    ref = route.router.callee if isinstance(route.router, ast.Call) else route.router
    config = {}
    if isinstance(route.router, ast.Call):
        config = {
            a.name.text: to_json(a.value, ctx.value_env())
            for a in route.router.args
            if a.name is not None
        }
    sym = declaration(ctx.unit, ref, SymbolKind.ROUTER)
    if sym is not None:
        router = ctx.decl_info(sym).impl
    else:
        target = python_ref(ctx.unit, ref)
        assert isinstance(target, PyTarget)
        router = python_import(target)
    if route.targets is not None:  # `[x, END]`: the router answers node names (or Sends)
        routes = {_end(t.text): _end(t.text) for t in route.targets}
    else:
        routes = {c.key: _end(c.target.text) for c in route.cases}  # a label as written
    return ir.BranchSpec(
        source=route.source.text,
        kind=ir.BranchKind.ROUTER,
        router=router,
        router_config=config,
        routes=routes,
        sends=route.targets is not None,
        label=ref.dotted,
        span=span_ir(route.span),
    )


# ---------------------------------------------------------------- hooks


def _splice_hook(ctx: Ctx, graph: ir.Graph, hook: ast.HookDecl) -> ir.Graph:
    target = python_target(ctx, hook.value)
    impl, span = python_import(target), span_ir(hook.span)
    point = hook.point.text
    if point in (ir.HookPoint.WRAP_MODEL_CALL.value, ir.HookPoint.WRAP_TOOL_CALL.value):
        kind = ir.NodeKind.MODEL if point == "wrap_model_call" else ir.NodeKind.TOOLS
        return _add_wrap(graph, kind, impl)
    if hook.target is not None:
        names = [hook.target.text]
    elif point in ("before_agent", "after_agent"):
        names = [ir.START] if point == "before_agent" else [ir.END]
    else:
        names = [n.name for n in graph.nodes if n.kind is ir.NodeKind.MODEL]
    before = point.startswith("before")
    marker = ir.GraphHook(
        when=ir.InterruptWhen.BEFORE if before else ir.InterruptWhen.AFTER,
        node=hook.target.text if hook.target is not None else None,
        point=None if hook.target is not None else ir.HookPoint(point),
    )
    for node in names:
        graph = _insert(graph, node, target.attr, impl, span, marker)
    return graph


def _add_wrap(graph: ir.Graph, kind: ir.NodeKind, impl: ir.ImportRef) -> ir.Graph:
    wrap = {"$import": impl.key, "is_file": impl.is_file}
    nodes = [
        n.model_copy(update={"config": {**n.config, "wrap": [*n.config.get("wrap", []), wrap]}})
        if n.kind is kind
        else n
        for n in graph.nodes
    ]
    return graph.model_copy(update={"nodes": nodes})


def _insert(
    graph: ir.Graph,
    node: str,
    fn: str,
    impl: ir.ImportRef,
    span: ir.SourceSpan,
    marker: ir.GraphHook,
) -> ir.Graph:
    """Splice a hook node in front of (or behind) `node`; START/END hooks sit inside."""
    before = marker.when is ir.InterruptWhen.BEFORE
    label = node.strip("_") if node in (ir.START, ir.END) else node
    name = f"{fn}.{'before' if before else 'after'}_{label}"
    hook = ir.NodeSpec(
        name=name,
        kind=ir.NodeKind.PYTHON,
        impl=impl,
        span=span,
        hook=marker.model_copy(update={"node": node}),
    )
    if (before and node != ir.START) or node == ir.END:
        edges = [
            e.model_copy(update={"target": name}) if e.target == node else e for e in graph.edges
        ] + [ir.EdgeSpec(source=name, target=node, span=span)]
        branches = [_retarget(b, node, name) for b in graph.branches]
        joins = [
            j.model_copy(update={"target": name}) if j.target == node else j for j in graph.joins
        ]
    else:
        edges = [
            e.model_copy(update={"source": name}) if e.source == node else e for e in graph.edges
        ] + [ir.EdgeSpec(source=node, target=name, span=span)]
        branches = [
            b.model_copy(update={"source": name}) if b.source == node else b for b in graph.branches
        ]
        joins = [
            j.model_copy(update={"sources": [name if s == node else s for s in j.sources]})
            for j in graph.joins
        ]
    return graph.model_copy(
        update={
            "nodes": [*graph.nodes, hook],
            "edges": edges,
            "branches": branches,
            "joins": joins,
        }
    )


def _retarget(b: ir.BranchSpec, old: str, new: str) -> ir.BranchSpec:
    if b.sends:  # maps each node to itself (Sends name nodes); the checker forbids a hook here
        return b
    cases = [c.model_copy(update={"target": new}) if c.target == old else c for c in b.cases]
    routes = {k: (new if v == old else v) for k, v in b.routes.items()}
    return b.model_copy(update={"cases": cases, "routes": routes})
