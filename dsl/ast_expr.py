"""The AST's names, expressions and type expressions: the leaves every statement of
`dsl.ast` is made of. Same rules as `dsl.ast`: frozen, slotted, keyword-only, a span on
every node; `dsl.ast` re-exports every name here, so code reads them as `ast.StringLit`."""

from __future__ import annotations

from typing import TypeAlias

from .astclass import Node, node
from .source import Span

# ---------------------------------------------------------------- names and expressions


@node
class Name(Node):
    """One identifier as written (or a map key written as a string)."""

    text: str
    span: Span


@node
class StringLit(Node):
    value: str
    span: Span
    triple: bool = False


@node
class IntLit(Node):
    value: int
    span: Span


@node
class FloatLit(Node):
    value: float
    span: Span


@node
class BoolLit(Node):
    value: bool
    span: Span


@node
class NoneLit(Node):
    span: Span


@node
class DurationLit(Node):
    """`500ms`, `30s`, `2m`, `1h`: `seconds` is the value in seconds, `text` as written."""

    seconds: float
    text: str
    span: Span


@node
class ListLit(Node):
    items: tuple[Expr, ...]
    span: Span


@node
class MapEntry(Node):
    key: Name
    value: Expr
    span: Span


@node
class MapLit(Node):
    entries: tuple[MapEntry, ...]
    span: Span


@node
class Ref(Node):
    """A dotted name: `tools.add`, `START`, `approved`, `human_review`."""

    parts: tuple[Name, ...]
    span: Span

    @property
    def dotted(self) -> str:
        return ".".join(p.text for p in self.parts)


@node
class Arg(Node):
    """A call argument, positional (`name` is None) or keyword (`prompt: "…"`)."""

    name: Name | None
    value: Expr
    span: Span


@node
class Call(Node):
    """`tokens(4000)`, `sqlite(".agentc/state.db")`, `python(tools.check)`."""

    callee: Ref
    args: tuple[Arg, ...]
    span: Span


@node
class UnaryOp(Node):
    op: str  # "not" | "-"
    operand: Expr
    span: Span


@node
class BinaryOp(Node):
    op: str  # "==" "!=" "<" "<=" ">" ">=" "and" "or" "in"
    left: Expr
    right: Expr
    span: Span


Expr: TypeAlias = (
    StringLit
    | IntLit
    | FloatLit
    | BoolLit
    | NoneLit
    | DurationLit
    | ListLit
    | MapLit
    | Ref
    | Call
    | UnaryOp
    | BinaryOp
)


# ---------------------------------------------------------------- types


@node
class NamedType(Node):
    """`str`, `int`, `messages`, `Answer`, `models.Invoice`."""

    name: Ref
    span: Span


@node
class GenericType(Node):
    """`list[str]`, `map[int]`, `dict[str, int]`."""

    name: Name
    args: tuple[TypeExpr, ...]
    span: Span


@node
class OptionalType(Node):
    """`T?`: the value may be none."""

    inner: TypeExpr
    span: Span


@node
class UnionType(Node):
    """`A | B`; with literal members this is an enumeration: `"end" | "error"`."""

    options: tuple[TypeExpr, ...]
    span: Span


@node
class LiteralType(Node):
    value: StringLit | IntLit | BoolLit
    span: Span


TypeExpr: TypeAlias = NamedType | GenericType | OptionalType | UnionType | LiteralType
