"""Lowering shared by agent and graph blocks: the program being built (`Lowering`),
models, function tools, schemas, state channels, limits, checkpoints, the long-term store
(I1) and interrupts.

Input: checked AST pieces (a block's settings from settings.py). Output: IR values.
Invariant: runs on error-free input only, so it asserts instead of reporting.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import agentc.ir as ir

from ...dsl import ast
from ...dsl.diagnostics import Diagnostic
from .. import defaults
from ..check.trace import trace_target
from ..context import Ctx, python_import
from ..decls import span_ir
from ..models import model_factory, resolve_model
from ..pyscan import PyParam, object_schema
from ..resolve import GraphTarget, PyTarget, python_ref
from ..symbols import FileUnit, SymbolKind
from ..typecheck import to_json
from ..types import TyKind, json_schema, resolve_type

REDUCER_MODULE = "agentc.runtime.reducers"
Durability = Literal["sync", "async", "exit"]  # F11, as `ir.CheckpointSpec.durability`


@dataclass
class Lowering:
    """The program being lowered: its schemas and graphs so far, and the graphs other
    files declare that it still needs (an agent used as a tool, a subgraph node)."""

    ctx_for: Callable[[FileUnit], Ctx]
    schemas: dict[str, ir.SchemaSpec] = field(default_factory=dict)
    graphs: dict[str, ir.Graph] = field(default_factory=dict)
    pending: list[GraphTarget] = field(default_factory=list)

    def need_graph(self, target: GraphTarget) -> str:
        name = target.qualified
        if name not in self.graphs and all(t.qualified != name for t in self.pending):
            self.pending.append(target)
        return name


# ---------------------------------------------------------------- models and tools


def model_spec(stmt: ast.ModelStmt, unit: FileUnit) -> ir.ModelSpec:
    if isinstance(stmt.spec, ast.Ref):  # a Python factory: provider `python`, named by its ref
        target = model_factory(unit, stmt.spec)
        assert isinstance(target, PyTarget), target
        return ir.ModelSpec(
            spec=stmt.spec.dotted,
            provider="python",
            name=target.attr,
            options=_options(stmt.options),
            factory=python_import(target),
            span=span_ir(stmt.span),
        )
    assert isinstance(stmt.spec, ast.StringLit), stmt.spec
    return model_from(stmt.spec, stmt.options, stmt.span)


def model_from(spec: ast.StringLit, options: ast.MapLit | None, span: ast.Span) -> ir.ModelSpec:
    found = resolve_model(spec.value, spec.span)
    assert isinstance(found, tuple), found
    provider, name = found
    return ir.ModelSpec(
        spec=spec.value, provider=provider, name=name, options=_options(options), span=span_ir(span)
    )


def _options(options: ast.MapLit | None) -> dict[str, Any]:
    return {e.key.text: to_json(e.value) for e in (options.entries if options else ())}


def tool_spec(target: PyTarget, span: ast.Span) -> ir.ToolSpec:
    """B11: name, description (docstring) and argument schema of a function tool; E4:
    injected parameters are left out of the schema and listed separately."""
    fn = target.function
    assert fn is not None, target
    deco = fn.decorator("tool")
    params = [
        dataclasses.replace(p, schema=_param_schema(p)) for p in fn.params if p.injected is None
    ]
    description = (deco.kwarg("description") if deco else None) or fn.doc or ""
    response_format = deco.kwarg("response_format") if deco else None
    return ir.ToolSpec(
        name=target.tool_name,
        description=description,
        parameters=object_schema(None, None, params),
        ref=python_import(target),
        is_async=fn.is_async,
        return_direct=bool(deco and deco.kwarg("return_direct")),
        response_format=response_format
        if response_format in ("content", "content_and_artifact")
        else "content",
        injected=[p.injected for p in fn.params if p.injected is not None],
        span=span_ir(span),
    )


def _param_schema(p: PyParam) -> dict[str, Any]:
    schema = dict(p.schema)
    if p.description:
        schema["description"] = p.description
    return schema


# ---------------------------------------------------------------- schemas


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


def schema_name(low: Lowering, ctx: Ctx, ref: ast.Expr) -> str:
    """The Program.schemas name of an output schema; Python classes are added on demand."""
    assert isinstance(ref, ast.Ref), ref
    if ref.parts[0].text not in ctx.unit.python:
        return ctx.unit.qualify(ref.dotted) if ctx.unit.prefix else ref.dotted
    target = python_ref(ctx.unit, ref)
    assert isinstance(target, PyTarget) and target.cls is not None
    name = ref.dotted
    if name not in low.schemas:
        low.schemas[name] = ir.SchemaSpec(
            name=name,
            json_schema=target.cls.json_schema(),
            ref=python_import(target),
            doc=target.cls.doc,
            span=span_ir(ref.span),
        )
    return name


def context_schema(low: Lowering, ctx: Ctx, stmt: ast.SettingStmt | None) -> str | None:
    """`context Ctx`: the Program.schemas name of a block's run-context schema."""
    return schema_name(low, ctx, stmt.value) if stmt is not None else None


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
    out: dict = {"type": "object", "title": decl.name.text}
    if decl.doc is not None:
        out["description"] = decl.doc.value
    out["properties"] = props
    if required:
        out["required"] = required
    refs = _schema_refs(ctx, decl)
    if refs:
        out["$defs"] = refs
    return out


