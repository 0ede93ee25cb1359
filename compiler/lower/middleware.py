"""Lowering of an agent's middleware: budgets in `limits`, declared middleware, Python
hooks and AgentMiddleware classes → `ir.MiddlewareSpec`s, in order.

Input: a checked agent's `limits` and `middleware` statements. Output: the middleware
list of its `ir.AgentSpec`: the `budgets` middleware first when `limits` holds a budget,
then each entry of the `middleware` block as written (settings with the declaration's
defaults filled in, hooks, jumps, seats, added tools, private state, setting spans).
Invariant: runs on checked input only, so it asserts instead of reporting.
"""

from __future__ import annotations

import agentc.ir as ir

from ...dsl import ast
from ..budgets import budget_middleware
from ..context import Ctx, prelude_decls, python_import
from ..decls import instance_name, span_ir
from ..pyscan import ClassKind, PyClass, PyFunction, Visibility
from ..resolve import PyTarget, declaration, python_ref
from ..settings import AGENT_CHANNELS
from ..symbols import SymbolKind
from ..typecheck import to_json, typed_json
from .common import tool_spec


def budgets(limits: ast.LimitsStmt | None) -> list[ir.MiddlewareSpec]:
    """Budgets in `limits` lower to the prelude's `budgets` middleware, placed first."""
    decl = prelude_decls()["budgets"]
    spec = budget_middleware(limits, decl)
    if spec is None:
        return []
    # the spent amounts live in the prelude's private channel, as for `middleware { budgets … }`
    state = [_channel(d.name, d.type, d.visibility, spec.span) for d in decl.state]
    return [spec.model_copy(update={"state": state})]


def middleware(ctx: Ctx, stmt: ast.MiddlewareStmt | None) -> list[ir.MiddlewareSpec]:
    out = []
    for item in stmt.items if stmt else ():
        if len(item.name.parts) == 2 and item.name.parts[0].text in ctx.unit.python:
            out.append(_python_middleware(ctx, item))
        else:
            out.append(_declared_middleware(ctx, item))
    return out


def _declared_middleware(ctx: Ctx, item: ast.MiddlewareItem) -> ir.MiddlewareSpec:
    sym = declaration(ctx.unit, item.name, SymbolKind.MIDDLEWARE)
    assert sym is not None
    info = ctx.decl_info(sym)
    given = {e.key.text: e.value for e in (item.config.entries if item.config else ())}
    env = ctx.value_env()
    config = {
        name: typed_json(given[name], p.ty, env) if name in given else p.default_json()
        for name, p in info.params.items()
    }
    tools = list(info.tools)
    named = config.get(info.tool_name_param) if info.tool_name_param else None
    if isinstance(named, str):
        tools = [named]
    span = span_ir(item.span)
    base = item.name.parts[-1].text
    name = instance_name(base, info, config.get(info.instance_key or ""))
    return ir.MiddlewareSpec(
        name=name,
        declared=item.name.dotted,
        impl=info.impl,
        config=config,
        hooks=list(info.hooks),
        jumps={p: list(j) for p, j in info.jumps.items()},
        seats=list(info.seats),
        tools=[
            ir.ToolSpec(
                name=t,
                description=f"added by middleware `{item.name.dotted}`",
                parameters={"type": "object"},
                span=span,
            )
            for t in tools
        ],
        state=[_channel(d.name, d.type, d.visibility, span) for d in info.state],
        span=span,
        config_spans=config_spans(item.config),
    )


def config_spans(config: ast.MapLit | None) -> dict[str, ir.SourceSpan]:
    """Each written setting's span, and those of one level of keys inside a map setting
    (`interrupt_on.delete_file`), for review tools to point at the line that decides."""
    spans: dict[str, ir.SourceSpan] = {}
    for entry in config.entries if config else ():
        key = entry.key.text
        spans[key] = span_ir(entry.span)
        if isinstance(entry.value, ast.MapLit):
            for inner in entry.value.entries:
                spans[f"{key}.{inner.key.text}"] = span_ir(inner.span)
    return spans


def _channel(
    name: str,
    type_text: str,
    visibility: Visibility,
    span: ir.SourceSpan,
    schema: dict | None = None,
) -> ir.ChannelSpec:
    """A middleware's own channel; its visibility decides A5 input and the run's result."""
    return ir.ChannelSpec(
        name=name,
        type=ir.TypeSpec(display=type_text, json_schema=schema or {}),
        input=visibility.input,
        output=visibility.output,
        span=span,
    )


def _python_middleware(ctx: Ctx, item: ast.MiddlewareItem) -> ir.MiddlewareSpec:
    target = python_ref(ctx.unit, item.name)
    assert isinstance(target, PyTarget)
    if target.cls is not None and target.cls.kind is ClassKind.MIDDLEWARE:
        return _class_middleware(ctx, item, target, target.cls)
    assert target.function is not None, target
    return _hook_middleware(item, target, target.function)


def _class_middleware(
    ctx: Ctx, item: ast.MiddlewareItem, target: PyTarget, cls: PyClass
) -> ir.MiddlewareSpec:
    span = span_ir(item.span)
    impl = python_import(target)
    config = {
        e.key.text: to_json(e.value, ctx.value_env())
        for e in (item.config.entries if item.config else ())
    }
    return ir.MiddlewareSpec(
        name=cls.name,
        declared=impl.key,
        impl=impl,
        config=config,
        hooks=list(cls.hooks),
        jumps={p: [ir.JumpTarget(j) for j in js] for p, js in cls.jumps},
        tools=class_tools(target, cls, item.span),
        state=class_state(target, cls, span),
        span=span,
        config_spans=config_spans(item.config),
    )


def _hook_middleware(
    item: ast.MiddlewareItem, target: PyTarget, fn: PyFunction
) -> ir.MiddlewareSpec:
    """A decorated hook (`@before_model`, `@dynamic_prompt` …): one hook point."""
    impl = python_import(target)
    point = fn.hook_point
    deco = fn.decorator(point.value) if point is not None else None
    assert point is not None and deco is not None, "checked: a decorated hook"
    jumps = deco.kwarg("can_jump_to") or []
    return ir.MiddlewareSpec(
        name=deco.kwarg("name") or fn.name,
        declared=impl.key,
        impl=impl,
        hooks=[point],
        jumps={point: [ir.JumpTarget(j) for j in jumps]} if jumps else {},
        span=span_ir(item.span),
    )


def class_tools(target: PyTarget, cls: PyClass, span: ast.Span) -> list[ir.ToolSpec]:
    """An AgentMiddleware class's `tools = [f, …]`, read statically (functions of its
    module). `ref` is None: the runtime binds the middleware object's own tools by name."""
    out = []
    for name in cls.tool_names:
        if name in target.module.functions:
            found = PyTarget(target.unit, target.alias, name, target.module, target.use)
            out.append(tool_spec(found, span).model_copy(update={"ref": None}))
    return out


def class_state(target: PyTarget, cls: PyClass, span: ir.SourceSpan) -> list[ir.ChannelSpec]:
    """The fields of an AgentMiddleware class's `state_schema` (a class of its module),
    with LangChain's visibility markers (PrivateStateAttr, OmitFromInput/Output)."""
    schema = target.module.classes.get(cls.state_schema or "")
    if schema is None:
        return []
    return [
        _channel(f.name, f.annotation or "any", f.visibility, span, f.schema)
        for f in schema.fields
        if f.name not in AGENT_CHANNELS
    ]
