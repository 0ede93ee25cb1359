"""The abstract syntax tree of an `.agent` file.

Input: nothing (definitions only). Built by `dsl.build` from the Lark tree; read by the
compiler. Invariants: every node is a frozen, slotted dataclass with a `span`; children are
named fields (tuples, never lists); the tree records shape only — no name is resolved and no
rule of meaning is checked here (permissive grammar, strict checker).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .source import Span


# ---------------------------------------------------------------- names and expressions

@dataclass(frozen=True, slots=True)
class Name:
    """One identifier as written (or a map key written as a string)."""

    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class StringLit:
    value: str
    span: Span
    triple: bool = False


@dataclass(frozen=True, slots=True)
class IntLit:
    value: int
    span: Span


@dataclass(frozen=True, slots=True)
class FloatLit:
    value: float
    span: Span


@dataclass(frozen=True, slots=True)
class BoolLit:
    value: bool
    span: Span


@dataclass(frozen=True, slots=True)
class NoneLit:
    span: Span


@dataclass(frozen=True, slots=True)
class DurationLit:
    """`500ms`, `30s`, `2m`, `1h`: `seconds` is the value in seconds, `text` as written."""

    seconds: float
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class ListLit:
    items: tuple["Expr", ...]
    span: Span


@dataclass(frozen=True, slots=True)
class MapEntry:
    key: Name
    value: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class MapLit:
    entries: tuple[MapEntry, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Ref:
    """A dotted name: `tools.add`, `START`, `approved`, `human_review`."""

    parts: tuple[Name, ...]
    span: Span

    @property
    def dotted(self) -> str:
        return ".".join(p.text for p in self.parts)


@dataclass(frozen=True, slots=True)
class Arg:
    """A call argument, positional (`name` is None) or keyword (`prompt: "…"`)."""

    name: Name | None
    value: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class Call:
    """`tokens(4000)`, `sqlite(".agentc/state.db")`, `python(tools.check)`."""

    callee: Ref
    args: tuple[Arg, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class UnaryOp:
    op: str  # "not" | "-"
    operand: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class BinaryOp:
    op: str  # "==" "!=" "<" "<=" ">" ">=" "and" "or" "in"
    left: "Expr"
    right: "Expr"
    span: Span


Expr = Union[StringLit, IntLit, FloatLit, BoolLit, NoneLit, DurationLit, ListLit, MapLit,
             Ref, Call, UnaryOp, BinaryOp]


# ---------------------------------------------------------------- types

@dataclass(frozen=True, slots=True)
class NamedType:
    """`str`, `int`, `messages`, `Answer`, `models.Invoice`."""

    name: Ref
    span: Span


@dataclass(frozen=True, slots=True)
class GenericType:
    """`list[str]`, `map[int]`, `dict[str, int]`."""

    name: Name
    args: tuple["TypeExpr", ...]
    span: Span


@dataclass(frozen=True, slots=True)
class OptionalType:
    """`T?`: the value may be none."""

    inner: "TypeExpr"
    span: Span


@dataclass(frozen=True, slots=True)
class UnionType:
    """`A | B`; with literal members this is an enumeration: `"end" | "error"`."""

    options: tuple["TypeExpr", ...]
    span: Span


@dataclass(frozen=True, slots=True)
class LiteralType:
    value: StringLit | IntLit | BoolLit
    span: Span


TypeExpr = Union[NamedType, GenericType, OptionalType, UnionType, LiteralType]


# ---------------------------------------------------------------- shared statements

@dataclass(frozen=True, slots=True)
class FieldDecl:
    """A schema field or state channel: `draft: str = "" reduce append "doc"`."""

    name: Name
    type: TypeExpr
    default: Expr | None
    reducer: Ref | None
    doc: StringLit | None
    span: Span


@dataclass(frozen=True, slots=True)
class StateStmt:
    fields: tuple[FieldDecl, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class LimitsStmt:
    """`limits { steps: 25, step_timeout: 30s }`."""

    entries: MapLit
    span: Span


@dataclass(frozen=True, slots=True)
class CheckpointStmt:
    """`checkpoint sqlite(".agentc/state.db")`, `checkpoint memory`, `checkpoint none`."""

    value: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class InterruptStmt:
    """`interrupt before publish, tools`: `when` is the word `before` or `after`."""

    when: Name
    nodes: tuple[Name, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class MiddlewareItem:
    """One entry of a `middleware { … }` block: a declared middleware or a Python hook."""

    name: Ref
    config: MapLit | None
    span: Span


@dataclass(frozen=True, slots=True)
class MiddlewareStmt:
    items: tuple[MiddlewareItem, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class SettingStmt:
    """Any other `key value` line (`description "…"`); the checker decides if it is known."""

    key: Name
    value: Expr
    span: Span


# ---------------------------------------------------------------- agent block

@dataclass(frozen=True, slots=True)
class ModelStmt:
    """`model "openai:gpt-4o-mini" { temperature: 0 }`."""

    spec: Expr
    options: MapLit | None
    span: Span


@dataclass(frozen=True, slots=True)
class PromptStmt:
    value: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class ToolsStmt:
    value: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class OutputStmt:
    """`output Answer via tool { handle_errors: false }`."""

    schema: Expr
    strategy: Name | None
    options: MapLit | None
    span: Span


AgentStmt = Union[ModelStmt, PromptStmt, ToolsStmt, OutputStmt, MiddlewareStmt, LimitsStmt,
                  CheckpointStmt, StateStmt, InterruptStmt, SettingStmt]


@dataclass(frozen=True, slots=True)
class AgentDecl:
    name: Name
    body: tuple[AgentStmt, ...]
    doc: StringLit | None
    span: Span


# ---------------------------------------------------------------- graph block

@dataclass(frozen=True, slots=True)
class NodeDecl:
    """`node check = python(tools.check_draft) { retry: { attempts: 3 }, timeout: 10s }`."""

    name: Name
    value: Call
    options: MapLit | None
    span: Span


@dataclass(frozen=True, slots=True)
class EdgeDecl:
    """`edge a -> b`, `edge a -> [b, c]`, `edge a -> b when cond`, `edge a -> b otherwise`."""

    source: Name
    targets: tuple[Name, ...]
    condition: Expr | None
    otherwise: bool
    span: Span


@dataclass(frozen=True, slots=True)
class RouteCase:
    label: Name
    target: Name
    span: Span


@dataclass(frozen=True, slots=True)
class RouteDecl:
    """`route model by tools_condition { tools -> tools, end -> END }`."""

    source: Name
    router: Ref | Call
    cases: tuple[RouteCase, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class HookDecl:
    """`hook before write = python(tools.log_turn)` or `hook before_model = python(…)`.

    `point` is `before`/`after` with `target` naming a node, or a hook-point name
    (`before_agent`, `before_model`, `after_model`, `after_agent`, `wrap_model_call`,
    `wrap_tool_call`) with `target` None.
    """

    point: Name
    target: Name | None
    value: Call
    span: Span


GraphStmt = Union[StateStmt, NodeDecl, EdgeDecl, RouteDecl, HookDecl, InterruptStmt,
                  LimitsStmt, CheckpointStmt, MiddlewareStmt, SettingStmt]


@dataclass(frozen=True, slots=True)
class GraphDecl:
    name: Name
    body: tuple[GraphStmt, ...]
    doc: StringLit | None
    span: Span


# ---------------------------------------------------------------- top level

@dataclass(frozen=True, slots=True)
class VersionDecl:
    """`agentc 1`: the language version the file is written for."""

    version: int
    span: Span


@dataclass(frozen=True, slots=True)
class UseDecl:
    """`use "./tools.py" as tools`, `use "./shared.agent"`, `use "pkg.hooks" as hooks`."""

    target: StringLit
    alias: Name | None
    span: Span


@dataclass(frozen=True, slots=True)
class SchemaDecl:
    name: Name
    fields: tuple[FieldDecl, ...]
    doc: StringLit | None
    span: Span


@dataclass(frozen=True, slots=True)
class ParamDecl:
    """A typed parameter of a declared middleware, router or template."""

    name: Name
    type: TypeExpr
    default: Expr | None
    doc: StringLit | None
    span: Span


@dataclass(frozen=True, slots=True)
class DeclareDecl:
    """`middleware NAME(params) = "module:attr" { hooks: […], seats: […] }`.

    `kind` is the keyword that opened it: `middleware`, `router` or `template`. `impl` is
    the Python implementation as an import reference string; `attrs` carries facts about it
    (hook points, jump targets, seats it takes over, tools it adds). `variadic` is true
    when the parameter list ends with `...`.
    """

    kind: Name
    name: Name
    params: tuple[ParamDecl, ...]
    impl: StringLit
    attrs: MapLit | None
    doc: StringLit | None
    span: Span
    variadic: bool = False  # `...` closes the parameter list (the declaration takes more)


Item = Union[UseDecl, SchemaDecl, AgentDecl, GraphDecl, DeclareDecl]


@dataclass(frozen=True, slots=True)
class Module:
    version: VersionDecl | None
    items: tuple[Item, ...]
    span: Span
