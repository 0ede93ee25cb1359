"""Rules of the tools an agent (or a graph's tools node) binds to its model.

Input: `Ctx` and the tool references. Output: diagnostics — B11 (a function tool needs a
docstring), A7 (two tools with one name), A8 (provider tool maps are bound as written),
A9/A10 (an MCP server's tools), H1 (an agent used as a tool) — and the `ToolName`s found,
which the caller collects to check names across tools and middleware.
Invariant: the AST is only read; nothing is connected or imported (A10).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import islice
from pathlib import Path

from ...dsl import ast
from ...dsl.astclass import Record, record
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error, warning
from ..context import Ctx
from ..pyscan import PyFunction
from ..resolve import GraphTarget, Missing, PyTarget, graph_ref, python_ref
from ..suggest import nearest
from ..symbols import SymbolKind
from ..typecheck import describe


@record
class ToolName(Record):
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
        yield _with_module_tools(ctx, item, found)


def _by_tool_name(ctx: Ctx, ref: ast.Ref, d: Diagnostic) -> Diagnostic:
    """`tools.add` where the module's function is `plus`, named `add` by `@tool("add")`:
    a tools list names the function, not the name the model sees."""
    module = ctx.unit.python.get(ref.parts[0].text)
    if d.code is not Code.UNKNOWN_ATTR or module is None or len(ref.parts) != 2:
        return d
    wanted = ref.parts[1].text
    for fn in module.functions.values():
        deco = fn.decorator("tool")
        named = (
            deco.args[0] if deco and deco.args else deco.kwarg("name_or_callable") if deco else None
        )
        if named == wanted:
            alias = ref.parts[0].text
            return replace(
                d,
                notes=(*d.notes, f"`{wanted}` is the name `@tool` gives `def {fn.name}`"),
                help=f"name the function: `{alias}.{fn.name}`",
            )
    return d


def _with_module_tools(ctx: Ctx, ref: ast.Ref, d: Diagnostic) -> Diagnostic:
    """`tools [add]` where `add` is a function of a used module: name it as written in a
    `tools` list (`t.add`), and list a few of the functions there are. The candidates are
    walked lazily, so a suggestion past the check's budget never looks at them."""
    if d.code is not Code.UNKNOWN_NAME or len(ref.parts) != 1 or d.help is not None:
        return d
    modules = [(alias, m) for alias, m in ctx.unit.python.items() if m is not None and m.functions]
    if not modules:
        return d
    name = ref.parts[0].text
    near = name if any(name in m.functions for _, m in modules) else None
    near = near or nearest(name, (f for _, m in modules for f in m.functions))
    owner = next((alias for alias, m in modules if near in m.functions), None)
    every = (f"`{alias}.{f}`" for alias, m in modules for f in m.functions)
    listed = list(islice(every, _LISTED))
    total = sum(len(m.functions) for _, m in modules)
    more = f" and {total - len(listed)} more" if total > len(listed) else ""
    return replace(
        d,
        notes=(
            *d.notes,
            f"a tool of a used module is written with its alias: {', '.join(listed)}{more}",
        ),
        help=f"did you mean `{owner}.{near}`?" if owner else None,
    )


_LISTED = 8  # functions named in the note


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
        yield _by_tool_name(ctx, ref, found)
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
    yield from check_tool_params(found, fn, ref)
    if not fn.doc and not (deco and deco.kwarg("description")):
        yield error(
            Code.MISSING_DOCSTRING,
            f"tool `{fn.name}` has no docstring",
            ref.span,
            "the model would see no description of this tool",
            notes=("a function tool's description is its docstring (B11)",),
            help=f"add a docstring to `def {fn.name}` saying what it does",
        )


def check_tool_params(target: PyTarget, fn: PyFunction, ref: ast.Ref) -> Iterator[Diagnostic]:
    """What the model is told about each argument (B11: the schema comes from the type
    hints): a parameter without one is described as anything, and a plain class of the
    module as nothing a JSON schema can say (the run would fail building the schema)."""
    file = Path(target.module.path).name
    for p in fn.params:
        if p.injected is not None:
            continue  # E4: filled in by the runtime, never shown to the model
        where = f"{file}:{p.line}" if p.line else file
        if p.annotation is None:
            yield warning(
                Code.UNTYPED_TOOL_PARAM,
                f"tool `{fn.name}`'s parameter `{p.name}` has no type hint",
                ref.span,
                "the model is told nothing about this argument",
                notes=(
                    f"{where}: `{p.name}` is sent to the model as "
                    f'`{{"title": "{p.name.title()}"}}`: any value at all',
                ),
                help=f"annotate it in `def {fn.name}`, e.g. `{p.name}: str`",
            )
            continue
        for name in p.refs:
            cls = target.module.classes.get(name)
            if cls is not None and not cls.describable:
                yield warning(
                    Code.UNSCHEMABLE_PARAM,
                    f"tool `{fn.name}`'s parameter `{p.name}` has type `{name}`, "
                    "which no JSON schema can describe",
                    ref.span,
                    "the run fails building this tool's schema",
                    notes=(
                        f"{where}: `{p.name}: {p.annotation}`; `{name}` "
                        f"({file}:{cls.line}) is a plain class",
                    ),
                    help=f"make `{name}` a pydantic model, a dataclass or a TypedDict",
                )
                break


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
            notes=("create_agent would silently keep only the last one (tool names, A7)",),
            help='rename one with @tool("other_name")',
        )
