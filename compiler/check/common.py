"""Rules shared by every kind of declaration: the language version, declarations'
defaults, fields and state channels (types, defaults, reducers), output schema references
and the settings maps of declared middleware and routers.

Input: `Ctx` and the AST piece a rule reads. Output: diagnostics, one function per rule;
nothing is changed and no rule stops at the first problem.
Invariant: the AST is only read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ..context import Ctx
from ..decls import DeclInfo
from ..pyscan import ClassKind
from ..resolve import PyTarget, python_ref
from ..suggest import did_you_mean
from ..symbols import SymbolKind
from ..typecheck import check_value, describe, map_entries
from ..types import Ty, TyKind, resolve_type

SUPPORTED_VERSIONS = (1,)
REDUCERS = ("append", "merge", "add", "replace", "add_messages")
SCHEMA_CLASSES = (ClassKind.MODEL, ClassKind.DATACLASS, ClassKind.TYPEDDICT)


def check_version(module: ast.Module) -> Iterator[Diagnostic]:
    v = module.version
    if v is not None and v.version not in SUPPORTED_VERSIONS:
        yield error(
            Code.UNSUPPORTED_VERSION,
            f"language version {v.version} is not supported",
            v.span,
            f"this compiler reads `agentc {SUPPORTED_VERSIONS[-1]}`",
            help=f"write `agentc {SUPPORTED_VERSIONS[-1]}` or upgrade agentc",
        )


def check_declaration(ctx: Ctx, decl: ast.DeclareDecl) -> Iterator[Diagnostic]:
    problems: list[Diagnostic] = []
    sym = ctx.unit.symbols.get(decl.name.text)
    if sym is None or sym.decl is not decl:
        return  # a duplicate: already reported
    info = ctx.decl_info(sym, problems.append)
    yield from problems
    for p in info.params.values():
        if p.default is not None:
            yield from check_value(p.default, p.ty, ctx.value_env())


# ---------------------------------------------------------------- fields and state


def check_fields(
    ctx: Ctx, fields: Iterable[ast.FieldDecl], *, allow_reducers: bool, reserved: Iterable[str] = ()
) -> Iterator[Diagnostic]:
    seen: dict[str, ast.FieldDecl] = {}
    reserved = set(reserved)
    for f in fields:
        name = f.name.text
        if name in reserved:
            yield error(
                Code.RESERVED_NAME,
                f"state channel `{name}` is built into the agent",
                f.name.span,
                "reserved channel",
                help="choose another name",
            )
        elif name in seen:
            yield error(
                Code.DUPLICATE_FIELD,
                f"`{name}` is declared twice",
                f.name.span,
                "declared again here",
                secondary=(Label(seen[name].name.span, "first declared here"),),
            )
        seen.setdefault(name, f)
        yield from check_field(ctx, f, allow_reducers)


def check_field(ctx: Ctx, f: ast.FieldDecl, allow_reducers: bool) -> Iterator[Diagnostic]:
    problems: list[Diagnostic] = []
    ty = resolve_type(f.type, ctx.scope, problems.append)
    yield from problems
    if f.default is not None and not problems:
        yield from check_value(f.default, ty, ctx.value_env())
    if f.reducer is not None:
        yield from check_reducer(f, f.reducer, ty, allow_reducers)


_NEEDS = {
    "append": "a list",
    "add_messages": "messages",
    "merge": "a map",
    "add": "a number, string or list",
}


def check_reducer(
    f: ast.FieldDecl, reducer: ast.Ref, ty: Ty, allowed: bool
) -> Iterator[Diagnostic]:
    name = reducer.dotted
    if not allowed:
        yield error(
            Code.BAD_REDUCER,
            "schema fields take no reducer",
            reducer.span,
            "only state channels have reducers",
        )
        return
    if name not in REDUCERS:
        yield error(
            Code.BAD_REDUCER,
            f"unknown reducer `{name}`",
            reducer.span,
            "not a reducer",
            help=did_you_mean(name, REDUCERS) or "use append, merge, add or replace",
        )
        return
    if not _fits(name, ty):
        yield error(
            Code.BAD_REDUCER,
            f"`reduce {name}` does not fit a `{ty.display()}` channel",
            reducer.span,
            f"`{name}` needs {_NEEDS[name]}",
            secondary=(Label(f.type.span, f"declared {ty.display()} here"),),
            help="change the channel's type or its reducer",
        )


def _fits(reducer: str, ty: Ty) -> bool:
    if reducer == "append":
        return ty.is_list
    if reducer == "add_messages":
        return ty.kind in (TyKind.MESSAGES, TyKind.LIST)
    if reducer == "merge":
        return ty.kind is TyKind.MAP or ty.name == "any" or ty.kind is TyKind.SCHEMA
    if reducer == "add":
        return ty.kind is TyKind.LIST or ty.name in ("int", "float", "str", "any")
    return True  # replace


# ---------------------------------------------------------------- schema references


def check_schema_ref(ctx: Ctx, item: ast.Expr) -> Iterator[Diagnostic]:
    """An output schema: a declared `schema`, or a pydantic model, dataclass or TypedDict."""
    if not isinstance(item, ast.Ref):
        yield error(
            Code.UNKNOWN_SCHEMA,
            f"{describe(item)} is not a schema",
            item.span,
            "expected a schema name",
        )
        return
    if len(item.parts) == 2 and item.parts[0].text in ctx.unit.python:
        found = python_ref(ctx.unit, item)
        if isinstance(found, Diagnostic):
            yield found
        elif isinstance(found, PyTarget) and (
            found.cls is None or found.cls.kind not in SCHEMA_CLASSES
        ):
            yield error(
                Code.UNKNOWN_SCHEMA,
                f"`{item.dotted}` is not a schema class",
                item.span,
                "expected a pydantic model, dataclass or TypedDict",
            )
        return
    sym = ctx.unit.symbols.get(item.dotted)
    if sym is None or sym.kind is not SymbolKind.SCHEMA:
        yield error(
            Code.UNKNOWN_SCHEMA,
            f"unknown schema `{item.dotted}`",
            item.span,
            "no schema of that name",
            help=did_you_mean(item.dotted, ctx.unit.names_of(SymbolKind.SCHEMA)),
        )


# ---------------------------------------------------------------- configuration maps


def check_config(
    ctx: Ctx, info: DeclInfo, config: ast.MapLit | None, at: ast.Span, what: str
) -> Iterator[Diagnostic]:
    """A middleware/router config against its declaration: keys, types, required params."""
    given: dict[str, ast.MapEntry] = {}
    for entry in map_entries(config):
        key = entry.key.text
        param = info.params.get(key)
        if param is None:
            yield error(
                Code.UNKNOWN_PARAM,
                f"`{what}` has no parameter `{key}`",
                entry.key.span,
                "unknown parameter",
                help=did_you_mean(key, info.params) or _param_list(info),
            )
            continue
        given[key] = entry
        yield from check_value(entry.value, param.ty, ctx.value_env())
    for name, param in info.params.items():
        if param.required and name not in given:
            yield error(
                Code.MISSING_PARAM,
                f"`{what}` needs `{name}`",
                at,
                f"`{name}` is not given",
                notes=(f"{name}: {param.ty.display()}" + (f" — {param.doc}" if param.doc else ""),),
                help=f"add `{name}: …` to its settings",
            )


def _param_list(info: DeclInfo) -> str:
    if not info.params:
        return f"`{info.name}` takes no parameters"
    return "its parameters are " + ", ".join(f"`{p}`" for p in info.params)
