"""Lowering of an `agent { … }` block: its settings → `AgentParts` → the template's graph.

Input: a checked `ast.AgentDecl` and its settings (`Ctx.agent_settings`). Output: the
`ir.Graph` `template.lower_agent` builds from the agent's model, prompt, tools (functions,
agents as tools (H1), provider tools (A8), MCP servers (A9)), structured output,
middleware (budgets from `limits` first, then the `middleware` block: middleware.py),
extra state, limits, checkpoint, store and interrupts.
Invariant: runs on checked input only, so it asserts instead of reporting.
"""

from __future__ import annotations

import agentc.ir as ir

from ...dsl import ast
from .. import defaults
from ..context import Ctx
from ..decls import span_ir
from ..resolve import GraphTarget, PyTarget, graph_ref, python_ref
from ..symbols import SymbolKind, use_alias
from ..template import AgentParts, lower_agent
from ..typecheck import to_json
from ..use_options import McpOptions, mcp_options
from .common import (
    Lowering,
    channels,
    checkpoint_spec,
    context_schema,
    interrupt_specs,
    limits_spec,
    model_spec,
    schema_name,
    store_spec,
    tool_spec,
    trace_spec,
)
from .middleware import budgets, middleware


def lower_agent_block(low: Lowering, ctx: Ctx, agent: ast.AgentDecl, name: str) -> ir.Graph:
    return lower_agent(agent_parts(low, ctx, agent, name))


def agent_parts(low: Lowering, ctx: Ctx, agent: ast.AgentDecl, name: str) -> AgentParts:
    s = ctx.agent_settings(agent)
    assert s.model is not None, "checked: an agent has a model"
    prompt = s.prompt.value if s.prompt is not None else None
    assert prompt is None or isinstance(prompt, ast.StringLit), prompt
    tools = _tool_items(s.tools)
    spec = ir.AgentSpec(
        model=model_spec(s.model, ctx.unit),
        prompt=prompt.value if prompt is not None else None,
        prompt_span=span_ir(s.prompt.span) if s.prompt is not None else None,
        tools=agent_tools(low, ctx, tools),
        provider_tools=provider_tools(tools),
        mcp_tools=_mcp_tools(ctx, tools),
        output=_output(low, ctx, s.output),
        middleware=budgets(s.limits) + middleware(ctx, s.middleware),
    )
    return AgentParts(
        name=name,
        spec=spec,
        span=span_ir(agent.span),
        state=tuple(channels(ctx, s.state)),
        limits=limits_spec(s.limits, ir.GraphKind.AGENT),
        checkpoint=checkpoint_spec(s.checkpoint, ctx.unit),
        interrupts=tuple(interrupt_specs(s.interrupts)),
        store=store_spec(s.store),
        trace=trace_spec(s.trace),
        context=context_schema(low, ctx, s.context),
        doc=agent.doc.value if agent.doc else None,
    )


def _tool_items(stmt: ast.ToolsStmt | None) -> tuple[ast.Expr, ...]:
    if stmt is None:
        return ()
    assert isinstance(stmt.value, ast.ListLit), stmt.value
    return stmt.value.items


def agent_tools(low: Lowering, ctx: Ctx, items: tuple[ast.Expr, ...]) -> list[ir.ToolSpec]:
    out = []
    for item in items:
        if isinstance(item, ast.MapLit):
            continue
        assert isinstance(item, ast.Ref), item
        if item.parts[0].text in ctx.unit.mcp:
            continue
        if item.parts[0].text in ctx.unit.python:
            target = python_ref(ctx.unit, item)
            assert isinstance(target, PyTarget)
            out.append(tool_spec(target, item.span))
        else:  # H1: an agent used as a tool
            found = graph_ref(ctx.unit, item, (SymbolKind.AGENT,))
            assert isinstance(found, GraphTarget)
            out.append(agent_tool(low, found, item.span))
    return out


def agent_tool(low: Lowering, target: GraphTarget, span: ast.Span) -> ir.ToolSpec:
    decl = target.symbol.decl
    assert isinstance(decl, ast.AgentDecl), decl
    return ir.ToolSpec(
        name=target.symbol.name,
        description=decl.doc.value if decl.doc else "",
        parameters={
            "type": "object",
            "properties": {"request": {"type": "string"}},
            "required": ["request"],
        },
        agent=low.need_graph(target),
        span=span_ir(span),
    )


def _mcp_tools(ctx: Ctx, items: tuple[ast.Expr, ...]) -> list[ir.McpToolRef]:
    """A9: `server` keeps every tool the server lists; `server.name` one of them; each
    with the deadlines its `use` line gives (None: the client's defaults)."""
    uses = {use_alias(u): u for u in ctx.unit.items(ast.UseDecl)}
    out = []
    for item in items:
        if isinstance(item, ast.Ref) and item.parts[0].text in ctx.unit.mcp:
            server = item.parts[0].text
            tool = item.parts[1].text if len(item.parts) == 2 else ir.MCP_ALL_TOOLS
            options = mcp_options(uses[server])[0] if server in uses else McpOptions()
            out.append(
                ir.McpToolRef(
                    server=server,
                    url=ctx.unit.mcp[server],
                    tool=tool,
                    timeout_s=options.timeout_s,
                    connect_timeout_s=options.connect_timeout_s,
                    span=span_ir(item.span),
                )
            )
    return out


def provider_tools(items: tuple[ast.Expr, ...]) -> list[ir.ProviderToolSpec]:
    return [
        ir.ProviderToolSpec(definition=to_json(i), span=span_ir(i.span))
        for i in items
        if isinstance(i, ast.MapLit)
    ]


def _output(low: Lowering, ctx: Ctx, stmt: ast.OutputStmt | None) -> ir.OutputSpec | None:
    if stmt is None:
        return None
    items = stmt.schema.items if isinstance(stmt.schema, ast.ListLit) else (stmt.schema,)
    names = [schema_name(low, ctx, i) for i in items]
    options = {e.key.text: to_json(e.value) for e in (stmt.options.entries if stmt.options else ())}
    strategy = ir.OutputStrategy(stmt.strategy.text) if stmt.strategy else defaults.OUTPUT_STRATEGY
    return ir.OutputSpec(schemas=names, strategy=strategy, span=span_ir(stmt.span), **options)
