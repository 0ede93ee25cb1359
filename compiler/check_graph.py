"""Checks of one `graph { … }` block before it is lowered.

Input: `Ctx` and an `ast.GraphDecl`. Output: diagnostics for node declarations (kind,
arguments, options), edges (unknown endpoints, START/END misuse, `when` groups without an
`otherwise`), routes (router, labels), hooks, interrupts, state, limits and checkpoint.
Reachability and the path to END are checked after lowering (`graph.py`).
"""

from __future__ import annotations

from collections.abc import Iterator

import agentc.ir as ir

from ..dsl import ast
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, Label, error
from .check import (
    check_checkpoint,
    check_config,
    check_fields,
    check_interrupt_checkpointer,
    check_interrupt_words,
    check_limits,
    duplicate_stmts,
)
from .check_agent import STORE_SETTING, check_schema_ref, check_store_settings
from .context import Ctx
from .models import check_model_options, resolve_model
from .resolve import declaration, graph_ref, python_ref
from .suggest import did_you_mean
from .symbols import SymbolKind
from .typecheck import check_value, describe
from .types import STR, Ty, TyKind, prim

NODE_KINDS = ("model", "tools", "python", "agent", "subgraph")
BOUNDARY = {"START": ir.START, "END": ir.END}
NODE_OPTIONS: dict[str, Ty] = {
    "timeout": Ty(TyKind.SPECIAL, "duration"),
    "retry": Ty(TyKind.MAP, args=(prim("any"),)),
}
RETRY_KEYS = tuple(ir.RetryPolicy.model_fields)
HOOK_WORDS = ("before", "after")
GRAPH_HOOK_POINTS = tuple(p.value for p in ir.HookPoint)


def check_graph(ctx: Ctx, graph: ast.GraphDecl) -> Iterator[Diagnostic]:
    body = graph.body
    yield from duplicate_stmts(
        body,
        (ast.StateStmt, ast.LimitsStmt, ast.CheckpointStmt),
        Code.DUPLICATE_SETTING,
        lambda s: type(s).__name__.removesuffix("Stmt").lower(),
    )
    nodes = yield from check_nodes(ctx, body)
    fields = {f.name.text for s in body if isinstance(s, ast.StateStmt) for f in s.fields}
    for stmt in body:
        yield from _check_stmt(ctx, stmt, nodes, fields)
    yield from check_when_groups(body)
    if not any(isinstance(s, ast.EdgeDecl) and s.source.text == "START" for s in body):
        yield error(
            Code.NO_ENTRY,
            f"graph `{graph.name.text}` has no entry edge",
            graph.name.span,
            "nothing runs first",
            help="add `edge START -> <first node>`",
        )
    yield from check_store_settings(body)  # I1
    yield from check_interrupt_checkpointer(body)


def _check_stmt(ctx: Ctx, stmt, nodes: dict, fields: set[str]) -> Iterator[Diagnostic]:
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
    elif isinstance(stmt, ast.SettingStmt) and stmt.key.text != STORE_SETTING:
        yield error(
            Code.UNKNOWN_SETTING,
            f"graphs have no setting `{stmt.key.text}`",
            stmt.key.span,
            "unknown setting",
        )


# ---------------------------------------------------------------- nodes


def check_nodes(ctx: Ctx, body: tuple):
    """Yields diagnostics; returns name → NodeDecl (first declaration wins)."""
    from .resolve import RESERVED

    nodes: dict[str, ast.NodeDecl] = {}
    for node in (s for s in body if isinstance(s, ast.NodeDecl)):
        name = node.name.text
        if name in RESERVED:
            yield error(
                Code.RESERVED_NAME,
                f"`{name}` cannot name a node",
                node.name.span,
                "reserved for the graph's boundary",
                help="choose another name",
            )
            continue
        if name in nodes:
            yield error(
                Code.DUPLICATE_NODE,
                f"node `{name}` is declared twice",
                node.name.span,
                "declared again here",
                secondary=(Label(nodes[name].name.span, "first declared here"),),
                help="rename one of them",
            )
            continue
        nodes[name] = node
        yield from check_node(ctx, node)
    return nodes


def check_node(ctx: Ctx, node: ast.NodeDecl) -> Iterator[Diagnostic]:
    kind = node.value.callee.dotted
    if kind not in NODE_KINDS:
        yield error(
            Code.UNKNOWN_NODE_KIND,
            f"`{kind}(…)` is not a kind of node",
            node.value.callee.span,
            "unknown node kind",
            help=did_you_mean(kind, NODE_KINDS),
        )
        return
    yield from _NODE_CHECKS[kind](ctx, node.value)
    yield from check_node_options(ctx, node.options)


def _positional(call: ast.Call) -> list[ast.Expr]:
    return [a.value for a in call.args if a.name is None]


def _one_arg(call: ast.Call, want: str) -> ast.Expr | Diagnostic:
    pos = _positional(call)
    if len(pos) != 1:
        return error(
            Code.BAD_NODE,
            f"`{call.callee.dotted}(…)` takes one argument",
            call.span,
            f"expected {want}",
        )
    return pos[0]


