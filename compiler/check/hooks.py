"""Checks of a graph's `hook` statements: the hook point, the node, the function — and
that no edge form passes the hook by.

Input: `Ctx`, the hooks, the graph's node table and its routes. Output: diagnostics —
`bad-hook-point`, `unknown-node`, `bad-node` (not `python(…)`) and `hook-bypassed`.
A hook is spliced into the graph's static edges and label routes (lower/graph.py), but
two edge forms name their node directly and so would skip it: a `Send` from a route with
a target list (`route a by r [x]`: the route maps each node to itself) and a
`Command(goto=…)` from a node that declares `goto: [x]`. A hook in front of such a node
(`hook before x`, `before_model` on a model node, `after_agent` in front of END) would
silently not run, and `hook after g` on a node that declares `goto` would run beside
g's goto targets instead of before them: each is a located error at check time.
Invariant: the AST is only read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

import agentc.ir as ir

from ...dsl import ast
from ...dsl.astclass import Record, record
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ..context import Ctx
from ..suggest import did_you_mean
from .edges import Nodes, node_exists
from .nodes import check_python_call

HOOK_WORDS = ("before", "after")
GRAPH_HOOK_POINTS = tuple(p.value for p in ir.HookPoint)
END = "END"


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


# ---------------------------------------------------------------- hooks passed by


@record
class Direct(Record):
    """One place that names `node` directly: a route's target list or a `goto` list."""

    node: str  # as written: a node name or END
    source: str  # the route's source node, or the node declaring `goto`
    where: ast.Name | ast.Ref  # the name in the list, for the secondary label
    sends: bool  # True: a Send route's target list; False: a `goto` list


def direct_targets(nodes: Nodes, routes: Iterable[ast.RouteDecl]) -> list[Direct]:
    found = [Direct(t.text, r.source.text, t, True) for r in routes if r.targets for t in r.targets]
    for decl in nodes.values():
        for item in _goto_items(decl):
            found.append(Direct(item.dotted, decl.name.text, item, False))
    return found


def _goto_items(decl: ast.NodeDecl) -> list[ast.Ref]:
    options = decl.options.entries if decl.options else ()
    entry = next((e for e in options if e.key.text == "goto"), None)
    if entry is None or not isinstance(entry.value, ast.ListLit):
        return []
    return [i for i in entry.value.items if isinstance(i, ast.Ref) and len(i.parts) == 1]


def check_hook_bypass(
    hooks: Iterable[ast.HookDecl], nodes: Nodes, routes: Iterable[ast.RouteDecl]
) -> Iterator[Diagnostic]:
    direct = direct_targets(nodes, routes)
    if not direct:
        return
    for hook in hooks:
        for node in _in_front_of(hook, nodes):
            for d in (d for d in direct if d.node == node):
                yield _skipped(hook, d)
        for node in _behind(hook, nodes):
            # `goto: [END]` alone is harmless: the hook still runs after `node`, and the
            # Command only adds END, which starts nothing
            gotos = [d for d in direct if not d.sends and d.source == node and d.node != END]
            if gotos:
                yield _beside(hook, node, gotos)


def _in_front_of(hook: ast.HookDecl, nodes: Nodes) -> list[str]:
    """The nodes a hook is spliced in front of (as lower/graph.py splices them)."""
    point = hook.point.text
    if hook.target is not None:
        return [hook.target.text] if point == "before" else []
    if point == "before_model":
        return _model_nodes(nodes)
    return [END] if point == "after_agent" else []


def _behind(hook: ast.HookDecl, nodes: Nodes) -> list[str]:
    point = hook.point.text
    if hook.target is not None:
        return [hook.target.text] if point == "after" else []
    return _model_nodes(nodes) if point == "after_model" else []


def _model_nodes(nodes: Mapping[str, ast.NodeDecl]) -> list[str]:
    return [name for name, decl in nodes.items() if decl.value.callee.dotted == "model"]


def _written(hook: ast.HookDecl) -> str:
    return f"hook {hook.point.text}" + (f" {hook.target.text}" if hook.target else "")


def _skipped(hook: ast.HookDecl, d: Direct) -> Diagnostic:
    shown = f"`{d.node}`"
    if d.sends:
        if d.node == END:
            how = f"`{d.source}`'s router answering END"
            secondary = f"`route {d.source} by …` may end the run directly"
        else:
            how = f"a Send to {shown}"
            secondary = f"`route {d.source} by …` starts {shown} directly"
        note = (
            "a route with a target list maps each node to itself, so what it sends or "
            "answers skips the hook"
        )
    else:
        how = f'`Command(goto="{d.node}")` from `{d.source}`'
        secondary = f"`{d.source}` may go to {shown} directly"
        note = "a Command(goto=…) starts the node it names, never the hook in front of it"
    return error(
        Code.HOOK_BYPASSED,
        f"`{_written(hook)}` would be skipped by {how}",
        hook.span,
        f"this hook runs in front of {shown}",
        secondary=(Label(d.where.span, secondary),),
        notes=(note,),
        help=_skip_help(hook, d),
    )


def _skip_help(hook: ast.HookDecl, d: Direct) -> str:
    if d.node == END:
        return "name a node that leads to END instead of END (`edge finish -> END`)"
    if d.sends:
        return (
            f"do the work in `{d.node}` itself, or hook after the route's source: "
            f"`hook after {d.source} = {hook.value.callee.dotted}(…)`"
        )
    return f"do the work in `{d.node}` itself, or in `{d.source}` before it returns the Command"


def _beside(hook: ast.HookDecl, node: str, gotos: list[Direct]) -> Diagnostic:
    names = ", ".join(f"`{d.node}`" for d in gotos)
    listed = gotos[0].where.span.cover(gotos[-1].where.span)
    return error(
        Code.HOOK_BYPASSED,
        f"`{_written(hook)}` would run beside `{node}`'s goto targets, not before them",
        hook.span,
        f"this hook runs after `{node}`",
        secondary=(Label(listed, f"`{node}` may go to {names} directly"),),
        notes=(
            f"a Command(goto=…) from `{node}` starts its target in the same step as the hook, "
            "so the target does not see what the hook writes",
        ),
        help=f"do the work in `{node}` before it returns the Command, or in the nodes it goes to",
    )
