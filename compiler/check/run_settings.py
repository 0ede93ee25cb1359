"""Rules of the settings that shape a run, shared by `agent` and `graph` blocks: limits
(steps, step timeout; an agent's budgets), the checkpointer, the long-term store (I1) and
interrupts.

Input: the statements (from the block's `settings.AgentSettings` / `GraphSettings`).
Output: diagnostics, one function per rule.
Invariant: the AST is only read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import agentc.ir as ir

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, error, warning
from ..budgets import BUDGET_KEYS, budget_entries, check_budget, check_budget_set
from ..resolve import PyTarget, python_ref
from ..suggest import did_you_mean
from ..symbols import FileUnit
from ..typecheck import describe

LIMITS = {"steps": "int", "step_timeout": "duration"}  # wall-clock per run: the `time` budget
# What LangGraph and other frameworks call a limit → its name here (too far for did-you-mean).
LIMIT_HABITS = {
    "max_steps": "steps",
    "recursion_limit": "steps",
    "max_iterations": "steps",
    "max_supersteps": "steps",
    "timeout": "step_timeout",
    "step_timeout_s": "step_timeout",
}
CHECKPOINT_WORDS = ("memory", "none")
CHECKPOINT_CALLS = ("sqlite", "postgres")
DURABILITY = ("sync", "async", "exit")  # F11
STORE_CALLS = (ir.StoreKind.SQLITE.value, ir.StoreKind.POSTGRES.value)
STORE_WORDS = tuple(k.value for k in ir.StoreKind if k.value not in STORE_CALLS)
INTERRUPT_WORDS = ("before", "after")


# ---------------------------------------------------------------- limits


def check_limits(stmt: ast.LimitsStmt, *, budgets: bool = False) -> Iterator[Diagnostic]:
    """Limit values (F1, F2); with `budgets` (an agent block) also tokens / cost / time."""
    known = (*LIMITS, *BUDGET_KEYS) if budgets else tuple(LIMITS)
    for entry in stmt.entries.entries:
        key = entry.key.text
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
            near = LIMIT_HABITS.get(key)
            yield error(
                Code.UNKNOWN_LIMIT,
                f"unknown limit `{key}`",
                entry.key.span,
                "not a limit",
                notes=("the limits are " + ", ".join(f"`{k}`" for k in known),),
                help=f"did you mean `{near}`?" if near else did_you_mean(key, known),
            )
        elif kind == "int":
            yield from _check_steps(key, entry.value)
        else:
            yield from _check_duration(key, entry.value)
    if budgets:
        yield from check_budget_set(budget_entries(stmt))


def _check_steps(key: str, value: ast.Expr) -> Iterator[Diagnostic]:
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
            notes=("the run stops after this many supersteps (the step limit, F1)",),
        )


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


# ---------------------------------------------------------------- checkpoint


def check_checkpoint(stmt: ast.CheckpointStmt, unit: FileUnit) -> Iterator[Diagnostic]:
    v = stmt.value
    if isinstance(v, ast.NoneLit) or (isinstance(v, ast.Ref) and v.dotted in CHECKPOINT_WORDS):
        return
    if isinstance(v, ast.Call) and v.callee.dotted in CHECKPOINT_CALLS:
        yield from check_checkpoint_call(v, unit)
        return
    yield error(
        Code.BAD_CHECKPOINT,
        "unknown checkpointer",
        v.span,
        'expected memory, none, sqlite("…") or postgres("…")',
        help=did_you_mean(v.dotted, CHECKPOINT_WORDS + CHECKPOINT_CALLS)
        if isinstance(v, ast.Ref)
        else None,
    )


def check_checkpoint_call(call: ast.Call, unit: FileUnit) -> Iterator[Diagnostic]:
    """`sqlite("path")`, `sqlite("path", durability: "sync", types: ["app.models:Ticket"])`,
    `postgres("postgresql://…")` or `postgres(url_env: "DATABASE_URL")` with the same options."""
    postgres = call.callee.dotted == "postgres"
    options = ("durability", "types", "url_env") if postgres else ("durability", "types")
    if postgres:
        yield from check_postgres_target(call, Code.BAD_CHECKPOINT)
    else:
        yield from _one_path(call, Code.BAD_CHECKPOINT, "path or URL")
    for arg in call.args:
        if arg.name is None or (postgres and arg.name.text == "url_env"):
            continue
        if arg.name.text == "types":
            yield from check_checkpoint_types(arg.value, unit)
        elif arg.name.text != "durability":
            yield error(
                Code.BAD_CHECKPOINT,
                f"unknown checkpoint option `{arg.name.text}`",
                arg.name.span,
                "the options are " + ", ".join(f"`{o}`" for o in options),
                help=did_you_mean(arg.name.text, options),
            )
        elif not (isinstance(arg.value, ast.StringLit) and arg.value.value in DURABILITY):
            yield error(
                Code.BAD_CHECKPOINT,
                '`durability` must be "sync", "async" or "exit"',
                arg.value.span,
                "when each step's progress is saved (F11)",
                help='"sync" waits for each step\'s save before the next starts',
            )


def _one_path(call: ast.Call, code: Code, what: str) -> Iterator[Diagnostic]:
    positional = [a for a in call.args if a.name is None]
    if len(positional) != 1 or not isinstance(positional[0].value, ast.StringLit):
        yield error(
            code,
            f"`{call.callee.dotted}(…)` takes one path string",
            call.span,
            f"expected one {what}",
        )


PG_SCHEMES = ("postgresql://", "postgres://")
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def check_postgres_target(call: ast.Call, code: Code) -> Iterator[Diagnostic]:
    """`postgres(…)` names its database by one URL written in the file, or by `url_env`, the
    environment variable holding it (where a password may be: never in the file, which
    `secret-in-file` enforces)."""
    positional = [a for a in call.args if a.name is None]
    env = [a for a in call.args if a.name is not None and a.name.text == "url_env"]
    example = (
        'postgres("postgresql://app@db.internal:5432/app") or postgres(url_env: "DATABASE_URL")'
    )
    if len(positional) + len(env) != 1:
        yield error(
            code,
            "`postgres(…)` takes one connection string or `url_env`",
            call.span,
            "expected a URL or the name of the variable that holds it",
            help=f"write {example}",
        )
        return
    value = (positional or env)[0].value
    if not isinstance(value, ast.StringLit):
        yield error(code, f"expected a string, found {describe(value)}", value.span, "not a string")
    elif env and not ENV_NAME.fullmatch(value.value):
        yield error(
            code,
            f"`url_env` names an environment variable, and {value.value!r} is not a variable name",
            value.span,
            "expected a name such as DATABASE_URL",
        )
    elif positional and not value.value.startswith(PG_SCHEMES):
        named = ENV_NAME.fullmatch(value.value) is not None
        yield error(
            code,
            "`postgres(…)` takes a PostgreSQL URL (postgresql://user@host:5432/dbname)",
            value.span,
            "a variable name, not a URL" if named else "not a postgresql:// URL",
            help=f'write `postgres(url_env: "{value.value}")` to read the URL from that variable'
            if named
            else f"write {example}",
        )


TYPE_REF = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")  # `module:Qualname`


def check_checkpoint_types(value: ast.Expr, unit: FileUnit) -> Iterator[Diagnostic]:
    """D6: `types: ["app.models:Ticket", models.Invoice]`, the types a load may rebuild
    beyond agentc's own; `[]` rebuilds none of the user's."""
    if not isinstance(value, ast.ListLit):
        yield error(
            Code.BAD_CHECKPOINT,
            "`types` must be a list of types",
            value.span,
            f"found {describe(value)}",
            help='write `types: ["module:Class", alias.Class]`, or `types: []` for none',
        )
        return
    for item in value.items:
        if isinstance(item, ast.StringLit) and TYPE_REF.fullmatch(item.value):
            continue
        if isinstance(item, ast.Ref):
            found = python_ref(unit, item)
            if isinstance(found, Diagnostic):
                yield found
            elif isinstance(found, PyTarget) and found.cls is None:
                yield error(
                    Code.BAD_CHECKPOINT,
                    f"`{item.dotted}` is not a class",
                    item.span,
                    "a checkpoint rebuilds classes only",
                    help="name a pydantic model, dataclass or Enum",
                )
            continue
        yield error(
            Code.BAD_CHECKPOINT,
            "a `types` entry names a class as `module:Class` or `alias.Class`",
            item.span,
            "not a type",
            help='write the importable module, a colon and the class: `"app.models:Ticket"`',
        )


def has_checkpointer(stmt: ast.CheckpointStmt | None) -> bool:
    """The block's `checkpoint` line saves runs (it is not absent, `none` or `checkpoint none`)."""
    if stmt is None:
        return False
    v = stmt.value
    return not (isinstance(v, ast.NoneLit) or (isinstance(v, ast.Ref) and v.dotted == "none"))


