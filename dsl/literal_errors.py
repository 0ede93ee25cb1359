"""Mistakes inside literals, found while the AST is built: a number followed by letters
(`30x`), an escape the language does not know (`\\q`), a minus sign before something
that is not a number or a duration (`-["done"]`).

Input: the literal's span and text, or the operand after `-`. Output: a diagnostic for the
builder to report (and, for `-`, the negated literal). Pure: no state, no parsing.
"""

from __future__ import annotations

from . import ast
from .codes import Code
from .diagnostics import Diagnostic, error
from .source import Span

_WHAT: dict[type, str] = {
    ast.StringLit: "a string",
    ast.BoolLit: "a boolean",
    ast.NoneLit: "`none`",
    ast.ListLit: "a list",
    ast.MapLit: "a map",
    ast.Ref: "a name",
    ast.Call: "a call",
}


def negate(operand: ast.Expr, span: Span) -> tuple[ast.Expr, Diagnostic | None]:
    if isinstance(operand, ast.IntLit):
        return ast.IntLit(value=-operand.value, span=span), None
    if isinstance(operand, ast.FloatLit):
        return ast.FloatLit(value=-operand.value, span=span), None
    if isinstance(operand, ast.DurationLit):
        negated = ast.DurationLit(seconds=-operand.seconds, text="-" + operand.text, span=span)
        return negated, None
    kept = ast.UnaryOp(op="-", operand=operand, span=span)
    # Nowhere does `-` apply to anything else (`-["done"]`, `-true`, `-x`): say so here,
    # where the expression is, so no later pass meets a negated list or name (once: `--x`
    # is one mistake, reported at the inner minus).
    if isinstance(operand, ast.UnaryOp) and operand.op == "-":
        return kept, None
    what = _WHAT.get(type(operand), "an expression")
    return kept, error(
        Code.BAD_LITERAL,
        f"`-` applies to a number or a duration, not to {what}",
        span,
        "not a number",
        help="write a number such as `-1` or `-0.5`, or a duration such as `-30s`",
    )


def bad_number(span: Span, text: str) -> Diagnostic:
    """`30x`: digits followed by letters that are not a duration unit."""
    return error(
        Code.BAD_LITERAL,
        f"`{text}` is not a number or a duration",
        span,
        "not a number or a duration",
        help="write a number (`30`, `0.5`) or a duration such as `500ms`, `30s`, `2m` or `1h`",
    )


def unknown_escape(span: Span, escape: str) -> Diagnostic:
    """`\\q` in a string: an escape the language does not know."""
    shown = escape if escape.isprintable() else repr(escape)[1:-1]
    return error(
        Code.BAD_LITERAL,
        f"unknown escape `{shown}` in a string",
        span,
        "unknown escape",
        help="write `\\\\` for a backslash",
    )
