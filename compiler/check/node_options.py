"""Checks of a graph node's options: `node n = python(f) { retry: {…}, timeout: 5s, … }`.

Input: `Ctx`, the node's option map and the graph's node table (for `goto`). Output:
diagnostics — `unknown-param` (with did-you-mean) for an option or a `retry` / `cache`
key that does not exist, `type-mismatch` for a value of the wrong type (each `retry` key
against `ir.RetryPolicy`), `unknown-node` for a `goto` target that is neither a node nor
END, `unknown-schema` for `input:`.
Invariant: the AST is only read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import agentc.ir as ir

from ...dsl import ast
from ...dsl.codes import Code
from ...dsl.diagnostics import Diagnostic, error
from ..context import Ctx
from ..suggest import did_you_mean
from ..typecheck import check_value, describe
from ..types import STR, Ty, TyKind, prim
from .common import check_schema_ref
from .edges import Nodes, node_exists

DURATION = Ty(TyKind.SPECIAL, "duration")
NODE_OPTIONS: dict[str, Ty | None] = {  # None: checked by its own rule below
    "timeout": DURATION,
    "retry": None,
    "cache": None,
    "defer": prim("bool"),
    "goto": None,
    "input": None,
}
RETRY_TYPES: dict[str, Ty] = {
    "max_attempts": prim("int"),
    "initial_interval": DURATION,
    "backoff_factor": prim("float"),
    "max_interval": DURATION,
    "jitter": prim("bool"),
    "retry_on": Ty(TyKind.LIST, args=(STR,)),
}
assert set(RETRY_TYPES) == set(ir.RetryPolicy.model_fields), "keep in step with the IR"
CACHE_TYPES: dict[str, Ty] = {"ttl": DURATION}


def check_node_options(ctx: Ctx, options: ast.MapLit | None, nodes: Nodes) -> Iterator[Diagnostic]:
    for entry in options.entries if options else ():
        key = entry.key.text
        if key not in NODE_OPTIONS:
            yield error(
                Code.UNKNOWN_PARAM,
                f"nodes have no option `{key}`",
                entry.key.span,
                "unknown option",
                help=did_you_mean(key, NODE_OPTIONS) or _listing(NODE_OPTIONS),
            )
            continue
        ty = NODE_OPTIONS[key]
        if ty is not None:
            yield from check_value(entry.value, ty, ctx.value_env())
        elif key == "retry":
            yield from _check_keys(ctx, "retry", entry.value, RETRY_TYPES)
        elif key == "cache":
            if not isinstance(entry.value, ast.BoolLit):  # `cache: true` is `cache: {}`
                yield from _check_keys(ctx, "cache", entry.value, CACHE_TYPES)
        elif key == "goto":
            yield from _check_goto(entry.value, nodes)
        else:
            yield from check_schema_ref(ctx, entry.value)


def _listing(names: Mapping[str, object]) -> str:
    return "the options are " + ", ".join(f"`{n}`" for n in names)


def _check_keys(
    ctx: Ctx, what: str, value: ast.Expr, types: Mapping[str, Ty]
) -> Iterator[Diagnostic]:
    if not isinstance(value, ast.MapLit):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a map, found {describe(value)}",
            value.span,
            f"`{what}` takes {{ " + ", ".join(f"{k}: …" for k in types) + " }",
        )
        return
    for e in value.entries:
        ty = types.get(e.key.text)
        if ty is None:
            yield error(
                Code.UNKNOWN_PARAM,
                f"`{what}` has no option `{e.key.text}`",
                e.key.span,
                "unknown option",
                help=did_you_mean(e.key.text, types) or _listing(types),
            )
        else:
            yield from check_value(e.value, ty, ctx.value_env())


def _check_goto(value: ast.Expr, nodes: Nodes) -> Iterator[Diagnostic]:
    """`goto: [a, END]`: the nodes a `Command(goto=…)` from this node may name."""
    if not isinstance(value, ast.ListLit):
        yield error(
            Code.TYPE_MISMATCH,
            f"expected a list of nodes, found {describe(value)}",
            value.span,
            "expected [node, END]",
        )
        return
    for item in value.items:
        if isinstance(item, ast.Ref) and len(item.parts) == 1:
            yield from node_exists(item.parts[0], nodes, boundary="END")
        else:
            yield error(
                Code.TYPE_MISMATCH,
                f"expected a node name, found {describe(item)}",
                item.span,
                "expected a node or END",
            )
