"""Rules of the tools an agent (or a graph's tools node) binds to its model.

Input: `Ctx` and the tool references. Output: diagnostics — B11 (a function tool needs a
docstring), A7 (two tools with one name), A8 (provider tool maps are bound as written),
A9/A10 (an MCP server's tools), H1 (an agent used as a tool) — and the `ToolName`s found,
which the caller collects to check names across tools and middleware.
Invariant: the AST is only read; nothing is connected or imported (A10).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ..context import Ctx
from ..resolve import GraphTarget, Missing, graph_ref, python_ref
from ..symbols import SymbolKind
from ..typecheck import describe


@dataclass(frozen=True, slots=True)
class ToolName:
    name: str
    span: ast.Span
    origin: str


def check_tools(ctx: Ctx, stmt: ast.ToolsStmt, names: list[ToolName]) -> Iterator[Diagnostic]:
    if not isinstance(stmt.value, ast.ListLit):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a list of tools, found {describe(stmt.value)}",
            stmt.value.span,
            "expected [tools.a, tools.b]",
        )
        return
    for item in stmt.value.items:
        yield from check_tool(ctx, item, names)


def check_tool(ctx: Ctx, item: ast.Expr, names: list[ToolName]) -> Iterator[Diagnostic]:
    if isinstance(item, ast.MapLit):
        return  # A8: a provider tool, bound to the model as written
    if not isinstance(item, ast.Ref):
        yield error(
            Code.NOT_A_TOOL,
            f"{describe(item)} is not a tool",
            item.span,
            "expected a function, an agent or a provider tool map",
        )
        return
    head = item.parts[0].text
    if head in ctx.unit.python:
        yield from check_function_tool(ctx, item, names)
        return
    if head in ctx.unit.mcp:
        yield from _check_mcp_tool(item, names)
        return
    found = graph_ref(ctx.unit, item, (SymbolKind.AGENT,), "agent or tool")
    if isinstance(found, GraphTarget):  # H1: an agent used as a tool
        names.append(ToolName(found.symbol.name, item.span, "agent"))
    elif isinstance(found, Diagnostic):
        yield found


def _check_mcp_tool(ref: ast.Ref, names: list[ToolName]) -> Iterator[Diagnostic]:
    """`files` (A9: every tool the server lists) or `files.read_file` (one tool, looked up
    in the server's list at run time: nothing is connected while checking, A10)."""
    if len(ref.parts) > 2:
        yield error(
            Code.NOT_A_TOOL,
            f"`{ref.dotted}` is not a tool",
            ref.span,
            "an MCP server's tool is `server` or `server.tool_name`",
            help=f"write `{ref.parts[0].text}` for every tool of the server, or "
            f"`{ref.parts[0].text}.{ref.parts[1].text}` for one",
        )
    elif len(ref.parts) == 2:
        names.append(ToolName(ref.parts[1].text, ref.span, "mcp"))


def check_function_tool(ctx: Ctx, ref: ast.Ref, names: list[ToolName]) -> Iterator[Diagnostic]:
    found = python_ref(ctx.unit, ref)
    if isinstance(found, Missing):
        return
    if isinstance(found, Diagnostic):
        yield found
        return
    fn = found.function
    if fn is None:
        if found.cls is not None:
            yield error(
                Code.NOT_A_TOOL,
                f"`{ref.dotted}` is a class, not a tool",
                ref.span,
                "expected a function",
                help="pass a function decorated with @tool",
            )
        else:
            names.append(ToolName(found.attr, ref.span, "object"))
        return
    deco = fn.decorator("tool")
    names.append(ToolName(found.tool_name, ref.span, "function"))
    if not fn.doc and not (deco and deco.kwarg("description")):
        yield error(
            Code.MISSING_DOCSTRING,
            f"tool `{fn.name}` has no docstring",
            ref.span,
            "the model would see no description of this tool",
            notes=("B11: a function tool's description is its docstring",),
            help=f"add a docstring to `def {fn.name}` saying what it does",
        )


def check_duplicate_tools(names: list[ToolName]) -> Iterator[Diagnostic]:
    seen: dict[str, ToolName] = {}
    for t in names:
        first = seen.get(t.name)
        if first is None:
            seen[t.name] = t
            continue
        yield error(
            Code.DUPLICATE_TOOL,
            f"two tools are named `{t.name}`",
            t.span,
            "second tool with this name",
            secondary=(Label(first.span, "first one here"),),
            notes=("A7: create_agent would silently keep only the last one",),
            help='rename one with @tool("other_name")',
        )
