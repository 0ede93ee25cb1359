"""Lowering: checked AST + symbols → `ir.Program`.

Input: the root `FileUnit` (and the units it uses) after resolve and check reported no
errors. Output: an `ir.Program` with the root's schemas and graphs in declaration order,
followed by every graph they reference from other files (qualified `alias.name`). Runs only
on error-free input, so it asserts instead of reporting.

Choices the IR leaves open (see also ir/__init__.py's docstring):
- graph-block nodes: model/tools nodes use the factories `agentc.stdlib.nodes:model_node` /
  `:tool_node` with their settings in `config`; agent/subgraph nodes use
  `agentc.runtime.subgraph:subgraph_node` with `config {"graph": "<qualified name>"}`.
- reducers: `messages` channels get `agentc.stdlib.messages:add_messages`; `reduce append |
  merge | add` name `agentc.runtime.reducers:<name>`; `replace` is last-value (None).
- `hook before X = python(f)` becomes a python node `f.before_X` spliced in front of X
  (every edge and route into X now enters the hook node, which flows into X); `hook after
  X` a node `f.after_X` between X and X's successors. `hook before_model` etc. without a
  node applies to every model node; `wrap_model_call`/`wrap_tool_call` hooks go in the
  model/tools nodes' `config["wrap"]`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import agentc.ir as ir

from ..dsl import ast
from .budgets import budget_middleware
from .check_agent import AGENT_CHANNELS
from .context import Ctx, prelude_decls, python_import
from .decls import instance_name, span_ir
from .lower_graph import lower_graph
from .lower_parts import (
    channel,
    checkpoint_spec,
    interrupt_specs,
    limits_spec,
    model_spec,
    schema_specs,
    store_spec,
    tool_spec,
)
from .pyscan import ClassKind, Visibility
from .resolve import GraphTarget, PyTarget, declaration, graph_ref, python_ref
from .symbols import FileUnit, SymbolKind
from .template import AgentParts, lower_agent
from .typecheck import to_json


@dataclass
class Lowering:
    ctx_for: callable
    schemas: dict[str, ir.SchemaSpec] = field(default_factory=dict)
    graphs: dict[str, ir.Graph] = field(default_factory=dict)
    pending: list[GraphTarget] = field(default_factory=list)

    def need_graph(self, target: GraphTarget) -> str:
        name = target.qualified
        if name not in self.graphs and all(t.qualified != name for t in self.pending):
            self.pending.append(target)
        return name


def lower_program(root: FileUnit, ctx_for) -> ir.Program:
    low = Lowering(ctx_for)
    ctx = ctx_for(root)
    for spec in schema_specs(ctx):
        low.schemas[spec.name] = spec
    for item in root.module.items:
        if isinstance(item, (ast.AgentDecl, ast.GraphDecl)):
            low.graphs[item.name.text] = _lower_item(low, ctx, item)
    while low.pending:
        target = low.pending.pop(0)
        if target.qualified not in low.graphs:
            low.graphs[target.qualified] = _lower_item(
                low, ctx_for(target.unit), target.symbol.decl
            )
    version = root.module.version.version if root.module.version else 1
    return ir.Program(
        language_version=version,
        source=ir.SourceRef(
            file=root.name, sha256=hashlib.sha256(root.source.text.encode("utf-8")).hexdigest()
        ),
        modules=[_module_spec(u) for u in root.items(ast.UseDecl)],
        schemas=list(low.schemas.values()),
        graphs=list(low.graphs.values()),
    )


def _module_spec(use: ast.UseDecl) -> ir.ModuleSpec:
    from .symbols import use_alias

    target = use.target.value
    if "://" in target:  # resolve accepted only http(s) URLs (A10)
        return ir.ModuleSpec(
            alias=use_alias(use),
            target=target,
            kind=ir.ModuleKind.MCP,
            is_file=False,
            span=span_ir(use.span),
        )
    kind = ir.ModuleKind.AGENT if target.endswith(".agent") else ir.ModuleKind.PYTHON
    is_file = target.endswith((".py", ".agent")) or "/" in target
    return ir.ModuleSpec(
        alias=use_alias(use), target=target, kind=kind, is_file=is_file, span=span_ir(use.span)
    )


def _lower_item(low: Lowering, ctx: Ctx, item) -> ir.Graph:
    name = ctx.unit.qualify(item.name.text)
    if isinstance(item, ast.GraphDecl):
        graph = lower_graph(ctx, item, name, low)
    else:
        graph = lower_agent(agent_parts(low, ctx, item, name))
    store = store_spec(item.body)  # I1: a setting line of both kinds of block
    return graph if store is None else graph.model_copy(update={"store": store})


# ---------------------------------------------------------------- agent blocks


def agent_parts(low: Lowering, ctx: Ctx, agent: ast.AgentDecl, name: str) -> AgentParts:
    stmts = {type(s): s for s in reversed(agent.body)}  # first of each kind wins
    spec = ir.AgentSpec(
        model=model_spec(stmts[ast.ModelStmt]),
        prompt=stmts[ast.PromptStmt].value.value if ast.PromptStmt in stmts else None,
        prompt_span=span_ir(stmts[ast.PromptStmt].span) if ast.PromptStmt in stmts else None,
        tools=_agent_tools(low, ctx, stmts.get(ast.ToolsStmt)),
        provider_tools=_provider_tools(stmts.get(ast.ToolsStmt)),
        mcp_tools=_mcp_tools(ctx, stmts.get(ast.ToolsStmt)),
        output=_output(low, ctx, stmts.get(ast.OutputStmt)),
        middleware=_budgets(stmts.get(ast.LimitsStmt))
        + _middleware(ctx, stmts.get(ast.MiddlewareStmt)),
    )
    state = stmts.get(ast.StateStmt)
    return AgentParts(
        name=name,
        spec=spec,
        span=span_ir(agent.span),
        state=tuple(channel(ctx, f) for f in state.fields) if state else (),
        limits=limits_spec(stmts.get(ast.LimitsStmt), default_steps=9999),  # F1
        checkpoint=checkpoint_spec(stmts.get(ast.CheckpointStmt)),
        interrupts=tuple(interrupt_specs(agent.body)),
        doc=agent.doc.value if agent.doc else None,
    )


def _agent_tools(low: Lowering, ctx: Ctx, stmt: ast.ToolsStmt | None) -> list[ir.ToolSpec]:
    out = []
    for item in stmt.value.items if stmt else ():
        if isinstance(item, ast.MapLit) or item.parts[0].text in ctx.unit.mcp:
            continue
        if item.parts[0].text in ctx.unit.python:
            target = python_ref(ctx.unit, item)
            assert isinstance(target, PyTarget)
            out.append(tool_spec(target, item.span))
        else:  # H1: an agent used as a tool
            target = graph_ref(ctx.unit, item, (SymbolKind.AGENT,))
            assert isinstance(target, GraphTarget)
            out.append(agent_tool(low, target, item.span))
    return out


def agent_tool(low: Lowering, target: GraphTarget, span: ast.Span) -> ir.ToolSpec:
    decl = target.symbol.decl
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


def _mcp_tools(ctx: Ctx, stmt: ast.ToolsStmt | None) -> list[ir.McpToolRef]:
    """A9: `server` keeps every tool the server lists; `server.name` one of them."""
    out = []
    for item in stmt.value.items if stmt else ():
        if isinstance(item, ast.Ref) and item.parts[0].text in ctx.unit.mcp:
            server = item.parts[0].text
            tool = item.parts[1].text if len(item.parts) == 2 else ir.MCP_ALL_TOOLS
            out.append(
                ir.McpToolRef(
                    server=server, url=ctx.unit.mcp[server], tool=tool, span=span_ir(item.span)
                )
            )
    return out


def _provider_tools(stmt: ast.ToolsStmt | None) -> list[ir.ProviderToolSpec]:
    return [
        ir.ProviderToolSpec(definition=to_json(i), span=span_ir(i.span))
        for i in (stmt.value.items if stmt else ())
        if isinstance(i, ast.MapLit)
    ]


def _output(low: Lowering, ctx: Ctx, stmt: ast.OutputStmt | None) -> ir.OutputSpec | None:
    if stmt is None:
        return None
    items = stmt.schema.items if isinstance(stmt.schema, ast.ListLit) else (stmt.schema,)
    names = [schema_name(low, ctx, i) for i in items]
    options = {e.key.text: to_json(e.value) for e in (stmt.options.entries if stmt.options else ())}
    strategy = ir.OutputStrategy(stmt.strategy.text) if stmt.strategy else ir.OutputStrategy.AUTO
    return ir.OutputSpec(schemas=names, strategy=strategy, span=span_ir(stmt.span), **options)


def schema_name(low: Lowering, ctx: Ctx, ref: ast.Ref) -> str:
    """The Program.schemas name of an output schema; Python classes are added on demand."""
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


# ---------------------------------------------------------------- middleware


def _budgets(limits: ast.LimitsStmt | None) -> list[ir.MiddlewareSpec]:
    """Budgets in `limits` lower to the prelude's `budgets` middleware, placed first."""
    spec = budget_middleware(limits, prelude_decls()["budgets"])
    return [spec] if spec is not None else []


