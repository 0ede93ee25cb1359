"""Checks of a graph block's `node` declarations.

Input: `Ctx`, the block's `ast.NodeDecl`s and its `StateView`. Output: diagnostics for
reserved and duplicate names, the kind (`model`, `tools`, `python`, `agent`, `subgraph`)
and each kind's arguments (model nodes: model_node.py; agent and subgraph nodes:
subgraph_node.py), and the table name → NodeDecl (the first declaration of a name wins)
that edges, routes, hooks, interrupts and `goto` options are checked against. The node
options are node_options.py's.
Invariant: the AST is only read.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ..channels import CONVERSATION, StateView, schema_fields
from ..context import Ctx
from ..resolve import RESERVED, python_ref
from ..settings import NODE_KINDS
from ..suggest import did_you_mean
from ..typecheck import describe
from ..types import Ty, TyKind
from .model_node import check_model_node
from .subgraph_node import check_graph_node
from .tools import ToolName, check_duplicate_tools, check_function_tool

Nodes = dict[str, ast.NodeDecl]


def check_nodes(
    ctx: Ctx, decls: Iterable[ast.NodeDecl], view: StateView
) -> Generator[Diagnostic, None, Nodes]:
    """Yields diagnostics; returns name → NodeDecl (first declaration wins). The options
    are checked by the caller, once every node is known (`goto` names nodes)."""
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
        yield from check_node(ctx, node, view)
    return nodes


def check_node(ctx: Ctx, node: ast.NodeDecl, view: StateView) -> Iterator[Diagnostic]:
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
    if kind == "model":
        yield from check_model_node(ctx, node.value, view, _payload(ctx, node))
    elif kind == "tools":
        yield from _tools_node(ctx, node.value, view)
    elif kind == "python":
        yield from check_python_call(ctx, node.value)
    else:
        yield from check_graph_node(ctx, node.value, view, kind)


def _payload(ctx: Ctx, node: ast.NodeDecl) -> dict[str, Ty] | None:
    """The fields of the node's `input: Schema` option (what a Send to it carries)."""
    for entry in node.options.entries if node.options else ():
        if entry.key.text == "input":
            return schema_fields(ctx.unit, entry.value) or {}
    return None


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


def _tools_node(ctx: Ctx, call: ast.Call, view: StateView) -> Iterator[Diagnostic]:
    yield from _tools_channel(call, view)
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


def _tools_channel(call: ast.Call, view: StateView) -> Iterator[Diagnostic]:
    """A tools node runs the calls of the last AI message of `messages:` (default
    `messages`): that channel must be a conversation."""
    given = [a for a in call.args if a.name is not None]
    for arg in given:
        assert arg.name is not None
        if arg.name.text != "messages":
            yield error(
                Code.BAD_NODE,
                f"`tools(…)` has no argument `{arg.name.text}`",
                arg.name.span,
                "unknown argument",
                help="`tools([…])` takes the tools, and optionally `messages: <channel>`",
            )
    named = next((a.value for a in given if a.name and a.name.text == "messages"), None)
    name, at = CONVERSATION, call.callee.span
    if named is not None:
        one = isinstance(named, ast.Ref) and len(named.parts) == 1
        name, at = (named.dotted if isinstance(named, ast.Ref) and one else None), named.span
    ch = view.get(name) if name is not None else None
    if ch is None or ch.ty.kind is not TyKind.MESSAGES:
        what = f"`{name}`" if name else describe(named) if named is not None else "it"
        yield error(
            Code.UNKNOWN_FIELD if ch is None and name else Code.TYPE_MISMATCH,
            f"{what} is not a `messages` channel of the state",
            at,
            "a tools node runs the tool calls of the conversation's last AI message",
            help="add `messages: messages` to the state, or name the conversation channel "
            "with `messages: <channel>`",
        )
