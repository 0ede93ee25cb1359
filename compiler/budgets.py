"""Budgets written in `limits`: tokens, cost and wall-clock time per run and per thread.

Input: an agent's `ast.LimitsStmt`. Output: diagnostics for the budget keys (`check_budget`)
and, once checked, the `budgets` middleware they stand for (`budget_middleware`), so the
behaviour has one implementation: the prelude's `budgets` declaration
(`agentc.stdlib.middleware.budgets:Budgets`).

    limits {
      steps: 25
      tokens: 50000          # input + output tokens per run (usage metadata)
      cost: 0.50             # USD per run, priced by the model profile unless `prices`
      time: 5m               # wall clock per run
      thread_tokens: 200000  # the same three per thread: thread_tokens, thread_cost, thread_time
      on_budget: "ask"       # end (default) | error | ask (a person decides; needs a checkpointer)
      prices: { input: 3.0, output: 15.0 }   # USD per million tokens
    }

Invariant: `budget_middleware` runs only on checked input; the middleware it returns is
named `budgets` (so a `budgets` entry in `middleware` as well is a duplicate) and sits
first in the agent's middleware: the budget is checked before any other hook spends more.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator

import agentc.ir as ir

from ..dsl import ast
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error
from .decls import DeclInfo, span_ir
from .suggest import did_you_mean
from .typecheck import describe, to_json


class Budget(str, enum.Enum):
    TOKENS = "tokens"
    COST = "cost"
    TIME = "time"


class OnBudget(str, enum.Enum):
    END = "end"
    ERROR = "error"
    ASK = "ask"


AMOUNTS = {**{b.value: b for b in Budget}, **{f"thread_{b.value}": b for b in Budget}}
BEHAVIOUR_KEY = "on_budget"
PRICES_KEY = "prices"
PRICE_KEYS = ("input", "output")
BUDGET_KEYS = (*AMOUNTS, BEHAVIOUR_KEY, PRICES_KEY)
MIDDLEWARE_NAME = "budgets"
# limits key → the `budgets` middleware parameter it sets
PARAM_OF = {**{k: k for k in AMOUNTS}, BEHAVIOUR_KEY: "exit_behavior", PRICES_KEY: "prices"}


def budget_entries(stmt: ast.LimitsStmt | None) -> list[ast.MapEntry]:
    return [e for e in (stmt.entries.entries if stmt else ()) if e.key.text in BUDGET_KEYS]


def check_budget(entry: ast.MapEntry) -> Iterator[Diagnostic]:
    key, value = entry.key.text, entry.value
    if key == BEHAVIOUR_KEY:
        yield from _check_behaviour(value)
    elif key == PRICES_KEY:
        yield from _check_prices(value)
    else:
        yield from _check_amount(key, AMOUNTS[key], value)


def _number(value: ast.Expr) -> float | None:
    if isinstance(value, (ast.IntLit, ast.FloatLit)):
        return value.value
    if (
        isinstance(value, ast.UnaryOp)
        and value.op == "-"
        and isinstance(value.operand, (ast.IntLit, ast.FloatLit))
    ):
        return -value.operand.value
    return None


def _check_amount(key: str, kind: Budget, value: ast.Expr) -> Iterator[Diagnostic]:
    if kind is Budget.TIME:
        if isinstance(value, ast.DurationLit):
            amount = value.seconds
        else:
            amount = _number(value)
            if amount is None:
                yield error(
                    Code.TYPE_MISMATCH,
                    f"expected a duration, found {describe(value)}",
                    value.span,
                    "expected a duration such as 5m",
                )
                return
    elif kind is Budget.TOKENS:
        if not (isinstance(value, ast.IntLit) or _is_negative_int(value)):
            yield error(
                Code.TYPE_MISMATCH,
                f"expected a whole number of tokens, found {describe(value)}",
                value.span,
                "expected int",
            )
            return
        amount = _number(value)
        assert amount is not None  # an int, or minus one
    else:
        amount = _number(value)
        if amount is None:
            yield error(
                Code.TYPE_MISMATCH,
                f"expected an amount in USD, found {describe(value)}",
                value.span,
                "expected a number such as 0.50",
            )
            return
    if amount <= 0:
        yield error(
            Code.BAD_LIMIT,
            f"`{key}` must be greater than zero",
            value.span,
            "a budget of nothing stops the run before its first model call",
            help=f"remove `{key}` for no {kind.value} budget",
        )


def _is_negative_int(value: ast.Expr) -> bool:
    return isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.IntLit)


def _check_behaviour(value: ast.Expr) -> Iterator[Diagnostic]:
    words = [b.value for b in OnBudget]
    if not isinstance(value, ast.StringLit):
        yield error(
            Code.TYPE_MISMATCH,
            f'expected "end", "error" or "ask", found {describe(value)}',
            value.span,
            "expected a string",
        )
    elif value.value not in words:
        yield error(
            Code.BAD_LIMIT,
            f'`on_budget` cannot be "{value.value}"',
            value.span,
            'expected "end", "error" or "ask"',
            help=did_you_mean(value.value, words),
        )


def _check_prices(value: ast.Expr) -> Iterator[Diagnostic]:
    if not isinstance(value, ast.MapLit):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected {{ input: …, output: … }}, found {describe(value)}",
            value.span,
            "expected a map of prices",
        )
        return
    for e in value.entries:
        price = _number(e.value)
        if e.key.text not in PRICE_KEYS:
            yield error(
                Code.BAD_LIMIT,
                f"`prices` has no `{e.key.text}`",
                e.key.span,
                "expected `input` or `output` (USD per million tokens)",
                help=did_you_mean(e.key.text, PRICE_KEYS),
            )
        elif price is None:
            yield error(
                Code.TYPE_MISMATCH,
                f"expected a price, found {describe(e.value)}",
                e.value.span,
                "USD per million tokens",
            )
        elif price < 0:
            yield error(
                Code.BAD_LIMIT, "a price cannot be negative", e.value.span, "negative price"
            )


def check_budget_set(entries: list[ast.MapEntry]) -> Iterator[Diagnostic]:
    """`on_budget` / `prices` with no amount to apply them to would silently do nothing."""
    if any(e.key.text in AMOUNTS for e in entries):
        return
    for e in entries:
        yield error(
            Code.BAD_LIMIT,
            f"`{e.key.text}` has no budget to act on",
            e.key.span,
            "no tokens, cost or time budget in these limits",
            help="add a budget such as `tokens: 50000`, or remove this line",
        )


def asks(entries: list[ast.MapEntry]) -> ast.MapEntry | None:
    return next(
        (
            e
            for e in entries
            if e.key.text == BEHAVIOUR_KEY
            and isinstance(e.value, ast.StringLit)
            and e.value.value == OnBudget.ASK
        ),
        None,
    )


def budget_middleware(stmt: ast.LimitsStmt | None, decl: DeclInfo) -> ir.MiddlewareSpec | None:
    """The `budgets` middleware the budget keys of `stmt` stand for (None: no budget).

    `decl` is the prelude's `budgets` DeclInfo: its defaults fill the settings not given."""
    entries = budget_entries(stmt)
    if stmt is None or not any(e.key.text in AMOUNTS for e in entries):
        return None
    config = {name: p.default_json() for name, p in decl.params.items()}
    spans: dict[str, ir.SourceSpan] = {}
    for e in entries:
        param = PARAM_OF[e.key.text]
        config[param] = to_json(e.value)
        spans[param] = span_ir(e.span)
    return ir.MiddlewareSpec(
        name=MIDDLEWARE_NAME,
        declared=decl.name,
        impl=decl.impl,
        config=config,
        hooks=list(decl.hooks),
        jumps={p: list(j) for p, j in decl.jumps.items()},
        seats=list(decl.seats),
        span=span_ir(stmt.span),
        config_spans=spans,
        origin=ir.MiddlewareOrigin.LIMITS,
    )