def _schema_refs(ctx: Ctx, decl: ast.SchemaDecl) -> dict:
    """Nested schemas named by a field, inlined under `$defs` (a schema naming itself
    stops there)."""
    defs = {}
    for f in decl.fields:
        for name in _named_schemas(f.type):
            sym = ctx.unit.symbols.get(name)
            if name == decl.name.text or sym is None:
                continue
            if sym.kind is SymbolKind.SCHEMA:
                assert isinstance(sym.decl, ast.SchemaDecl)
                inner = schema_json(ctx, sym.decl)
                defs.update(inner.pop("$defs", {}))
                defs[name] = inner
    return defs


def _named_schemas(t: ast.TypeExpr) -> Iterable[str]:
    if isinstance(t, ast.NamedType):
        yield t.name.dotted
        return
    children: tuple[ast.TypeExpr, ...] = ()
    if isinstance(t, ast.GenericType):
        children = t.args
    elif isinstance(t, ast.UnionType):
        children = t.options
    elif isinstance(t, ast.OptionalType):
        children = (t.inner,)
    for child in children:
        yield from _named_schemas(child)


def _never(d: Diagnostic) -> None:
    raise AssertionError(f"lowering met an unchecked type: {d.message}")


# ---------------------------------------------------------------- state and run settings


def channel(ctx: Ctx, f: ast.FieldDecl) -> ir.ChannelSpec:
    ty = resolve_type(f.type, ctx.scope, _never)
    reducer = None
    if ty.kind is TyKind.MESSAGES and f.reducer is None:
        reducer = defaults.MESSAGES_REDUCER  # B3
    elif f.reducer is not None and f.reducer.dotted == "add_messages":
        reducer = defaults.MESSAGES_REDUCER
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


def channels(ctx: Ctx, state: ast.StateStmt | None) -> list[ir.ChannelSpec]:
    return [channel(ctx, f) for f in state.fields] if state else []


def limits_spec(stmt: ast.LimitsStmt | None, kind: ir.GraphKind) -> ir.Limits:
    """F1, F2 and the budget amounts of a `limits` line; the defaults without one."""
    if stmt is None:
        return defaults.limits(kind)
    steps = ir.Bound(value=defaults.STEPS[kind])
    timeout, extra = None, {}
    for e in stmt.entries.entries:
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


def checkpoint_spec(stmt: ast.CheckpointStmt | None, unit: FileUnit) -> ir.CheckpointSpec:
    if stmt is None:
        return defaults.checkpoint()
    v = stmt.value
    span = span_ir(stmt.span)
    if isinstance(v, ast.Call):
        path = next((_string(a.value) for a in v.args if a.name is None), None)
        durability: Durability | None = next(
            (
                _durability(a.value)
                for a in v.args
                if a.name is not None and a.name.text == "durability"
            ),
            None,
        )
        types = next((a.value for a in v.args if a.name and a.name.text == "types"), None)
        return ir.CheckpointSpec(
            kind=ir.CheckpointKind(v.callee.dotted),
            path=path,
            url_env=_url_env(v),
            durability=durability,
            types=None if types is None else _type_refs(types, unit),
            span=span,
        )
    return ir.CheckpointSpec(kind=ir.CheckpointKind(_word(v)), span=span)


def _type_refs(value: ast.Expr, unit: FileUnit) -> list[ir.ImportRef]:
    """D6: each `types` entry as the class it names (checked: a list of classes)."""
    assert isinstance(value, ast.ListLit), value
    refs = []
    for item in value.items:
        if isinstance(item, ast.StringLit):
            module, _, attr = item.value.partition(":")
            refs.append(ir.ImportRef(module=module, attr=attr, span=span_ir(item.span)))
        else:
            assert isinstance(item, ast.Ref), item
            target = python_ref(unit, item)
            assert isinstance(target, PyTarget), target
            refs.append(python_import(target))
    return refs


def store_spec(stmt: ast.SettingStmt | None) -> ir.StoreSpec | None:
    """I1: the block's `store …` line (checked: memory, none, sqlite("…") or postgres(…)),
    or None."""
    if stmt is None:
        return None
    v, span = stmt.value, span_ir(stmt.span)
    if isinstance(v, ast.Call):
        path = next((_string(a.value) for a in v.args if a.name is None), None)
        kind = ir.StoreKind(v.callee.dotted)
        return ir.StoreSpec(kind=kind, path=path, url_env=_url_env(v), span=span)
    return ir.StoreSpec(kind=ir.StoreKind(_word(v)), span=span)


def trace_spec(stmt: ast.SettingStmt | None) -> ir.TraceSpec | None:
    """The block's `trace …` line (checked: check/trace.py reads it the same way), or None."""
    if stmt is None:
        return None
    line = trace_target(stmt)
    return ir.TraceSpec(target=line.target, content=line.content, span=span_ir(stmt.span))


def _url_env(call: ast.Call) -> str | None:
    """`postgres(url_env: "NAME")`: the variable that holds the connection string."""
    return next((_string(a.value) for a in call.args if a.name and a.name.text == "url_env"), None)


def _string(expr: ast.Expr) -> str:
    assert isinstance(expr, ast.StringLit), expr
    return expr.value


def _durability(expr: ast.Expr) -> Durability:
    text = _string(expr)
    assert text in ("sync", "async", "exit"), text  # checked (F11)
    return text


def _word(expr: ast.Expr) -> str:
    """`none` (the literal) or a bare word such as `memory`."""
    if isinstance(expr, ast.NoneLit):
        return "none"
    assert isinstance(expr, ast.Ref), expr
    return expr.dotted


def interrupt_specs(interrupts: Iterable[ast.InterruptStmt]) -> list[ir.InterruptSpec]:
    return [
        ir.InterruptSpec(when=ir.InterruptWhen(s.when.text), node=n.text, span=span_ir(s.span))
        for s in interrupts
        for n in s.nodes
    ]
