"""Lowering helpers shared by agent and graph blocks: models, tools, schemas, channels,
limits, checkpoints, the long-term store (I1) and interrupts. Input: checked AST pieces;
output: IR values.
"""

from __future__ import annotations

from collections.abc import Iterable

import agentc.ir as ir

from ..dsl import ast
from .context import Ctx, python_import
from .decls import span_ir
from .models import resolve_model
from .pyscan import object_schema
from .resolve import PyTarget
from .symbols import SymbolKind
from .typecheck import to_json
from .types import TyKind, json_schema, resolve_type

REDUCER_MODULE = "agentc.runtime.reducers"
# model_construct: a module-level constant must not build the schema at import (cold start)
ADD_MESSAGES = ir.ImportRef.model_construct(
    module="agentc.stdlib.messages", attr="add_messages", is_file=False, span=None
)


def model_spec(stmt: ast.ModelStmt) -> ir.ModelSpec:
    return model_from(stmt.spec, stmt.options, stmt.span)


def model_from(spec: ast.StringLit, options: ast.MapLit | None, span: ast.Span) -> ir.ModelSpec:
    found = resolve_model(spec.value, spec.span)
    assert isinstance(found, tuple), found
    provider, name = found
    opts = {e.key.text: to_json(e.value) for e in (options.entries if options else ())}
    return ir.ModelSpec(
        spec=spec.value, provider=provider, name=name, options=opts, span=span_ir(span)
    )


def tool_spec(target: PyTarget, span: ast.Span) -> ir.ToolSpec:
    """B11: name, description (docstring) and argument schema of a function tool; E4:
    injected parameters are left out of the schema and listed separately."""
    from .check_agent import tool_name

    fn = target.function
    deco = fn.decorator("tool")
    visible = [p for p in fn.params if p.injected is None]
    params = []
    for p in visible:
        schema = dict(p.schema)
        if p.description:
            schema["description"] = p.description
        params.append(
            type(p)(p.name, p.annotation, schema, p.required, p.default, None, p.description)
        )
    description = (deco.kwarg("description") if deco else None) or fn.doc or ""
    return ir.ToolSpec(
        name=tool_name(target),
        description=description,
        parameters=object_schema(None, None, params),
        ref=python_import(target),
        is_async=fn.is_async,
        return_direct=bool(deco and deco.kwarg("return_direct")),
        response_format=(
            deco.kwarg("response_format")
            if deco and deco.kwarg("response_format") in ("content", "content_and_artifact")
            else "content"
        ),
        injected=[p.injected for p in fn.params if p.injected is not None],
        span=span_ir(span),
    )


def schema_specs(ctx: Ctx) -> list[ir.SchemaSpec]:
    out = []
    for decl in ctx.unit.items(ast.SchemaDecl):
        if ctx.unit.symbols.get(decl.name.text) is None:
            continue
        out.append(
            ir.SchemaSpec(
                name=decl.name.text,
                json_schema=schema_json(ctx, decl),
                doc=decl.doc.value if decl.doc else None,
                span=span_ir(decl.span),
            )
        )
    return out


def schema_json(ctx: Ctx, decl: ast.SchemaDecl) -> dict:
    props, required = {}, []
    for f in decl.fields:
        ty = resolve_type(f.type, ctx.scope, _never)
        schema = json_schema(ty)
        if f.doc is not None:
            schema = {**schema, "description": f.doc.value}
        if f.default is not None:
            schema = {**schema, "default": to_json(f.default)}
        else:
            required.append(f.name.text)
        props[f.name.text] = schema
    out = {"type": "object", "title": decl.name.text}
    if decl.doc is not None:
        out["description"] = decl.doc.value
    out["properties"] = props
    if required:
        out["required"] = required
    refs = _schema_refs(ctx, decl)
    if refs:
        out["$defs"] = refs
    return out


def _schema_refs(ctx: Ctx, decl: ast.SchemaDecl, seen: frozenset = frozenset()) -> dict:
    """Nested schemas named by a field, inlined under `$defs` (cycles stop)."""
    defs = {}
    for f in decl.fields:
        for name in _named_schemas(f.type):
            sym = ctx.unit.symbols.get(name)
            if name in seen or name == decl.name.text or sym is None:
                continue
            if sym.kind is SymbolKind.SCHEMA:
                inner = schema_json(ctx, sym.decl)
                defs.update(inner.pop("$defs", {}))
                defs[name] = inner
    return defs