def _middleware(ctx: Ctx, stmt: ast.MiddlewareStmt | None) -> list[ir.MiddlewareSpec]:
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
        name: to_json(given[name], env) if name in given else to_json(p.default)
        for name, p in info.params.items()
    }
    tools = list(info.tools)
    if info.tool_name_param and isinstance(config.get(info.tool_name_param), str):
        tools = [config[info.tool_name_param]]
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
        state=[_mw_channel(d.name, d.type, d.visibility, span) for d in info.state],
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


def _mw_channel(
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
    span = span_ir(item.span)
    impl = python_import(target)
    if target.cls is not None and target.cls.kind is ClassKind.MIDDLEWARE:
        cls = target.cls
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
            tools=class_tools(target, item.span),
            state=class_state(target, span),
            span=span,
            config_spans=config_spans(item.config),
        )
    fn = target.function
    point = fn.hook_point
    deco = fn.decorator(point.value)
    jumps = deco.kwarg("can_jump_to") or []
    hooks = [ir.HookPoint.WRAP_MODEL_CALL if point is ir.HookPoint.DYNAMIC_PROMPT else point]
    if point is ir.HookPoint.DYNAMIC_PROMPT:
        hooks = [ir.HookPoint.DYNAMIC_PROMPT]
    name = deco.kwarg("name") or fn.name
    return ir.MiddlewareSpec(
        name=name,
        declared=impl.key,
        impl=impl,
        hooks=hooks,
        jumps={point: [ir.JumpTarget(j) for j in jumps]} if jumps else {},
        span=span,
    )


def class_tools(target: PyTarget, span: ast.Span) -> list[ir.ToolSpec]:
    """An AgentMiddleware class's `tools = [f, …]`, read statically (functions of its
    module). `ref` is None: the runtime binds the middleware object's own tools by name."""
    out = []
    for name in target.cls.tool_names:
        if name in target.module.functions:
            found = PyTarget(target.unit, target.alias, name, target.module, target.use)
            out.append(tool_spec(found, span).model_copy(update={"ref": None}))
    return out


def class_state(target: PyTarget, span: ir.SourceSpan) -> list[ir.ChannelSpec]:
    """The fields of an AgentMiddleware class's `state_schema` (a class of its module),
    with LangChain's visibility markers (PrivateStateAttr, OmitFromInput/Output)."""
    schema = target.module.classes.get(target.cls.state_schema or "")
    if schema is None:
        return []
    return [
        _mw_channel(f.name, f.annotation or "any", f.visibility, span, f.schema)
        for f in schema.fields
        if f.name not in AGENT_CHANNELS
    ]
