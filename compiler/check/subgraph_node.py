"""Checks of a graph's `agent(…)` and `subgraph(…)` nodes and their channel maps.

Input: `Ctx`, the node's call, the parent graph's `StateView` and the kind. Output:
diagnostics — the child is a known agent (or graph); `input: { child: parent }` and
`output: { parent: child }` name channels each side has (`unknown-field`, with the
child's channels listed) and, where both types are known, types that fit
(`type-mismatch`); any other argument is `bad-node`.
Invariant: the AST is only read.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, error
from ..channels import Channel, StateView, agent_view, assignable, state_view, unit_scope
from ..context import Ctx
from ..resolve import GraphTarget, graph_ref
from ..suggest import did_you_mean
from ..symbols import SymbolKind
from ..typecheck import describe

MAPS = ("input", "output")
_KINDS = {
    "agent": ((SymbolKind.AGENT,), "agent"),
    "subgraph": ((SymbolKind.AGENT, SymbolKind.GRAPH), "agent or graph"),
}


def check_graph_node(
    ctx: Ctx, call: ast.Call, parent: StateView, kind: str
) -> Iterator[Diagnostic]:
    kinds, what = _KINDS[kind]
    positional = [a.value for a in call.args if a.name is None]
    if len(positional) != 1:
        yield error(
            Code.BAD_NODE,
            f"`{kind}(…)` takes one argument",
            call.span,
            f"expected an {what} name",
        )
        return
    arg = positional[0]
    if not isinstance(arg, ast.Ref):
        yield error(Code.BAD_NODE, f"expected an {what} name, found {describe(arg)}", arg.span)
        return
    found = graph_ref(ctx.unit, arg, kinds, what)
    if isinstance(found, Diagnostic):
        yield found
    child = child_view(found) if isinstance(found, GraphTarget) else None
    for named in (a for a in call.args if a.name is not None):
        assert named.name is not None
        if named.name.text not in MAPS:
            yield error(
                Code.BAD_NODE,
                f"`{kind}(…)` has no argument `{named.name.text}`",
                named.name.span,
                "unknown argument",
                help=did_you_mean(named.name.text, MAPS)
                or "it takes `input: { child: parent }` and `output: { parent: child }`",
            )
        else:
            yield from _check_map(named.name.text, named.value, parent, child)


def child_view(target: GraphTarget) -> StateView:
    decl = target.symbol.decl
    scope = unit_scope(target.unit)
    if isinstance(decl, ast.AgentDecl):
        return agent_view(scope, decl)
    assert isinstance(decl, ast.GraphDecl), decl
    return state_view(scope, [s for s in decl.body if isinstance(s, ast.StateStmt)])


def _check_map(
    which: str, value: ast.Expr, parent: StateView, child: StateView | None
) -> Iterator[Diagnostic]:
    """`input: { child: parent }` or `output: { parent: child }`."""
    if not isinstance(value, ast.MapLit):
        shape = "{ child: parent }" if which == "input" else "{ parent: child }"
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a map, found {describe(value)}",
            value.span,
            f"`{which}:` maps channels: {shape}",
        )
        return
    for entry in value.entries:
        ref = entry.value
        if not (isinstance(ref, ast.Ref) and len(ref.parts) == 1):
            yield error(
                Code.TYPE_MISMATCH,
                f"expected a channel name, found {describe(ref)}",
                ref.span,
                "a channel name",
            )
            continue
        key, named = entry.key, ref.parts[0]
        child_name, parent_name = (key, named) if which == "input" else (named, key)
        c = yield from _side(child_name, child, "the child")
        p = yield from _side(parent_name, parent, "this graph's state")
        if c is not None and p is not None:
            source, target = (p, c) if which == "input" else (c, p)
            if not assignable(source.ty, target.ty):
                yield error(
                    Code.TYPE_MISMATCH,
                    f"`{source.name}` ({source.ty.display()}) cannot be written to "
                    f"`{target.name}` ({target.ty.display()})",
                    entry.span,
                    "the channel types differ",
                    help="map channels of the same type",
                )


def _side(
    name: ast.Name, view: StateView | None, whose: str
) -> Generator[Diagnostic, None, Channel | None]:
    """The channel `name` on one side of the map (None: unknown, or the side unknown)."""
    if view is None:
        return None  # the child is not found: already reported
    ch = view.get(name.text)
    if ch is None and view.complete:
        listed = ", ".join(view.channels) or "none"
        yield error(
            Code.UNKNOWN_FIELD,
            f"{whose} has no channel `{name.text}`",
            name.span,
            "unknown channel",
            notes=(f"its channels: {listed}",),
            help=did_you_mean(name.text, view.channels),
        )
    return ch
