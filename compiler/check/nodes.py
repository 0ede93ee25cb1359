"""Checks of a graph block's `node` declarations.

Input: `Ctx` and the block's `ast.NodeDecl`s. Output: diagnostics for reserved and
duplicate names, the kind (`model`, `tools`, `python`, `agent`, `subgraph`), each kind's
arguments and the node options (`timeout`, `retry`), and the table name → NodeDecl (the
first declaration of a name wins) that edges, routes, hooks and interrupts are checked
against.
Invariant: the AST is only read.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator

import agentc.ir as ir

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ..context import Ctx
from ..models import check_model_options, resolve_model
from ..resolve import RESERVED, graph_ref, python_ref
from ..settings import NODE_KINDS
from ..suggest import did_you_mean
from ..symbols import SymbolKind
from ..typecheck import check_value, describe
from ..types import STR, Ty, TyKind, prim
from .common import check_schema_ref
from .tools import ToolName, check_duplicate_tools, check_function_tool

NODE_OPTIONS: dict[str, Ty] = {
    "timeout": Ty(TyKind.SPECIAL, "duration"),
    "retry": Ty(TyKind.MAP, args=(prim("any"),)),
}
RETRY_KEYS = tuple(ir.RetryPolicy.model_fields)

Nodes = dict[str, ast.NodeDecl]


def check_nodes(ctx: Ctx, decls: Iterable[ast.NodeDecl]) -> Generator[Diagnostic, None, Nodes]:
    """Yields diagnostics; returns name → NodeDecl (first declaration wins)."""
    nodes: Nodes = {}
    for node in decls:
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
    named = [(a.name, a.value) for a in call.args if a.name is not None]
    yield from check_model_options(named)
    for name, value in named:
        if name.text == "prompt":
            yield from check_value(value, STR, ctx.value_env())
        elif name.text == "output":
            yield from check_schema_ref(ctx, value)


def _tools_node(ctx: Ctx, call: ast.Call) -> Iterator[Diagnostic]:
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
    names: list[ToolName] = []
    for item in arg.items:
        if isinstance(item, ast.Ref):
            yield from check_function_tool(ctx, item, names)
        elif not isinstance(item, ast.MapLit):
            yield error(
                Code.NOT_A_TOOL, f"{describe(item)} is not a tool", item.span, "expected a function"
            )
    yield from check_duplicate_tools(names)


def check_python_call(ctx: Ctx, call: ast.Call) -> Iterator[Diagnostic]:
    """`python(module.function)`: a node's or a hook's function."""
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


NodeCheck = Callable[[Ctx, ast.Call], Iterator[Diagnostic]]


def _graph_node(kinds: tuple[SymbolKind, ...], what: str) -> NodeCheck:
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


_NODE_CHECKS: dict[str, NodeCheck] = {
    "model": _model_node,
    "tools": _tools_node,
    "python": check_python_call,
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