def _model_node(ctx: Ctx, call: ast.Call) -> Iterator[Diagnostic]:
    pos = _positional(call)
    if len(pos) != 1 or not isinstance(pos[0], ast.StringLit):
        yield error(
            Code.BAD_NODE,
            "`model(…)` takes one model string",
            call.span,
            'expected model("provider:name", prompt: "…")',
        )
    else:
        found = resolve_model(pos[0].value, pos[0].span)
        if isinstance(found, Diagnostic):
            yield found
    yield from check_model_options((a.name, a.value) for a in call.args if a.name is not None)
    for arg in (a for a in call.args if a.name is not None):
        if arg.name.text == "prompt":
            yield from check_value(arg.value, STR, ctx.value_env())
        elif arg.name.text == "output":
            yield from check_schema_ref(ctx, arg.value)


def _tools_node(ctx: Ctx, call: ast.Call) -> Iterator[Diagnostic]:
    from .check_agent import _check_function_tool, check_duplicate_tools

    arg = _one_arg(call, "a list of tools")
    if isinstance(arg, Diagnostic):
        yield arg
        return
    if not isinstance(arg, ast.ListLit):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a list of tools, found {describe(arg)}",
            arg.span,
            "expected [tools.a, tools.b]",
        )
        return
    names: list = []
    for item in arg.items:
        if isinstance(item, ast.Ref):
            yield from _check_function_tool(ctx, item, names)
        elif not isinstance(item, ast.MapLit):
            yield error(
                Code.NOT_A_TOOL, f"{describe(item)} is not a tool", item.span, "expected a function"
            )
    yield from check_duplicate_tools(names)


def _python_node(ctx: Ctx, call: ast.Call) -> Iterator[Diagnostic]:
    arg = _one_arg(call, "a Python function such as tools.step")
    if isinstance(arg, Diagnostic):
        yield arg
    elif not isinstance(arg, ast.Ref):
        yield error(
            Code.BAD_NODE,
            f"expected a Python function, found {describe(arg)}",
            arg.span,
            "expected module.function",
        )
    else:
        found = python_ref(ctx.unit, arg)
        if isinstance(found, Diagnostic):
            yield found


def _graph_node(kinds, what):
    def check(ctx: Ctx, call: ast.Call) -> Iterator[Diagnostic]:
        arg = _one_arg(call, f"an {what} name")
        if isinstance(arg, Diagnostic):
            yield arg
        elif not isinstance(arg, ast.Ref):
            yield error(Code.BAD_NODE, f"expected an {what} name, found {describe(arg)}", arg.span)
        else:
            found = graph_ref(ctx.unit, arg, kinds, what)
            if isinstance(found, Diagnostic):
                yield found

    return check


_NODE_CHECKS = {
    "model": _model_node,
    "tools": _tools_node,
    "python": _python_node,
    "agent": _graph_node((SymbolKind.AGENT,), "agent"),
    "subgraph": _graph_node((SymbolKind.AGENT, SymbolKind.GRAPH), "agent or graph"),
}


def check_node_options(ctx: Ctx, options: ast.MapLit | None) -> Iterator[Diagnostic]:
    for entry in options.entries if options else ():
        key = entry.key.text
        ty = NODE_OPTIONS.get(key)
        if ty is None:
            yield error(
                Code.UNKNOWN_PARAM,
                f"nodes have no option `{key}`",
                entry.key.span,
                "unknown option",
                help=did_you_mean(key, NODE_OPTIONS),
            )
            continue
        yield from check_value(entry.value, ty, ctx.value_env())
        if key == "retry" and isinstance(entry.value, ast.MapLit):
            for e in entry.value.entries:
                if e.key.text not in RETRY_KEYS:
                    yield error(
                        Code.UNKNOWN_PARAM,
                        f"`retry` has no option `{e.key.text}`",
                        e.key.span,
                        "unknown option",
                        help=did_you_mean(e.key.text, RETRY_KEYS),
                    )


# ---------------------------------------------------------------- edges and routes


def node_exists(
    name: ast.Name, nodes: dict, *, boundary: str | None = None
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
    secondary = ()
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


def check_edge(ctx: Ctx, edge: ast.EdgeDecl, nodes: dict, fields: set[str]) -> Iterator[Diagnostic]:
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


def check_when_groups(body: tuple) -> Iterator[Diagnostic]:
    groups: dict[str, list[ast.EdgeDecl]] = {}
    for e in body:
        if isinstance(e, ast.EdgeDecl) and (e.condition is not None or e.otherwise):
            groups.setdefault(e.source.text, []).append(e)
    for source, edges in groups.items():
        whens = [e for e in edges if e.condition is not None]
        others = [e for e in edges if e.otherwise]
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


def check_route(ctx: Ctx, route: ast.RouteDecl, nodes: dict) -> Iterator[Diagnostic]:
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


def check_router(ctx: Ctx, router: ast.Ref | ast.Call):
    """Yields diagnostics; returns the router's declared labels (None: any label)."""
    ref = router.callee if isinstance(router, ast.Call) else router
    sym = declaration(ctx.unit, ref, SymbolKind.ROUTER)
    if sym is not None:
        info = ctx.decl_info(sym)
        config = None
        if isinstance(router, ast.Call) and router.args:
            entries = tuple(
                ast.MapEntry(a.name, a.value, a.span) for a in router.args if a.name is not None
            )
            config = ast.MapLit(entries, router.span)
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


def check_hook(ctx: Ctx, hook: ast.HookDecl, nodes: dict) -> Iterator[Diagnostic]:
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
        yield from _python_node(ctx, call)
