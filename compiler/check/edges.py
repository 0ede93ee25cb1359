"""Checks of a graph's edges, joins and routes: every name they use is a node (or START /
END where those may stand), `when` groups, conditions, routers and their labels.

Input: `Ctx`, the statement and the graph's node table (`Nodes`). Output: diagnostics —
`unknown-node` (with did-you-mean), `bad-edge` (START/END misuse, a join with several
targets or a condition, a source listed twice, a route label mapped twice),
`missing-otherwise`, `unknown-field`, `unknown-router`, `unknown-route-label`.
Invariant: the AST is only read.
"""

from __future__ import annotations

import itertools
from collections.abc import Generator, Iterable, Iterator, Mapping

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ..channels import StateView
from ..context import Ctx
from ..resolve import declaration, python_ref
from ..settings import BOUNDARY, when_groups
from ..suggest import did_you_mean
from ..symbols import SymbolKind
from ..typecheck import COMPARISONS, check_comparison, describe
from .common import check_config

Nodes = Mapping[str, ast.NodeDecl]


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
    candidates = itertools.chain(nodes, [boundary] if boundary else [])
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
    ctx: Ctx, edge: ast.EdgeDecl, nodes: Nodes, fields: set[str], view: StateView | None = None
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
        if view is not None:
            yield from check_comparisons(edge.condition, view)


def check_comparisons(cond: ast.Expr, view: StateView) -> Iterator[Diagnostic]:
    """Each `channel OP literal` (either way round) of a condition, against the channel's
    declared type (a misspelt channel is `check_condition`'s)."""
    pending = [cond]
    while pending:
        e = pending.pop()
        if isinstance(e, ast.UnaryOp):
            pending.append(e.operand)
        if not isinstance(e, ast.BinaryOp):
            continue
        pending += [e.left, e.right]
        if e.op not in COMPARISONS:
            continue
        for side, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(side, ast.Ref) and len(side.parts) == 1:
                ch = view.get(side.parts[0].text)
                if ch is not None:
                    yield from check_comparison(e, ch.name, ch.ty, other)


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


def check_join(join: ast.JoinDecl, nodes: Nodes) -> Iterator[Diagnostic]:
    """`edge [a, b] -> c`: sources are nodes, once each; one target; no condition."""
    seen: dict[str, ast.Name] = {}
    for source in join.sources:
        if source.text in BOUNDARY:
            yield error(
                Code.BAD_EDGE,
                f"`{source.text}` cannot be joined",
                source.span,
                "a join waits for nodes",
                help="join the nodes that run first, e.g. `edge [a, b] -> c`",
            )
        else:
            yield from node_exists(source, nodes)
        if source.text in seen:
            yield _twice(source, seen[source.text])
        seen.setdefault(source.text, source)
    if len(join.targets) != 1:
        yield error(
            Code.BAD_EDGE,
            "a join has one target",
            join.span,
            "several targets",
            help="join into one node, then fan out of it: `edge c -> [d, e]`",
        )
    for target in join.targets:
        yield from node_exists(target, nodes, boundary="END")
    if join.condition is not None or join.otherwise:
        yield error(
            Code.BAD_EDGE,
            "a join takes no condition",
            join.span,
            "`when` / `otherwise` on a join",
            help="join into a node, then branch out of it with `when` edges",
        )


def _twice(name: ast.Name, first: ast.Name) -> Diagnostic:
    return error(
        Code.BAD_EDGE,
        f"`{name.text}` is listed twice",
        name.span,
        "listed again here",
        secondary=(Label(first.span, "first listed here"),),
        help="list each node once",
    )


def check_route(ctx: Ctx, route: ast.RouteDecl, nodes: Nodes) -> Iterator[Diagnostic]:
    yield from node_exists(route.source, nodes)
    labels = yield from check_router(ctx, route.router)
    if route.targets is not None:
        yield from _check_route_targets(route, route.targets, labels, nodes)
        return
    seen: dict[str, ast.RouteCase] = {}
    for case in route.cases:
        yield from node_exists(case.target, nodes, boundary="END")
        if case.key in seen:  # `x` and `"x"` are one label
            yield _label_twice(case, seen[case.key])
        seen.setdefault(case.key, case)
        if labels is not None and case.key not in labels:
            yield error(
                Code.UNKNOWN_ROUTE_LABEL,
                f"the router never returns `{case.key}`",
                case.label.span,
                "unknown label",
                notes=("it returns: " + ", ".join(labels),),
                help=did_you_mean(case.key, labels),
            )


def _label_twice(case: ast.RouteCase, first: ast.RouteCase) -> Diagnostic:
    return error(
        Code.BAD_EDGE,
        f"route label `{case.key}` is mapped twice",
        case.label.span,
        "mapped again here",
        secondary=(Label(first.label.span, f"first mapped to `{first.target.text}` here"),),
        help="map each label to one node; a router answers one label at a time",
    )


def _check_route_targets(
    route: ast.RouteDecl,
    targets: tuple[ast.Name, ...],
    labels: tuple[str, ...] | None,
    nodes: Nodes,
) -> Iterator[Diagnostic]:
    """`route a by r [x, END]`: the router answers node names (or Sends to them)."""
    seen: dict[str, ast.Name] = {}
    for target in targets:
        yield from node_exists(target, nodes, boundary="END")
        if target.text in seen:
            yield _twice(target, seen[target.text])
        seen.setdefault(target.text, target)
        if labels is not None and target.text not in labels:
            yield error(
                Code.UNKNOWN_ROUTE_LABEL,
                f"the router never returns `{target.text}`",
                target.span,
                "a target list names what the router returns",
                notes=("it returns: " + ", ".join(labels),),
                help="map its labels to nodes: `{ "
                + ", ".join(f"{label} -> …" for label in labels)
                + " }`",
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
