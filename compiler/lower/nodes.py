"""Lowering of a graph block's `node` declarations into `ir.NodeSpec`s.

Input: a checked `ast.NodeDecl` and its graph's `StateView`. Output: the node with its
factory (`impl`), its typed config as JSON — `ir.ModelNodeConfig` for `model(…)`,
`ir.ToolNodeConfig` for `tools(…)`, `ir.SubgraphNodeConfig` for `agent(…)` /
`subgraph(…)`, nothing for `python(…)` — and its options (retry, timeout, cache, defer,
goto, input schema). The config is the typed model as JSON (`ir.dump_json`, what
`model_dump(mode="json")` gives), so the factory's `model_validate` reads back exactly what
was checked here.
Invariant: runs on checked input only, so it asserts instead of reporting.
"""

from __future__ import annotations

from typing import Any

import agentc.ir as ir

from ...dsl import ast
from .. import defaults
from ..channels import StateView, answer_kind
from ..context import Ctx, python_import
from ..decls import span_ir
from ..model_args import ModelArgs, into, read_model_args, reads
from ..model_args import word as strategy_word
from ..models import resolve_model
from ..prompts import parse_template
from ..resolve import GraphTarget, PyTarget, graph_ref, python_ref
from ..settings import BOUNDARY
from ..symbols import SymbolKind
from ..typecheck import to_json
from .agent import agent_tools, provider_tools
from .common import Lowering, model_spec, schema_name, tool_spec

NODES_IMPL = "agentc.stdlib.nodes"
# constructed, not validated (every field given, of its type): no schema built at import
SUBGRAPH_IMPL = ir.ImportRef.model_construct(module="agentc.runtime.subgraph", attr="subgraph_node")
Config = tuple[ir.ImportRef, dict[str, Any]]


def lower_node(low: Lowering, ctx: Ctx, decl: ast.NodeDecl, view: StateView) -> ir.NodeSpec:
    call, kind = decl.value, decl.value.callee.dotted
    if kind == "model":
        impl, config = _model_node(low, ctx, call, view)
    elif kind == "tools":
        impl, config = _tools_node(ctx, call)
    elif kind == "python":
        impl, config = python_import(python_target(ctx, call)), {}
    else:
        impl, config = _graph_node(low, ctx, call)
    opts = {e.key.text: e.value for e in (decl.options.entries if decl.options else ())}
    return ir.NodeSpec(
        name=decl.name.text,
        kind=ir.NodeKind(kind),
        impl=impl,
        config=config,
        retry=ir.RetryPolicy(**to_json(opts["retry"])) if "retry" in opts else None,
        timeout_s=to_json(opts["timeout"]) if "timeout" in opts else None,
        span=span_ir(decl.span),
        cache=_cache(opts.get("cache")),
        defer=bool(to_json(opts["defer"])) if "defer" in opts else False,
        goto=_goto(opts["goto"]) if "goto" in opts else None,
        input_schema=schema_name(low, ctx, opts["input"]) if "input" in opts else None,
    )


def end_name(name: str) -> str:
    return BOUNDARY.get(name, name)


def _cache(value: ast.Expr | None) -> ir.CachePolicy | None:
    if value is None or (isinstance(value, ast.BoolLit) and not value.value):
        return None
    if isinstance(value, ast.BoolLit):
        return ir.CachePolicy()
    ttl = to_json(value).get("ttl")
    return ir.CachePolicy(ttl_s=ttl)


def _goto(value: ast.Expr) -> list[str]:
    assert isinstance(value, ast.ListLit), value
    return [end_name(item.dotted) for item in value.items if isinstance(item, ast.Ref)]


# ---------------------------------------------------------------- model nodes


def _model_node(low: Lowering, ctx: Ctx, call: ast.Call, view: StateView) -> Config:
    args = read_model_args(call)
    target = into(args, view)
    channel = view.get(target) if target is not None else None
    assert target is not None and channel is not None, "checked: the answer has a channel"
    output = args.value("output")
    kind = answer_kind(channel, output.dotted if isinstance(output, ast.Ref) else None)
    assert isinstance(kind, ir.AnswerKind), kind
    items = _tool_items(args)
    config = ir.ModelNodeConfig(
        model=_model_spec(ctx, call, args),
        prompt=_template(ctx, args.value("prompt")),
        input=_template(ctx, args.value("input")),
        messages=reads(args, view),
        into=target,
        answer=kind,
        tools=agent_tools(low, ctx, items),
        provider_tools=[p.definition for p in provider_tools(items)],
        output=_output(low, ctx, args),
        span=span_ir(call.span),
    )
    return ir.ImportRef(module=NODES_IMPL, attr="model_node"), ir.dump_json(config)


