"""Checks of a block's run interface: `context Schema` (graphs and agents) and a graph's
`input [channel, …]` / `output [channel, …]`.

Input: `Ctx`, the statement and (for the lists) the graph's `StateView`. Output:
diagnostics — `unknown-schema` for a context that names no schema, `type-mismatch` for a
value of the wrong shape, `unknown-field` for a listed channel the state does not
declare, `duplicate-field` for one listed twice, `unknown-param` for `via` or options on
a graph's `output`.
Invariant: the AST is only read.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, Label, error
from ..channels import StateView
from ..context import Ctx
from ..suggest import did_you_mean
from ..typecheck import describe
from .common import check_schema_ref


def check_context(ctx: Ctx, stmt: ast.SettingStmt) -> Iterator[Diagnostic]:
    """`context Ctx`: the schema of what each run is given (LangGraph's context_schema)."""
    if not isinstance(stmt.value, ast.Ref):
        yield error(
            Code.UNKNOWN_SCHEMA,
            f"{describe(stmt.value)} is not a schema",
            stmt.value.span,
            "expected a schema name",
            help="declare `schema Ctx { user_id: str }` and write `context Ctx`",
        )
        return
    yield from check_schema_ref(ctx, stmt.value)


def check_output_stmt(stmt: ast.OutputStmt, view: StateView) -> Iterator[Diagnostic]:
    """A graph's `output [a, b]`: the channels in the run's result (no `via`, no options)."""
    extra = stmt.strategy.span if stmt.strategy else stmt.options.span if stmt.options else None
    if extra is not None:
        yield error(
            Code.UNKNOWN_PARAM,
            "a graph's `output` lists channels only",
            extra,
            "structured output belongs to agents and model nodes",
            help="write `output [channel, …]`",
        )
    yield from check_channel_list("output", stmt.schema, view)


def check_channel_list(word: str, value: ast.Expr, view: StateView) -> Iterator[Diagnostic]:
    if not isinstance(value, ast.ListLit):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a list of channels, found {describe(value)}",
            value.span,
            f"expected `{word} [channel, …]`",
        )
        return
    seen: dict[str, ast.Expr] = {}
    for item in value.items:
        if not (isinstance(item, ast.Ref) and len(item.parts) == 1):
            yield error(
                Code.TYPE_MISMATCH,
                f"expected a channel name, found {describe(item)}",
                item.span,
                "a state channel",
            )
            continue
        name = item.parts[0].text
        if name in seen:
            yield error(
                Code.DUPLICATE_FIELD,
                f"`{name}` is listed twice",
                item.span,
                "listed again here",
                secondary=(Label(seen[name].span, "first listed here"),),
            )
        elif name not in view:
            yield error(
                Code.UNKNOWN_FIELD,
                f"the state has no channel `{name}`",
                item.span,
                "unknown channel",
                help=did_you_mean(name, view.channels) or f"add `{name}: …` to the state",
            )
        seen.setdefault(name, item)
