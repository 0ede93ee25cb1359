"""Semantic checks: every rule of meaning the grammar leaves open.

Input: the `FileUnit`s from resolve (root, used `.agent` files). Output: diagnostics; the
AST is untouched. One function per rule, each yielding diagnostics; `check_unit` runs them
all and never stops at the first problem. Rules shared by `agent` and `graph` blocks (state
fields, limits, checkpoint, interrupts, middleware configs) live here; the block-specific
ones in `check_agent.py` and `check_graph.py`. Structural graph checks (reachability, a
path to END) run later on the lowered IR (`graph.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..dsl import ast
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, Label, error, warning
from .context import Ctx
from .decls import DeclInfo
from .suggest import did_you_mean
from .typecheck import check_value, describe, map_entries
from .types import TyKind, resolve_type

SUPPORTED_VERSIONS = (1,)


REDUCERS = ("append", "merge", "add", "replace", "add_messages")
LIMITS = {"steps": "int", "step_timeout": "duration"}  # wall-clock per run: the `time` budget
CHECKPOINT_WORDS = ("memory", "none")
CHECKPOINT_CALLS = ("sqlite", "postgres")


def check_unit(ctx: Ctx) -> Iterator[Diagnostic]:
    from .check_agent import check_agent
    from .check_graph import check_graph

    yield from check_version(ctx.unit.module)
    for schema in ctx.unit.items(ast.SchemaDecl):
        yield from check_fields(ctx, schema.fields, allow_reducers=False)
    for decl in ctx.unit.items(ast.DeclareDecl):
        yield from check_declaration(ctx, decl)
    for agent in ctx.unit.items(ast.AgentDecl):
        yield from check_agent(ctx, agent)
    for graph in ctx.unit.items(ast.GraphDecl):
        yield from check_graph(ctx, graph)


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
        yield from check_reducer(f, ty, allow_reducers)


def check_reducer(f: ast.FieldDecl, ty, allowed: bool) -> Iterator[Diagnostic]:
    name = f.reducer.dotted
    if not allowed:
        yield error(
            Code.BAD_REDUCER,
            "schema fields take no reducer",
            f.reducer.span,
            "only state channels have reducers",
        )
        return
    if name not in REDUCERS:
        yield error(
            Code.BAD_REDUCER,
            f"unknown reducer `{name}`",
            f.reducer.span,
            "not a reducer",
            help=did_you_mean(name, REDUCERS) or "use append, merge, add or replace",
        )
        return
    fits = {
        "append": ty.is_list,
        "add_messages": ty.kind in (TyKind.MESSAGES, TyKind.LIST),
        "merge": ty.kind is TyKind.MAP or ty.name == "any" or ty.kind is TyKind.SCHEMA,
        "add": ty.kind is TyKind.LIST or ty.name in ("int", "float", "str", "any"),
        "replace": True,
    }[name]
    if not fits:
        yield error(
            Code.BAD_REDUCER,
            f"`reduce {name}` does not fit a `{ty.display()}` channel",
            f.reducer.span,
            f"`{name}` needs "
            + {
                "append": "a list",
                "add_messages": "messages",
                "merge": "a map",
                "add": "a number, string or list",
            }[name],
            secondary=(Label(f.type.span, f"declared {ty.display()} here"),),
            help="change the channel's type or its reducer",
        )


# ---------------------------------------------------------------- limits, checkpoint, interrupts


def check_limits(stmt: ast.LimitsStmt, *, budgets: bool = False) -> Iterator[Diagnostic]:
    """Limit values (F1, F2); with `budgets` (an agent block) also tokens / cost / time."""
    from .budgets import BUDGET_KEYS, budget_entries, check_budget, check_budget_set

    known = (*LIMITS, *BUDGET_KEYS) if budgets else tuple(LIMITS)
    for entry in stmt.entries.entries:
        key, value = entry.key.text, entry.value
        kind = LIMITS.get(key)
        if kind is None and budgets and key in BUDGET_KEYS:
            yield from check_budget(entry)
        elif kind is None and key in BUDGET_KEYS:
            yield error(
                Code.UNKNOWN_LIMIT,
                f"`{key}` is a budget; graph blocks have none",
                entry.key.span,
                "budgets apply to agent blocks",
                notes=("a budget is checked before each model call of an agent",),
                help="move the budget to an `agent` block, or remove it",
            )
        elif kind is None:
            yield error(
                Code.UNKNOWN_LIMIT,
                f"unknown limit `{key}`",
                entry.key.span,
                "not a limit",
                help=did_you_mean(key, known),
            )
        elif kind == "int":
            if not isinstance(value, ast.IntLit):
                yield error(
                    Code.TYPE_MISMATCH,
                    f"expected an integer, found {describe(value)}",
                    value.span,
                    "expected int",
                )
            elif value.value < 1:
                yield error(
                    Code.BAD_LIMIT,
                    f"`{key}` must be at least 1",
                    value.span,
                    f"{value.value} steps could never run a node",
                    notes=("F1: the run stops after this many supersteps",),
                )
        else:
            yield from _check_duration(key, value)
    if budgets:
        yield from check_budget_set(budget_entries(stmt))


def _check_duration(key: str, value: ast.Expr) -> Iterator[Diagnostic]:
    if isinstance(value, ast.UnaryOp) and value.op == "-":
        yield error(
            Code.BAD_LIMIT, f"`{key}` must be greater than zero", value.span, "negative duration"
        )
    elif not isinstance(value, (ast.DurationLit, ast.IntLit, ast.FloatLit)):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a duration, found {describe(value)}",
            value.span,
            "expected a duration such as 30s",
        )
    elif (value.seconds if isinstance(value, ast.DurationLit) else value.value) <= 0:
        yield error(
            Code.BAD_LIMIT,
            f"`{key}` must be greater than zero",
            value.span,
            "a zero timeout stops every step",
            help="remove it for no timeout",
        )


def check_checkpoint(stmt: ast.CheckpointStmt) -> Iterator[Diagnostic]:
    v = stmt.value
    if isinstance(v, ast.NoneLit) or (isinstance(v, ast.Ref) and v.dotted in CHECKPOINT_WORDS):
        return
    if isinstance(v, ast.Call) and v.callee.dotted in CHECKPOINT_CALLS:
        yield from check_checkpoint_call(v)
        return
    yield error(
        Code.BAD_CHECKPOINT,
        "unknown checkpointer",
        v.span,
        'expected memory, none, sqlite("…") or postgres("…")',
        help=did_you_mean(getattr(v, "dotted", ""), CHECKPOINT_WORDS + CHECKPOINT_CALLS)
        if isinstance(v, ast.Ref)
        else None,
    )


DURABILITY = ("sync", "async", "exit")  # F11


def check_checkpoint_call(call: ast.Call) -> Iterator[Diagnostic]:
    """`sqlite("path")` or `sqlite("path", durability: "sync")`."""
    if call.callee.dotted == "postgres":  # the name is reserved; the store is not built yet
        yield error(
            Code.BAD_CHECKPOINT,
            "the PostgreSQL checkpointer is not available yet",
            call.callee.span,
            "no run could start with it",
            help='use `sqlite("…")` (or `memory`) for now',
        )
        return
    positional = [a for a in call.args if a.name is None]
    if len(positional) != 1 or not isinstance(positional[0].value, ast.StringLit):
        yield error(
            Code.BAD_CHECKPOINT,
            f"`{call.callee.dotted}(…)` takes one path string",
            call.span,
            "expected one path or URL",
        )
    for arg in call.args:
        if arg.name is None:
            continue
        if arg.name.text != "durability":
            yield error(
                Code.BAD_CHECKPOINT,
                f"unknown checkpoint option `{arg.name.text}`",
                arg.name.span,
                "the only option is `durability`",
            )
        elif not (isinstance(arg.value, ast.StringLit) and arg.value.value in DURABILITY):
            yield error(
                Code.BAD_CHECKPOINT,
                '`durability` must be "sync", "async" or "exit"',
                arg.value.span,
                "F11: when each step's progress is saved",
                help='"sync" waits for each step\'s save before the next starts',
            )


def has_checkpointer(stmts: Iterable) -> bool:
    for s in stmts:
        if isinstance(s, ast.CheckpointStmt):
            v = s.value
            return not (
                isinstance(v, ast.NoneLit) or (isinstance(v, ast.Ref) and v.dotted == "none")
            )
    return False


def check_interrupt_words(stmt: ast.InterruptStmt) -> Iterator[Diagnostic]:
    if stmt.when.text not in ("before", "after"):
        yield error(
            Code.BAD_INTERRUPT,
            f"`interrupt {stmt.when.text}` is not a breakpoint",
            stmt.when.span,
            "expected `before` or `after`",
            help=did_you_mean(stmt.when.text, ("before", "after")),
        )


def check_interrupt_checkpointer(stmts: tuple) -> Iterator[Diagnostic]:
    """D4: a breakpoint in a run that saves nothing can never be resumed."""
    if has_checkpointer(stmts):
        return
    for s in stmts:
        if isinstance(s, ast.InterruptStmt):
            yield warning(
                Code.INTERRUPT_NO_CHECKPOINT,
                "this interrupt can never be resumed",
                s.span,
                "the run stops here and its state is lost",
                notes=("D4: without a checkpointer a paused run cannot be saved",),
                help='add `checkpoint memory` or `checkpoint sqlite("…")`',
            )


def duplicate_stmts(
    stmts: Iterable, kinds: tuple[type, ...], code: str, what=lambda s: type(s).__name__
) -> Iterator[Diagnostic]:
    seen: dict[type, object] = {}
    for s in stmts:
        if not isinstance(s, kinds):
            continue
        first = seen.get(type(s))
        if first is not None:
            yield error(
                code,
                f"`{what(s)}` is given twice",
                s.span,
                "given again here",
                secondary=(Label(first.span, "first given here"),),
                help="keep one",
            )
        else:
            seen[type(s)] = s


# ---------------------------------------------------------------- configuration maps


def check_config(
    ctx: Ctx, info: DeclInfo, config: ast.MapLit | None, at: ast.Span, what: str
) -> Iterator[Diagnostic]:
    """A middleware/router config against its declaration: keys, types, required params."""
    given = {}
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