# ---------------------------------------------------------------- the long-term store (I1)


def check_store(stmt: ast.SettingStmt) -> Iterator[Diagnostic]:
    """`store` (agent and graph blocks): memory, none, sqlite("…") or postgres(…)."""
    v = stmt.value
    if isinstance(v, ast.NoneLit) or (isinstance(v, ast.Ref) and v.dotted in STORE_WORDS):
        return
    if isinstance(v, ast.Call) and v.callee.dotted == ir.StoreKind.POSTGRES.value:
        yield from check_postgres_target(v, Code.BAD_STORE)
        for arg in v.args:
            if arg.name is not None and arg.name.text != "url_env":
                yield error(
                    Code.BAD_STORE,
                    f"unknown store option `{arg.name.text}`",
                    arg.name.span,
                    "the only option is `url_env`",
                )
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
        'expected memory, none, sqlite("…") or postgres("…")',
        notes=("tools and middleware read and write the store; the agent loop never does (I1)",),
        help=did_you_mean(v.dotted, STORE_WORDS + STORE_CALLS) if isinstance(v, ast.Ref) else None,
    )


# ---------------------------------------------------------------- interrupts


def check_interrupt_words(stmt: ast.InterruptStmt) -> Iterator[Diagnostic]:
    if stmt.when.text not in INTERRUPT_WORDS:
        yield error(
            Code.BAD_INTERRUPT,
            f"`interrupt {stmt.when.text}` is not a breakpoint",
            stmt.when.span,
            "expected `before` or `after`",
            help=did_you_mean(stmt.when.text, INTERRUPT_WORDS),
        )


def check_interrupt_checkpointer(
    interrupts: Iterable[ast.InterruptStmt], checkpoint: ast.CheckpointStmt | None
) -> Iterator[Diagnostic]:
    """D4: a breakpoint in a run that saves nothing can never be resumed."""
    if has_checkpointer(checkpoint):
        return
    for s in interrupts:
        yield warning(
            Code.INTERRUPT_NO_CHECKPOINT,
            "this interrupt can never be resumed",
            s.span,
            "the run stops here and its state is lost",
            notes=("without a checkpointer a paused run cannot be saved (D4)",),
            help='add `checkpoint memory` or `checkpoint sqlite("…")`',
        )
