"""Checks of one `agent { … }` block (the create_agent template's settings).

Input: `Ctx` and an `ast.AgentDecl` (its settings read once by `Ctx.agent_settings`).
Output: diagnostics for settings written twice, the model (A1/A2), the prompt, tools
(tools.py), structured output (schema, strategy, options), middleware (middleware.py),
state, limits and budgets, checkpoint, store, interrupts and unknown settings.
Invariant: the AST is only read; every rule reports and carries on.
"""

from __future__ import annotations

from collections.abc import Iterator

import agentc.ir as ir

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ..budgets import AMOUNTS, asks, budget_entries
from ..budgets import MIDDLEWARE_NAME as BUDGETS_NAME
from ..context import Ctx, prelude_decls
from ..models import check_factory, check_model_name, resolve_model
from ..settings import (
    AGENT_CHANNELS,
    CONTEXT,
    STATEMENT_WORDS,
    STORE,
    TRACE,
    AgentSettings,
    duplicate_settings,
)
from ..suggest import did_you_mean
from ..typecheck import check_value, describe
from ..types import STR, Ty, prim, union
from .common import check_fields, check_schema_ref
from .graph_io import check_context
from .middleware import check_middleware, middleware_name
from .model_options import check_model_options, map_options
from .run_settings import (
    check_checkpoint,
    check_interrupt_checkpointer,
    check_interrupt_words,
    check_limits,
    check_store,
    has_checkpointer,
)
from .tools import ToolName, check_duplicate_tools, check_tools
from .trace import check_trace

STRATEGIES = tuple(s.value for s in ir.OutputStrategy)
OUTPUT_OPTIONS: dict[str, Ty] = {
    "handle_errors": union([prim("bool"), STR]),
    "tool_message_content": STR,
    "strict": prim("bool"),
}


def check_agent(ctx: Ctx, agent: ast.AgentDecl) -> Iterator[Diagnostic]:
    settings = ctx.agent_settings(agent)
    yield from duplicate_settings(settings.repeated)
    if settings.model is None:
        yield error(
            Code.MISSING_MODEL,
            f"agent `{agent.name.text}` has no model",
            agent.name.span,
            "no `model` in this agent",
            help='add a line such as `model "openai:gpt-4o-mini"`',
        )
    tools: list[ToolName] = []
    for stmt in agent.body:  # every statement as written, a repeated one too
        yield from _check_stmt(ctx, stmt, tools)
    saves = has_checkpointer(settings.checkpoint) or _saved_by_caller(ctx, agent, settings)
    if settings.middleware is not None:
        yield from check_middleware(ctx, settings.middleware, saves, tools)
    yield from check_duplicate_tools(tools)
    if settings.store is not None:
        yield from check_store(settings.store)
    if settings.trace is not None:
        yield from check_trace(settings.trace)
    yield from check_interrupt_checkpointer(settings.interrupts, settings.checkpoint)
    yield from check_limit_budgets(ctx, settings)


def _saved_by_caller(ctx: Ctx, agent: ast.AgentDecl, settings: AgentSettings) -> bool:
    """H3: an agent with no `checkpoint` line that another agent of the file uses as a tool
    saves into that caller's checkpointer, so its reviews can pause and resume there."""
    if settings.checkpoint is not None:  # its own line, `checkpoint none` included, decides
        return False
    name = agent.name.text
    for caller in ctx.unit.items(ast.AgentDecl):
        theirs = ctx.agent_settings(caller)
        if caller is agent or theirs.tools is None or not has_checkpointer(theirs.checkpoint):
            continue
        value = theirs.tools.value
        items = value.items if isinstance(value, ast.ListLit) else (value,)
        if any(isinstance(i, ast.Ref) and i.dotted == name for i in items):
            return True
    return False


def check_limit_budgets(ctx: Ctx, settings: AgentSettings) -> Iterator[Diagnostic]:
    """Budgets in `limits` become the `budgets` middleware: not twice, and `ask` pauses."""
    entries = budget_entries(settings.limits)
    if not any(e.key.text in AMOUNTS for e in entries):
        return
    mws = settings.middleware
    for item in mws.items if mws else ():
        if middleware_name(ctx, item) == BUDGETS_NAME:
            yield error(
                Code.DUPLICATE_MIDDLEWARE,
                "budgets are set twice",
                item.name.span,
                "a `budgets` middleware here",
                secondary=(Label(entries[0].span, "and budgets in `limits` here"),),
                notes=("budgets in `limits` stand for the `budgets` middleware",),
                help="keep one: the `limits` keys or the middleware entry",
            )
    ask = asks(entries)
    if ask is not None and not has_checkpointer(settings.checkpoint):
        yield error(
            Code.REVIEW_NO_CHECKPOINT,
            '`on_budget: "ask"` needs a checkpointer',
            ask.value.span,
            "asks a person, but nothing saves the paused run",
            notes=("a spent budget interrupts the run; resuming reads the checkpoint",),
            help='add `checkpoint memory` or `checkpoint sqlite("…")` to the agent',
        )


