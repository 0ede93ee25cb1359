"""Checks of one `agent { … }` block (the create_agent template's settings).

Input: `Ctx` and an `ast.AgentDecl`. Output: diagnostics for the model (A1/A2), tools
(B11 docstrings, A7 duplicate names, A8 provider tools, H1 agents as tools), structured
output (schema, strategy), middleware (declared or Python hooks; parameters; D9's
checkpointer), state, limits, interrupts and unknown settings.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import agentc.ir as ir

from ..dsl import ast
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, Label, error
from .budgets import AMOUNTS, asks, budget_entries
from .budgets import MIDDLEWARE_NAME as BUDGETS_NAME
from .check import (
    check_checkpoint,
    check_config,
    check_fields,
    check_interrupt_checkpointer,
    check_interrupt_words,
    check_limits,
    duplicate_stmts,
    has_checkpointer,
)
from .context import Ctx, prelude_decls
from .decls import instance_name
from .models import check_model_options, resolve_model
from .pyscan import ClassKind
from .resolve import MISSING, GraphTarget, PyTarget, declaration, graph_ref, python_ref
from .suggest import did_you_mean
from .symbols import SymbolKind
from .typecheck import check_value, describe
from .types import STR, Ty, prim, union

AGENT_CHANNELS = ("messages", "jump_to", "structured_response")
STRATEGIES = tuple(s.value for s in ir.OutputStrategy)
OUTPUT_OPTIONS: dict[str, Ty] = {
    "handle_errors": union([prim("bool"), STR]),
    "tool_message_content": STR,
    "strict": prim("bool"),
}
STORE_SETTING = "store"  # I1: `store memory | none | sqlite("…")`, a setting line
STORE_WORDS = tuple(k.value for k in ir.StoreKind if k is not ir.StoreKind.SQLITE)
STORE_CALLS = (ir.StoreKind.SQLITE.value,)
STATEMENT_SETTINGS = (
    "model",
    "prompt",
    "tools",
    "output",
    "middleware",
    "state",
    "limits",
    "interrupt",
    "checkpoint",
)


def check_agent(ctx: Ctx, agent: ast.AgentDecl) -> Iterator[Diagnostic]:
    body = agent.body
    yield from duplicate_stmts(
        body,
        (
            ast.ModelStmt,
            ast.PromptStmt,
            ast.ToolsStmt,
            ast.OutputStmt,
            ast.MiddlewareStmt,
            ast.StateStmt,
            ast.LimitsStmt,
            ast.CheckpointStmt,
        ),
        Code.DUPLICATE_SETTING,
        _stmt_word,
    )
    models = [s for s in body if isinstance(s, ast.ModelStmt)]
    if not models:
        yield error(
            Code.MISSING_MODEL,
            f"agent `{agent.name.text}` has no model",
            agent.name.span,
            "no `model` in this agent",
            help='add a line such as `model "openai:gpt-4o-mini"`',
        )
    tools: list[ToolName] = []
    for stmt in body:
        yield from _check_stmt(ctx, stmt, tools)
    mws = [s for s in body if isinstance(s, ast.MiddlewareStmt)][:1]
    for stmt in mws:
        yield from check_middleware(ctx, stmt, body, tools)
    yield from check_duplicate_tools(tools)
    yield from check_store_settings(body)
    yield from check_interrupt_checkpointer(body)
    yield from check_limit_budgets(ctx, body)


def check_limit_budgets(ctx: Ctx, body: tuple) -> Iterator[Diagnostic]:
    """Budgets in `limits` become the `budgets` middleware: not twice, and `ask` pauses."""
    limits = next((s for s in body if isinstance(s, ast.LimitsStmt)), None)
    entries = budget_entries(limits)
    if not any(e.key.text in AMOUNTS for e in entries):
        return
    mws = next((s for s in body if isinstance(s, ast.MiddlewareStmt)), None)
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
    if ask is not None and not has_checkpointer(body):
        yield error(
            Code.REVIEW_NO_CHECKPOINT,
            '`on_budget: "ask"` needs a checkpointer',
            ask.value.span,
            "asks a person, but nothing saves the paused run",
            notes=("a spent budget interrupts the run; resuming reads the checkpoint",),
            help='add `checkpoint memory` or `checkpoint sqlite("…")` to the agent',
        )


def _stmt_word(stmt) -> str:
    names = {
        ast.ModelStmt: "model",
        ast.PromptStmt: "prompt",
        ast.ToolsStmt: "tools",
        ast.OutputStmt: "output",
        ast.MiddlewareStmt: "middleware",
        ast.StateStmt: "state",
        ast.LimitsStmt: "limits",
        ast.CheckpointStmt: "checkpoint",
    }
    return names.get(type(stmt), type(stmt).__name__)


def _check_stmt(ctx: Ctx, stmt, tools: list) -> Iterator[Diagnostic]:
    if isinstance(stmt, ast.ModelStmt):
        yield from check_model_stmt(stmt)
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
        yield from check_checkpoint(stmt)
    elif isinstance(stmt, ast.InterruptStmt):
        yield from check_interrupt_words(stmt)
    elif isinstance(stmt, ast.SettingStmt):
        yield from check_setting(ctx, stmt)


def check_model_stmt(stmt: ast.ModelStmt) -> Iterator[Diagnostic]:
    if not isinstance(stmt.spec, ast.StringLit):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a model string, found {describe(stmt.spec)}",
            stmt.spec.span,
            'expected "provider:model"',
        )
        return
    found = resolve_model(stmt.spec.value, stmt.spec.span)
    if isinstance(found, Diagnostic):
        yield found
    if stmt.options is not None:
        yield from check_model_options((e.key, e.value) for e in stmt.options.entries)


def check_setting(ctx: Ctx, stmt: ast.SettingStmt) -> Iterator[Diagnostic]:
    template = prelude_decls()["agent"]
    key = stmt.key.text
    if key == STORE_SETTING:
        return  # checked by check_store_settings
    param = template.params.get(key)
    if param is None or key in STATEMENT_SETTINGS:
        yield error(
            Code.UNKNOWN_SETTING,
            f"agents have no setting `{key}`",
            stmt.key.span,
            "unknown setting",
            help=did_you_mean(key, template.params),
        )
        return
    yield from check_value(stmt.value, param.ty, ctx.value_env())


# ---------------------------------------------------------------- the long-term store (I1)


def store_settings(body: tuple) -> list[ast.SettingStmt]:
    """The `store …` lines of an agent or graph block, in order."""
    return [s for s in body if isinstance(s, ast.SettingStmt) and s.key.text == STORE_SETTING]


def check_store_settings(body: tuple) -> Iterator[Diagnostic]:
    """`store` (agent and graph blocks): one line, naming memory, none or sqlite("…")."""
    stmts = store_settings(body)
    for stmt in stmts[:1]:
        yield from check_store(stmt)
    for again in stmts[1:]:
        yield error(
            Code.DUPLICATE_SETTING,
            "`store` is given twice",
            again.span,
            "given again here",
            secondary=(Label(stmts[0].span, "first given here"),),
            help="keep one `store` line",
        )


def check_store(stmt: ast.SettingStmt) -> Iterator[Diagnostic]:
    v = stmt.value
    if isinstance(v, ast.NoneLit) or (isinstance(v, ast.Ref) and v.dotted in STORE_WORDS):
        return
    if isinstance(v, ast.Call) and v.callee.dotted in STORE_CALLS:
        if (
            len(v.args) == 1
            and v.args[0].name is None
            and isinstance(v.args[0].value, ast.StringLit)
        ):
            return
        yield error(
            Code.BAD_STORE,
            f"`{v.callee.dotted}(…)` takes one path",
            v.span,
            "expected one string",
            help='write `store sqlite(".agentc/memory.db")`',
        )
        return
    yield error(
        Code.BAD_STORE,
        "unknown long-term store",
        v.span,
        'expected memory, none or sqlite("…")',
        notes=("I1: tools and middleware read and write the store; the agent loop never does",),
        help=did_you_mean(v.dotted, STORE_WORDS + STORE_CALLS) if isinstance(v, ast.Ref) else None,
    )


# ---------------------------------------------------------------- tools


@dataclass(frozen=True, slots=True)
class ToolName:
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
        yield from _check_tool(ctx, item, names)


def _check_tool(ctx: Ctx, item: ast.Expr, names: list[ToolName]) -> Iterator[Diagnostic]:
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
        yield from _check_function_tool(ctx, item, names)
        return
    if head in ctx.unit.mcp:
        yield from _check_mcp_tool(item, names)
        return
    found = graph_ref(ctx.unit, item, (SymbolKind.AGENT,), "agent or tool")
    if isinstance(found, GraphTarget):  # H1: an agent used as a tool
        names.append(ToolName(found.symbol.name, item.span, "agent"))
    elif found is not MISSING:
        yield found


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


def _check_function_tool(ctx: Ctx, ref: ast.Ref, names: list[ToolName]) -> Iterator[Diagnostic]:
    found = python_ref(ctx.unit, ref)
    if found is MISSING:
        return
    if isinstance(found, Diagnostic):
        yield found
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
    names.append(ToolName(tool_name(found), ref.span, "function"))
    if not fn.doc and not (deco and deco.kwarg("description")):
        yield error(
            Code.MISSING_DOCSTRING,
            f"tool `{fn.name}` has no docstring",
            ref.span,
            "the model would see no description of this tool",
            notes=("B11: a function tool's description is its docstring",),
            help=f"add a docstring to `def {fn.name}` saying what it does",
        )


def tool_name(target: PyTarget) -> str:
    """B11: the function's name, or the name given to `@tool("name")`."""
    fn = target.function
    deco = fn.decorator("tool") if fn else None
    if deco and deco.args and isinstance(deco.args[0], str):
        return deco.args[0]
    if deco and isinstance(deco.kwarg("name_or_callable"), str):
        return deco.kwarg("name_or_callable")
    return target.attr


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
            notes=("A7: create_agent would silently keep only the last one",),
            help='rename one with @tool("other_name")',
        )


