"""Rules of an agent's `middleware { … }` block.

Input: `Ctx`, the block's first `middleware` statement, whether the agent saves its runs,
and the agent's `ToolName`s so far. Output: diagnostics — unknown middleware, parameters
against a declaration or a Python class's `__init__`, duplicate instances (`pii[email]`),
D9 (a middleware that pauses for a person needs a checkpointer), review rules for tools
the agent lacks, Python hooks — and the tools each middleware adds, appended to the names.
Invariant: the AST is only read; no Python is imported (classes are read by pyscan).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ..context import Ctx
from ..decls import DeclInfo, instance_name
from ..pyscan import ClassKind, PyClass
from ..resolve import Missing, declaration, python_ref
from ..suggest import did_you_mean
from ..symbols import SymbolKind
from .common import check_config
from .tools import ToolName


def check_middleware(
    ctx: Ctx, stmt: ast.MiddlewareStmt, saves: bool, tools: list[ToolName]
) -> Iterator[Diagnostic]:
    seen: dict[str, ast.MiddlewareItem] = {}
    for item in stmt.items:
        name = middleware_name(ctx, item)
        if name in seen:
            yield error(
                Code.DUPLICATE_MIDDLEWARE,
                f"middleware `{name}` is listed twice",
                item.name.span,
                "listed again here",
                secondary=(Label(seen[name].name.span, "first listed here"),),
                notes=("create_agent refuses two middleware with one name",),
                help=_duplicate_help(ctx, item),
            )
        seen.setdefault(name, item)
        yield from _check_item(ctx, item, saves, tools)


def is_python(ctx: Ctx, item: ast.MiddlewareItem) -> bool:
    """`module.name` of a used Python module (a hook or an AgentMiddleware class)."""
    return len(item.name.parts) == 2 and item.name.parts[0].text in ctx.unit.python


def _declared_info(ctx: Ctx, item: ast.MiddlewareItem) -> DeclInfo | None:
    if is_python(ctx, item):
        return None
    sym = declaration(ctx.unit, item.name, SymbolKind.MIDDLEWARE)
    return ctx.decl_info(sym) if sym is not None else None


def middleware_name(ctx: Ctx, item: ast.MiddlewareItem) -> str:
    """The instance name the lowering gives `item` (`pii[email]`; see decls.instance_name)."""
    base = item.name.parts[-1].text
    info = _declared_info(ctx, item)
    if info is None or info.instance_key is None:
        return base
    entry = config_entry(item.config, info.instance_key)
    value = (
        entry.value.value if entry is not None and isinstance(entry.value, ast.StringLit) else None
    )
    return instance_name(base, info, value)


def _duplicate_help(ctx: Ctx, item: ast.MiddlewareItem) -> str:
    info = _declared_info(ctx, item)
    if info is not None and info.instance_key:
        return (
            f"merge their settings, or give each a different `{info.instance_key}` "
            "(one instance per value)"
        )
    return "merge their settings into one entry"


def _check_item(
    ctx: Ctx, item: ast.MiddlewareItem, saves: bool, tools: list[ToolName]
) -> Iterator[Diagnostic]:
    ref = item.name
    if is_python(ctx, item):
        yield from _check_python_hook(ctx, item, tools)
        return
    sym = declaration(ctx.unit, ref, SymbolKind.MIDDLEWARE)
    if sym is None:
        yield error(
            Code.UNKNOWN_MIDDLEWARE,
            f"unknown middleware `{ref.dotted}`",
            ref.span,
            "not a declared middleware",
            help=did_you_mean(ref.dotted, ctx.unit.names_of(SymbolKind.MIDDLEWARE)),
        )
        return
    info = ctx.decl_info(sym)
    yield from check_config(ctx, info, item.config, ref.span, ref.dotted)
    if _needs_checkpointer(info, item) and not saves:
        yield error(
            Code.REVIEW_NO_CHECKPOINT,
            f"`{ref.dotted}` needs a checkpointer",
            ref.span,
            "pauses the run for a person, but nothing saves it",
            notes=(
                "a review interrupts the run; resuming reads the checkpoint (human review, D9)",
            ),
            help='add `checkpoint memory` or `checkpoint sqlite("…")` to the agent',
        )
    added = list(info.tools)
    if info.tool_name_param:
        entry = config_entry(item.config, info.tool_name_param)
        if entry is not None and isinstance(entry.value, ast.StringLit):
            added = [entry.value.value]
    tools.extend(ToolName(t, ref.span, f"middleware {ref.dotted}") for t in added)
    yield from _check_interrupt_on(item, tools)


def _needs_checkpointer(info: DeclInfo, item: ast.MiddlewareItem) -> bool:
    """D9: a middleware that may pause for a person (always, or with one setting's value)."""
    if info.needs_checkpointer:
        return True
    for param, value in info.checkpointer_when:
        entry = config_entry(item.config, param)
        given = entry.value if entry is not None else info.params[param].default
        if isinstance(given, ast.StringLit) and given.value == value:
            return True
    return False


def config_entry(config: ast.MapLit | None, key: str) -> ast.MapEntry | None:
    return next((e for e in (config.entries if config else ()) if e.key.text == key), None)


def _check_interrupt_on(item: ast.MiddlewareItem, tools: list[ToolName]) -> Iterator[Diagnostic]:
    """D9: a review rule for a tool the agent lacks would silently never fire."""
    entry = config_entry(item.config, "interrupt_on")
    if entry is None or not isinstance(entry.value, ast.MapLit) or not tools:
        return
    known = [t.name for t in tools]
    for e in entry.value.entries:
        if e.key.text not in known:
            yield error(
                Code.UNKNOWN_TOOL,
                f"the agent has no tool `{e.key.text}`",
                e.key.span,
                "no tool of that name",
                help=did_you_mean(e.key.text, known),
            )


def _check_python_hook(
    ctx: Ctx, item: ast.MiddlewareItem, tools: list[ToolName]
) -> Iterator[Diagnostic]:
    found = python_ref(ctx.unit, item.name)
    if isinstance(found, Missing):
        return
    if isinstance(found, Diagnostic):
        yield found
        return
    fn, cls = found.function, found.cls
    if cls is not None and cls.kind is ClassKind.MIDDLEWARE:
        yield from check_constructor(item, cls)
        tools.extend(
            ToolName(name, item.name.span, f"middleware {item.name.dotted}")
            for name in cls.tool_names
            if name in found.module.functions
        )
        return
    if fn is not None and fn.hook_point is not None:
        if item.config is not None and item.config.entries:
            yield error(
                Code.UNKNOWN_PARAM,
                f"hook `{item.name.dotted}` takes no settings",
                item.config.span,
                "a decorated hook has no parameters",
            )
        return
    yield error(
        Code.NOT_A_HOOK,
        f"`{item.name.dotted}` is not middleware",
        item.name.span,
        "neither a decorated hook nor an AgentMiddleware subclass",
        help="decorate it with @before_model, @after_model, @wrap_model_call …",
    )


def check_constructor(item: ast.MiddlewareItem, cls: PyClass) -> Iterator[Diagnostic]:
    """The settings of a Python AgentMiddleware class against its `__init__` (read
    statically): each key a parameter, each required parameter given."""
    params = {p.name: p for p in (cls.init_params or ())}
    given = set()
    for entry in item.config.entries if item.config else ():
        key = entry.key.text
        given.add(key)
        if key not in params and not cls.init_kwargs:
            yield error(
                Code.UNKNOWN_PARAM,
                f"`{cls.name}` has no parameter `{key}`",
                entry.key.span,
                "not a parameter of its `__init__`",
                help=did_you_mean(key, params) or _param_list(cls.name, list(params)),
            )
    for name, p in params.items():
        if p.required and name not in given:
            yield error(
                Code.MISSING_PARAM,
                f"`{cls.name}` needs `{name}`",
                item.name.span,
                f"`{name}` is not given",
                notes=(f"{name}: {p.annotation}" if p.annotation else name,),
                help=f"add `{name}: …` to its settings",
            )


def _param_list(owner: str, params: list[str]) -> str:
    if not params:
        return f"`{owner}` takes no parameters"
    return "its parameters are " + ", ".join(f"`{p}`" for p in params)