def _model_spec(ctx: Ctx, call: ast.Call, args: ModelArgs) -> ir.ModelSpec:
    if args.factory is not None:  # built as the agent form `model tools.make { … }` is
        stmt = ast.ModelStmt(
            spec=args.factory, options=args.option_map(call.span), span=args.factory.span
        )
        return model_spec(stmt, ctx.unit)
    spec = args.spec
    assert spec is not None, "checked: one model string"
    found = resolve_model(spec.value, spec.span)
    assert isinstance(found, tuple), found
    options = {a.name.text: to_json(a.value) for a in args.options if a.name is not None}
    return ir.ModelSpec(
        spec=spec.value, provider=found[0], name=found[1], options=options, span=span_ir(spec.span)
    )


def _template(ctx: Ctx, value: ast.Expr | None) -> ir.Template | None:
    if value is None:
        return None
    assert isinstance(value, ast.StringLit), value
    return parse_template(value, ctx.unit.source).to_ir(span_ir(value.span))


def _tool_items(args: ModelArgs) -> tuple[ast.Expr, ...]:
    value = args.value("tools")
    if value is None:
        return ()
    assert isinstance(value, ast.ListLit), value
    return value.items


def _output(low: Lowering, ctx: Ctx, args: ModelArgs) -> ir.OutputSpec | None:
    arg = args.named.get("output")
    if arg is None:
        return None
    word = strategy_word(args.value("via"))
    return ir.OutputSpec(
        schemas=[schema_name(low, ctx, arg.value)],
        strategy=ir.OutputStrategy(word) if word else defaults.OUTPUT_STRATEGY,
        span=span_ir(arg.span),
    )


# ---------------------------------------------------------------- other kinds


def _only_arg(call: ast.Call) -> ast.Expr:
    return next(a.value for a in call.args if a.name is None)


def python_target(ctx: Ctx, call: ast.Call) -> PyTarget:
    ref = _only_arg(call)
    assert isinstance(ref, ast.Ref), ref
    target = python_ref(ctx.unit, ref)
    assert isinstance(target, PyTarget)
    return target


def _tools_node(ctx: Ctx, call: ast.Call) -> Config:
    listed = _only_arg(call)
    assert isinstance(listed, ast.ListLit), listed
    tools = []
    for item in listed.items:
        if isinstance(item, ast.MapLit):
            continue
        assert isinstance(item, ast.Ref), item
        target = python_ref(ctx.unit, item)
        assert isinstance(target, PyTarget)
        tools.append(tool_spec(target, item.span))
    messages = next(
        (a.value.dotted for a in call.args if a.name is not None and isinstance(a.value, ast.Ref)),
        "messages",
    )
    config = ir.ToolNodeConfig(tools=tools, messages=messages, span=span_ir(call.span))
    return ir.ImportRef(module=NODES_IMPL, attr="tool_node"), ir.dump_json(config)


def _graph_node(low: Lowering, ctx: Ctx, call: ast.Call) -> Config:
    ref = _only_arg(call)
    assert isinstance(ref, ast.Ref), ref
    target = graph_ref(ctx.unit, ref, (SymbolKind.AGENT, SymbolKind.GRAPH))
    assert isinstance(target, GraphTarget)
    maps = {a.name.text: _channel_map(a.value) for a in call.args if a.name is not None}
    config = ir.SubgraphNodeConfig(
        graph=low.need_graph(target), input=maps.get("input"), output=maps.get("output")
    )
    return SUBGRAPH_IMPL, ir.dump_json(config)


def _channel_map(value: ast.Expr) -> dict[str, str]:
    assert isinstance(value, ast.MapLit), value
    return {e.key.text: _ref_text(e.value) for e in value.entries}


def _ref_text(value: ast.Expr) -> str:
    assert isinstance(value, ast.Ref), value
    return value.dotted