# ---------------------------------------------------------------- output


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


def check_schema_ref(ctx: Ctx, item: ast.Expr) -> Iterator[Diagnostic]:
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
            found.cls is None
            or found.cls.kind not in (ClassKind.MODEL, ClassKind.DATACLASS, ClassKind.TYPEDDICT)
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


# ---------------------------------------------------------------- middleware


def check_middleware(
    ctx: Ctx, stmt: ast.MiddlewareStmt, body: tuple, tools: list[ToolName]
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
        yield from _check_mw_item(ctx, item, body, tools)


def _declared_info(ctx: Ctx, item: ast.MiddlewareItem):
    if len(item.name.parts) == 2 and item.name.parts[0].text in ctx.unit.python:
        return None
    sym = declaration(ctx.unit, item.name, SymbolKind.MIDDLEWARE)
    return ctx.decl_info(sym) if sym is not None else None


def middleware_name(ctx: Ctx, item: ast.MiddlewareItem) -> str:
    """The instance name the lowering gives `item` (`pii[email]`; see decls.instance_name)."""
    base = item.name.parts[-1].text
    info = _declared_info(ctx, item)
    if info is None or info.instance_key is None:
        return base
    entry = _entry(item.config, info.instance_key)
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


def _check_mw_item(
    ctx: Ctx, item: ast.MiddlewareItem, body: tuple, tools: list[ToolName]
) -> Iterator[Diagnostic]:
    ref = item.name
    if len(ref.parts) == 2 and ref.parts[0].text in ctx.unit.python:
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
    if _needs_checkpointer(info, item) and not has_checkpointer(body):
        yield error(
            Code.REVIEW_NO_CHECKPOINT,
            f"`{ref.dotted}` needs a checkpointer",
            ref.span,
            "pauses the run for a person, but nothing saves it",
            notes=("D9: a review interrupts the run; resuming reads the checkpoint",),
            help='add `checkpoint memory` or `checkpoint sqlite("…")` to the agent',
        )
    added = list(info.tools)
    if info.tool_name_param:
        entry = _entry(item.config, info.tool_name_param)
        if entry is not None and isinstance(entry.value, ast.StringLit):
            added = [entry.value.value]
    tools.extend(ToolName(t, ref.span, f"middleware {ref.dotted}") for t in added)
    yield from _check_interrupt_on(item, tools)


def _needs_checkpointer(info, item: ast.MiddlewareItem) -> bool:
    """D9: a middleware that may pause for a person (always, or with one setting's value)."""
    if info.needs_checkpointer:
        return True
    for param, value in info.checkpointer_when:
        entry = _entry(item.config, param)
        given = entry.value if entry is not None else info.params[param].default
        if isinstance(given, ast.StringLit) and given.value == value:
            return True
    return False


def _entry(config: ast.MapLit | None, key: str) -> ast.MapEntry | None:
    return next((e for e in (config.entries if config else ()) if e.key.text == key), None)


def _check_interrupt_on(item: ast.MiddlewareItem, tools: list[ToolName]) -> Iterator[Diagnostic]:
    """D9: a review rule for a tool the agent lacks would silently never fire."""
    entry = _entry(item.config, "interrupt_on")
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
    if found is MISSING:
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


def check_constructor(item: ast.MiddlewareItem, cls) -> Iterator[Diagnostic]:
    """The settings of a Python AgentMiddleware class against its `__init__` (read
    statically): each key a parameter, each required parameter given."""
    params = {p.name: p for p in (cls.init_params or ())}
    given = set()
    for entry in item.config.entries if item.config else ():
        key = entry.key.text
        given.add(key)
        if key not in params and not cls.init_kwargs:
            listed = ", ".join(f"`{p}`" for p in params)
            yield error(
                Code.UNKNOWN_PARAM,
                f"`{cls.name}` has no parameter `{key}`",
                entry.key.span,
                "not a parameter of its `__init__`",
                help=did_you_mean(key, params)
                or (
                    f"its parameters are {listed}"
                    if params
                    else f"`{cls.name}` takes no parameters"
                ),
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
