"""Check a literal value against a declared type, and turn it into JSON.

Input: an `ast.Expr` written as a middleware parameter, setting or default, a `Ty`, and a
`ValueEnv` (how to check `ref` and `model` values). Output: diagnostics that point at the
innermost offending expression (a map entry's value, a list item), and `to_json`, the JSON
value the IR stores. Invariant: `to_json` is only called on values that checked clean.

JSON forms: durations → seconds (float); `tokens(4000)` → `["tokens", 4000]` (LangChain's
ContextSize tuple); a reference to a Python object → `{"$import": "module:attr", "is_file":
bool}`; everything else as written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..dsl import ast
from ..dsl.astclass import Record, record
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error
from .types import Ty, TyKind

CONTEXT_SIZES = ("tokens", "messages", "fraction")


@record
class ValueEnv(Record):
    """How values that name things are checked; each returns diagnostics (empty: fine)."""

    check_ref: Callable[[ast.Ref], list[Diagnostic]]
    check_model: Callable[[ast.StringLit], list[Diagnostic]]
    ref_json: Callable[[ast.Ref], Any]
    # a `model` setting naming a factory (`tools.make_model`): a callable taking no options
    check_factory: Callable[[ast.Ref], list[Diagnostic]] | None = None


def describe(expr: ast.Expr) -> str:
    return {
        ast.StringLit: "a string",
        ast.IntLit: "an integer",
        ast.FloatLit: "a float",
        ast.BoolLit: "a boolean",
        ast.NoneLit: "none",
        ast.DurationLit: "a duration",
        ast.ListLit: "a list",
        ast.MapLit: "a map",
        ast.Ref: "a name",
        ast.Call: "a call",
        ast.UnaryOp: "an expression",
        ast.BinaryOp: "an expression",
    }.get(type(expr), "a value")


def check_value(expr: ast.Expr, ty: Ty, env: ValueEnv) -> list[Diagnostic]:
    """Diagnostics for `expr` against `ty` (empty when it fits)."""
    if ty.kind is TyKind.UNION:
        return _check_union(expr, ty, env)
    problems = _check_one(expr, ty, env)
    if problems is None:
        return [_mismatch(expr, ty)]
    return problems


def _check_union(expr: ast.Expr, ty: Ty, env: ValueEnv) -> list[Diagnostic]:
    best: list[Diagnostic] | None = None
    for option in ty.args:
        problems = _check_one(expr, option, env)
        if problems == []:
            return []
        if problems is not None and (best is None or len(problems) < len(best)):
            best = problems  # the shape matched: report what is wrong inside
    return best if best is not None else [_mismatch(expr, ty)]


def _mismatch(expr: ast.Expr, ty: Ty) -> Diagnostic:
    return error(
        Code.TYPE_MISMATCH,
        f"expected {ty.display()}, found {describe(expr)}",
        expr.span,
        f"expected {ty.display()}",
    )


def _check_one(expr: ast.Expr, ty: Ty, env: ValueEnv) -> list[Diagnostic] | None:
    """[] fits; None: wrong shape; a list: right shape, wrong inside."""
    if (
        isinstance(expr, ast.UnaryOp)
        and expr.op == "-"
        and isinstance(expr.operand, (ast.IntLit, ast.FloatLit))
    ):
        expr = expr.operand
    k = ty.kind
    if k is TyKind.PRIM and ty.name == "any" or k in (TyKind.SCHEMA, TyKind.MESSAGES):
        inner = [not_a_value(e) for e in expressions_in(expr)]
        if inner:  # these take any value as written, but a comparison is not a value
            return inner
    if k is TyKind.PRIM:
        return _check_prim(expr, ty.name)
    if k is TyKind.LITERAL:
        value = getattr(expr, "value", object())
        ok = isinstance(expr, (ast.StringLit, ast.IntLit, ast.BoolLit)) and value == ty.value
        return [] if ok and type(value) is type(ty.value) else None
    if k is TyKind.LIST:
        if not isinstance(expr, ast.ListLit):
            return None
        return [d for item in expr.items for d in check_value(item, ty.args[0], env)]
    if k is TyKind.MAP:
        if not isinstance(expr, ast.MapLit):
            return None
        return [d for e in expr.entries for d in check_value(e.value, ty.args[0], env)]
    if k is TyKind.SPECIAL:
        return _check_special(expr, ty.name, env)
    if k in (TyKind.SCHEMA, TyKind.MESSAGES):
        return [] if isinstance(expr, (ast.MapLit, ast.ListLit)) else None
    return None


def expressions_in(expr: ast.Expr) -> list[ast.Expr]:
    """The operator expressions (`a <= b`, `not x`) anywhere inside a value written as a
    literal: settings hold values, and only conditions hold expressions."""
    if isinstance(expr, ast.BinaryOp):
        return [expr]
    if isinstance(expr, ast.UnaryOp):
        numeric = expr.op == "-" and isinstance(expr.operand, (ast.IntLit, ast.FloatLit))
        return [] if numeric else [expr]
    if isinstance(expr, ast.ListLit):
        return [e for item in expr.items for e in expressions_in(item)]
    if isinstance(expr, ast.MapLit):
        return [e for entry in expr.entries for e in expressions_in(entry.value)]
    if isinstance(expr, ast.Call):
        return [e for a in expr.args for e in expressions_in(a.value)]
    return []


def not_a_value(expr: ast.Expr) -> Diagnostic:
    return error(
        Code.TYPE_MISMATCH,
        "expected a value, found an expression",
        expr.span,
        "a comparison or operator here",
        help="a setting holds a value as written (text, a number, a list, a map); "
        "expressions belong in `when` conditions",
    )


def _check_prim(expr: ast.Expr, name: str) -> list[Diagnostic] | None:
    fits = {
        "any": lambda: True,
        "none": lambda: isinstance(expr, ast.NoneLit),
        "str": lambda: isinstance(expr, ast.StringLit),
        "int": lambda: isinstance(expr, ast.IntLit),
        "float": lambda: isinstance(expr, (ast.IntLit, ast.FloatLit)),
        "bool": lambda: isinstance(expr, ast.BoolLit),
    }[name]()
    return [] if fits else None


def _check_special(expr: ast.Expr, name: str, env: ValueEnv) -> list[Diagnostic] | None:
    if name == "model":
        if isinstance(expr, ast.Ref):
            return (env.check_factory or env.check_ref)(expr)
        return env.check_model(expr) if isinstance(expr, ast.StringLit) else None
    if name == "ref":
        return env.check_ref(expr) if isinstance(expr, ast.Ref) else None
    if name == "duration":
        return [] if isinstance(expr, (ast.DurationLit, ast.IntLit, ast.FloatLit)) else None
    if name == "context_size":
        return _check_context_size(expr)
    return None


def _check_context_size(expr: ast.Expr) -> list[Diagnostic] | None:
    if not (isinstance(expr, ast.Call) and expr.callee.dotted in CONTEXT_SIZES):
        return None
    kind = expr.callee.dotted
    args = expr.args
    if len(args) != 1 or args[0].name is not None:
        return [
            error(
                Code.TYPE_MISMATCH,
                f"`{kind}(…)` takes one number",
                expr.span,
                "expected one positional argument",
            )
        ]
    value = args[0].value
    if kind == "fraction":
        ok = isinstance(value, (ast.FloatLit, ast.IntLit)) and 0 < value.value <= 1
        want = "a number in (0, 1]"
    else:
        ok = isinstance(value, ast.IntLit) and value.value > 0
        want = "a positive integer"
    if ok:
        return []
    return [error(Code.TYPE_MISMATCH, f"`{kind}(…)` needs {want}", value.span, f"expected {want}")]


# ---------------------------------------------------------------- JSON


def to_json(expr: ast.Expr, env: ValueEnv | None = None) -> Any:
    if isinstance(expr, (ast.StringLit, ast.IntLit, ast.FloatLit, ast.BoolLit)):
        return expr.value
    if isinstance(expr, ast.NoneLit):
        return None
    if isinstance(expr, ast.DurationLit):
        return expr.seconds
    if isinstance(expr, ast.ListLit):
        return [to_json(i, env) for i in expr.items]
    if isinstance(expr, ast.MapLit):
        return {e.key.text: to_json(e.value, env) for e in expr.entries}
    if isinstance(expr, ast.UnaryOp) and expr.op == "-":
        return -to_json(expr.operand, env)
    if isinstance(expr, ast.Call):
        return [expr.callee.dotted, *(to_json(a.value, env) for a in expr.args)]
    if isinstance(expr, ast.Ref):
        return env.ref_json(expr) if env is not None else expr.dotted
    raise AssertionError(f"not a literal value: {type(expr).__name__}")


def typed_json(expr: ast.Expr, ty: Ty, env: ValueEnv) -> Any:
    """`to_json`, except that a reference where `ty` takes a model becomes `{"$model":
    "module:attr", "is_file": bool, "as": "tools.make"}` (`as`: as written, for messages):
    the runtime calls that factory for a chat model."""
    if isinstance(expr, ast.Ref) and MODEL in _options(ty):
        found = env.ref_json(expr)
        if isinstance(found, dict) and "$import" in found:
            return {"$model": found["$import"], "is_file": found["is_file"], "as": expr.dotted}
        return found
    if isinstance(expr, ast.ListLit):
        items = [a.args[0] for a in _options(ty) if a.kind is TyKind.LIST]
        if items:
            return [typed_json(i, _union(items), env) for i in expr.items]
    return to_json(expr, env)


MODEL = Ty(TyKind.SPECIAL, "model")


def _options(ty: Ty) -> tuple[Ty, ...]:
    return ty.args if ty.kind is TyKind.UNION else (ty,)


def _union(tys: list[Ty]) -> Ty:
    return tys[0] if len(tys) == 1 else Ty(TyKind.UNION, args=tuple(tys))


def is_literal(expr: ast.Expr) -> bool:
    """A value `to_json` can turn into JSON without a name lookup."""
    if isinstance(
        expr, (ast.StringLit, ast.IntLit, ast.FloatLit, ast.BoolLit, ast.NoneLit, ast.DurationLit)
    ):
        return True
    if isinstance(expr, ast.ListLit):
        return all(is_literal(i) for i in expr.items)
    if isinstance(expr, ast.MapLit):
        return all(is_literal(e.value) for e in expr.entries)
    if isinstance(expr, ast.UnaryOp):
        return expr.op == "-" and isinstance(expr.operand, (ast.IntLit, ast.FloatLit))
    if isinstance(expr, ast.Call):
        return all(is_literal(a.value) for a in expr.args)
    return False


def map_entries(m: ast.MapLit | None) -> Iterable[ast.MapEntry]:
    return m.entries if m is not None else ()


# ---------------------------------------------------------------- a condition's comparisons

COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
_LITERAL_KINDS: tuple[tuple[type, str, str], ...] = (
    (ast.StringLit, "str", "a string"),
    (ast.BoolLit, "bool", "a boolean"),
    (ast.IntLit, "int", "an integer"),
    (ast.FloatLit, "float", "a number"),
    (ast.NoneLit, "none", "`none`"),
)


def _literal_kind(expr: ast.Expr) -> tuple[str, str] | None:
    return next(((k, words) for cls, k, words in _LITERAL_KINDS if isinstance(expr, cls)), None)


def _kinds(ty: Ty) -> set[str] | None:
    """The literal kinds a value of `ty` may equal (None: any, or not a scalar we judge)."""
    if ty.kind is TyKind.PRIM:
        numeric = {"int", "float"}
        return None if ty.name == "any" else numeric if ty.name in numeric else {ty.name}
    if ty.kind is TyKind.LITERAL:
        value = ty.value
        if isinstance(value, bool):
            return {"bool"}
        return {"int", "float"} if isinstance(value, int | float) else {"str"}
    if ty.kind is TyKind.UNION:
        out: set[str] = set()
        for option in ty.args:
            kinds = _kinds(option)
            if kinds is None:
                return None
            out |= kinds
        return out
    return None


def check_comparison(
    cmp: ast.BinaryOp, channel: str, ty: Ty, literal: ast.Expr
) -> list[Diagnostic]:
    """`attempts == "3"` on an `int` channel is never true (and `<` on it fails at run
    time): a literal compared with a channel must be of a kind the channel holds."""
    found = _literal_kind(literal)
    kinds = _kinds(ty)
    if found is None or kinds is None or found[0] in kinds:
        return []
    kind, words = found
    hint = None
    if isinstance(literal, ast.StringLit) and kinds & {"int", "float"}:
        text = literal.value.strip()
        if text.lstrip("-").replace(".", "", 1).isdigit():
            hint = f"compare with the number: `{channel} {cmp.op} {text}`"
    return [
        error(
            Code.TYPE_MISMATCH,
            f"`{channel}` is `{ty.display()}`, compared with {words}",
            literal.span,
            f"{words} is never equal to a value of type `{ty.display()}`"
            if cmp.op in ("==", "!=")
            else f"a value of type `{ty.display()}` and {words} cannot be ordered",
            help=hint,
        )
    ]