def _named_schemas(t: ast.TypeExpr) -> Iterable[str]:
    if isinstance(t, ast.NamedType):
        yield t.name.dotted
    for child in (
        getattr(t, "args", ())
        or getattr(t, "options", ())
        or ((t.inner,) if isinstance(t, ast.OptionalType) else ())
    ):
        yield from _named_schemas(child)


def _never(d) -> None:
    raise AssertionError(f"lowering met an unchecked type: {d.message}")


def channel(ctx: Ctx, f: ast.FieldDecl) -> ir.ChannelSpec:
    ty = resolve_type(f.type, ctx.scope, _never)
    reducer = None
    if ty.kind is TyKind.MESSAGES and f.reducer is None:
        reducer = ADD_MESSAGES  # B3
    elif f.reducer is not None and f.reducer.dotted == "add_messages":
        reducer = ADD_MESSAGES
    elif f.reducer is not None and f.reducer.dotted != "replace":
        reducer = ir.ImportRef(
            module=REDUCER_MODULE, attr=f.reducer.dotted, span=span_ir(f.reducer.span)
        )
    return ir.ChannelSpec(
        name=f.name.text,
        type=ir.TypeSpec(display=ty.display(), json_schema=json_schema(ty)),
        reducer=reducer,
        default=to_json(f.default) if f.default is not None else None,
        has_default=f.default is not None,
        span=span_ir(f.span),
    )


def limits_spec(stmt: ast.LimitsStmt | None, default_steps: int) -> ir.Limits:
    steps = ir.Bound(value=default_steps)
    timeout, extra = None, {}
    for e in stmt.entries.entries if stmt else ():
        value = to_json(e.value)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue  # `on_budget`, `prices`: settings of the budgets middleware only
        bound = ir.Bound(value=value, span=span_ir(e.span))
        if e.key.text == "steps":
            steps = bound
        elif e.key.text == "step_timeout":
            timeout = bound
        else:
            extra[e.key.text] = bound  # the budget amounts (drawn in legends)
    return ir.Limits(steps=steps, step_timeout_s=timeout, extra=extra)


def checkpoint_spec(stmt: ast.CheckpointStmt | None) -> ir.CheckpointSpec:
    if stmt is None:
        return ir.CheckpointSpec(kind=ir.CheckpointKind.NONE)
    v = stmt.value
    span = span_ir(stmt.span)
    if isinstance(v, ast.Call):
        path = next(a.value.value for a in v.args if a.name is None)
        durability = next(
            (a.value.value for a in v.args if a.name is not None and a.name.text == "durability"),
            None,
        )
        return ir.CheckpointSpec(
            kind=ir.CheckpointKind(v.callee.dotted), path=path, durability=durability, span=span
        )
    word = "none" if isinstance(v, ast.NoneLit) else v.dotted
    return ir.CheckpointSpec(kind=ir.CheckpointKind(word), span=span)


def store_spec(body: tuple) -> ir.StoreSpec | None:
    """I1: the block's `store …` line (checked: memory, none or sqlite("…")), or None."""
    stmt = next((s for s in body if isinstance(s, ast.SettingStmt) and s.key.text == "store"), None)
    if stmt is None:
        return None
    v, span = stmt.value, span_ir(stmt.span)
    if isinstance(v, ast.Call):
        return ir.StoreSpec(
            kind=ir.StoreKind(v.callee.dotted), path=v.args[0].value.value, span=span
        )
    word = "none" if isinstance(v, ast.NoneLit) else v.dotted
    return ir.StoreSpec(kind=ir.StoreKind(word), span=span)


def interrupt_specs(body: tuple) -> Iterable[ir.InterruptSpec]:
    for s in body:
        if isinstance(s, ast.InterruptStmt):
            for n in s.nodes:
                yield ir.InterruptSpec(
                    when=ir.InterruptWhen(s.when.text), node=n.text, span=span_ir(s.span)
                )
