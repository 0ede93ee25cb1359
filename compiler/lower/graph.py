"""Lowering of a hand-built `graph { … }` block into an `ir.Graph`.

Input: a checked `ast.GraphDecl` and its settings (`Ctx.graph_settings`). Output: nodes,
static edges (fan-out: one edge per target), `when` branches (conditions as
`ir.Condition`), router branches, hooks spliced in as python nodes (below), interrupts,
limits and checkpoint (defaults.py when not written) and the store.

`hook before X = python(f)` becomes a python node `f.before_X` spliced in front of X (every
edge and route into X now enters the hook node, which flows into X), marked with
`NodeSpec.hook`; `hook after X` a node `f.after_X` between X and X's successors. A
`before_model`/`after_model` hook without a node applies to every model node,
`before_agent`/`after_agent` sit after START / before END; `wrap_model_call` /
`wrap_tool_call` hooks go in the model/tools nodes' `config["wrap"]`.
Invariant: runs on checked input only, so it asserts instead of reporting; the
IR is built by value (`model_copy`), never changed in place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Literal, get_args

import agentc.ir as ir

from ...dsl import ast
from ..context import Ctx, python_import
from ..decls import span_ir
from ..resolve import GraphTarget, PyTarget, declaration, graph_ref, python_ref
from ..settings import BOUNDARY, when_groups
from ..symbols import SymbolKind
from ..typecheck import is_literal, to_json
from .common import (
    Lowering,
    channels,
    checkpoint_spec,
    interrupt_specs,
    limits_spec,
    model_from,
    schema_name,
    store_spec,
    tool_spec,
)

CompareOp = Literal["==", "!=", "<", "<=", ">", ">=", "in"]  # as `ir.CompareCond.op`
_COMPARE_OPS: dict[str, CompareOp] = {op: op for op in get_args(CompareOp)}
NODES_IMPL = "agentc.stdlib.nodes"
SUBGRAPH_IMPL = ir.ImportRef(module="agentc.runtime.subgraph", attr="subgraph_node")


def lower_graph(low: Lowering, ctx: Ctx, decl: ast.GraphDecl, name: str) -> ir.Graph:
    s = ctx.graph_settings(decl)
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
        state=channels(ctx, s.state),
        nodes=[_node(low, ctx, n) for n in s.nodes],
        edges=edges,
        branches=branches,
        interrupts=interrupt_specs(s.interrupts),
        limits=limits_spec(s.limits, ir.GraphKind.GRAPH),
        checkpoint=checkpoint_spec(s.checkpoint),
        store=store_spec(s.store),
        doc=decl.doc.value if decl.doc else None,
        span=span_ir(decl.span),
    )
    for hook in s.hooks:
        graph = _splice_hook(ctx, graph, hook)
    return graph


def _end(name: str) -> str:
    return BOUNDARY.get(name, name)


# ---------------------------------------------------------------- nodes

NodeLowering = Callable[[Lowering, Ctx, ast.Call], tuple[ir.ImportRef, dict[str, Any]]]


def _node(low: Lowering, ctx: Ctx, decl: ast.NodeDecl) -> ir.NodeSpec:
    call, kind = decl.value, decl.value.callee.dotted
    impl, config = _NODE_LOWERING[kind](low, ctx, call)
    opts = {e.key.text: e.value for e in (decl.options.entries if decl.options else ())}
    retry = ir.RetryPolicy(**to_json(opts["retry"])) if "retry" in opts else None
    timeout = to_json(opts["timeout"]) if "timeout" in opts else None
    return ir.NodeSpec(
        name=decl.name.text,
        kind=ir.NodeKind(kind),
        impl=impl,
        config=config,
        retry=retry,
        timeout_s=timeout,
        span=span_ir(decl.span),
    )


def _model_node(low: Lowering, ctx: Ctx, call: ast.Call) -> tuple[ir.ImportRef, dict[str, Any]]:
    spec = next(a.value for a in call.args if a.name is None)
    assert isinstance(spec, ast.StringLit), spec
    model = model_from(spec, None, call.span)
    config: dict[str, Any] = {"model": model.model_dump(mode="json", exclude={"span"})}
    for arg in call.args:
        if arg.name is None:
            continue
        if arg.name.text == "output":
            config["output"] = schema_name(low, ctx, arg.value)
        else:
            config[arg.name.text] = to_json(arg.value, ctx.value_env())
    return ir.ImportRef(module=NODES_IMPL, attr="model_node"), config


def _only_arg(call: ast.Call) -> ast.Expr:
    return call.args[0].value


def _tools_node(low: Lowering, ctx: Ctx, call: ast.Call) -> tuple[ir.ImportRef, dict[str, Any]]:
    listed = _only_arg(call)
    assert isinstance(listed, ast.ListLit), listed
    tools = []
    for item in listed.items:
        if isinstance(item, ast.MapLit):
            continue
        assert isinstance(item, ast.Ref), item
        target = python_ref(ctx.unit, item)
        assert isinstance(target, PyTarget)
        tools.append(tool_spec(target, item.span).model_dump(mode="json"))
    return ir.ImportRef(module=NODES_IMPL, attr="tool_node"), {"tools": tools}


def _python_target(ctx: Ctx, call: ast.Call) -> PyTarget:
    ref = _only_arg(call)
    assert isinstance(ref, ast.Ref), ref
    target = python_ref(ctx.unit, ref)
    assert isinstance(target, PyTarget)
    return target


def _python_node(low: Lowering, ctx: Ctx, call: ast.Call) -> tuple[ir.ImportRef, dict[str, Any]]:
    return python_import(_python_target(ctx, call)), {}


def _graph_node(low: Lowering, ctx: Ctx, call: ast.Call) -> tuple[ir.ImportRef, dict[str, Any]]:
    ref = _only_arg(call)
    assert isinstance(ref, ast.Ref), ref
    target = graph_ref(ctx.unit, ref, (SymbolKind.AGENT, SymbolKind.GRAPH))
    assert isinstance(target, GraphTarget)
    return SUBGRAPH_IMPL, {"graph": low.need_graph(target)}


_NODE_LOWERING: dict[str, NodeLowering] = {
    "model": _model_node,
    "tools": _tools_node,
    "python": _python_node,
    "agent": _graph_node,
    "subgraph": _graph_node,
}


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
    return ir.BranchSpec(
        source=route.source.text,
        kind=ir.BranchKind.ROUTER,
        router=router,
        router_config=config,
        routes={c.label.text: _end(c.target.text) for c in route.cases},
        label=ref.dotted,
        span=span_ir(route.span),
    )


# ---------------------------------------------------------------- hooks


def _splice_hook(ctx: Ctx, graph: ir.Graph, hook: ast.HookDecl) -> ir.Graph:
    target = _python_target(ctx, hook.value)
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
    else:
        edges = [
            e.model_copy(update={"source": name}) if e.source == node else e for e in graph.edges
        ] + [ir.EdgeSpec(source=node, target=name, span=span)]
        branches = [
            b.model_copy(update={"source": name}) if b.source == node else b for b in graph.branches
        ]
    return graph.model_copy(
        update={"nodes": [*graph.nodes, hook], "edges": edges, "branches": branches}
    )


def _retarget(b: ir.BranchSpec, old: str, new: str) -> ir.BranchSpec:
    cases = [c.model_copy(update={"target": new}) if c.target == old else c for c in b.cases]
    routes = {k: (new if v == old else v) for k, v in b.routes.items()}
    return b.model_copy(update={"cases": cases, "routes": routes})