def _check_stmt(ctx: Ctx, stmt: ast.AgentStmt, tools: list[ToolName]) -> Iterator[Diagnostic]:
    if isinstance(stmt, ast.ModelStmt):
        yield from check_model_stmt(stmt, ctx)
    elif isinstance(stmt, ast.PromptStmt):
        if not isinstance(stmt.value, ast.StringLit):
            yield error(
                Code.TYPE_MISMATCH,
                f"expected a string, found {describe(stmt.value)}",
                stmt.value.span,
                "the prompt must be a string",
            )
    elif isinstance(stmt, ast.ToolsStmt):
        yield from check_tools(ctx, stmt, tools)
    elif isinstance(stmt, ast.OutputStmt):
        yield from check_output(ctx, stmt)
    elif isinstance(stmt, ast.StateStmt):
        yield from check_fields(ctx, stmt.fields, allow_reducers=True, reserved=AGENT_CHANNELS)
    elif isinstance(stmt, ast.LimitsStmt):
        yield from check_limits(stmt, budgets=True)
    elif isinstance(stmt, ast.CheckpointStmt):
        yield from check_checkpoint(stmt, ctx.unit)
    elif isinstance(stmt, ast.InterruptStmt):
        yield from check_interrupt_words(stmt)
    elif isinstance(stmt, ast.SettingStmt):
        yield from check_setting(ctx, stmt)
    # a MiddlewareStmt: the first is checked by check_middleware, a repeated one reported


def check_model_stmt(stmt: ast.ModelStmt, ctx: Ctx) -> Iterator[Diagnostic]:
    if isinstance(stmt.spec, ast.Ref):  # `model tools.make_model { … }`: a Python factory
        yield from check_factory(ctx.unit, stmt.spec, stmt.options)
        return
    if not isinstance(stmt.spec, ast.StringLit):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a model string, found {describe(stmt.spec)}",
            stmt.spec.span,
            'expected "provider:model", or `module.factory` from a `use`d Python module',
        )
        return
    found = resolve_model(stmt.spec.value, stmt.spec.span)
    if isinstance(found, Diagnostic):
        yield found
        return
    typo = check_model_name(*found, stmt.spec.span)
    if typo is not None:
        yield typo
    yield from check_model_options(found[0], map_options(stmt.options))


def check_setting(ctx: Ctx, stmt: ast.SettingStmt) -> Iterator[Diagnostic]:
    """A `key value` line: a parameter of the prelude's `template agent`."""
    template = prelude_decls()["agent"]
    key = stmt.key.text
    if key in (STORE, TRACE):
        return  # check_store, check_trace
    if key == CONTEXT:
        yield from check_context(ctx, stmt)
        return
    param = template.params.get(key)
    if param is None or key in STATEMENT_WORDS:
        yield error(
            Code.UNKNOWN_SETTING,
            f"agents have no setting `{key}`",
            stmt.key.span,
            "unknown setting",
            help=did_you_mean(key, template.params),
        )
        return
    yield from check_value(stmt.value, param.ty, ctx.value_env())


def check_output(ctx: Ctx, stmt: ast.OutputStmt) -> Iterator[Diagnostic]:
    items = stmt.schema.items if isinstance(stmt.schema, ast.ListLit) else (stmt.schema,)
    for item in items:
        yield from check_schema_ref(ctx, item)
    if stmt.strategy is not None and stmt.strategy.text not in STRATEGIES:
        yield error(
            Code.UNKNOWN_STRATEGY,
            f"unknown output strategy `{stmt.strategy.text}`",
            stmt.strategy.span,
            "expected tool, provider or auto",
            help=did_you_mean(stmt.strategy.text, STRATEGIES),
        )
    for entry in stmt.options.entries if stmt.options else ():
        ty = OUTPUT_OPTIONS.get(entry.key.text)
        if ty is None:
            yield error(
                Code.UNKNOWN_PARAM,
                f"`output` has no option `{entry.key.text}`",
                entry.key.span,
                "unknown option",
                help=did_you_mean(entry.key.text, OUTPUT_OPTIONS),
            )
        else:
            yield from check_value(entry.value, ty, ctx.value_env())
