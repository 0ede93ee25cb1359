"""The abstract syntax tree of an `.agent` file.

Input: nothing (definitions only). Built by `dsl.build` from the Lark tree; read by the
compiler. Invariants: every node is a frozen, slotted dataclass (`@node`, see dsl/astclass.py)
with a `span`; children are named fields (tuples, never lists); the tree records shape only
— no name is resolved and no rule of meaning is checked here (permissive grammar, strict
checker).
"""

from __future__ import annotations

import dataclasses
from typing import TypeAlias

# The leaves (names, expressions, types) live in ast_expr; every one is part of this module.
from .ast_expr import (  # noqa: F401
    Arg,
    BinaryOp,
    BoolLit,
    Call,
    DurationLit,
    Expr,
    FloatLit,
    GenericType,
    IntLit,
    ListLit,
    LiteralType,
    MapEntry,
    MapLit,
    Name,
    NamedType,
    NoneLit,
    OptionalType,
    Ref,
    StringLit,
    TypeExpr,
    UnaryOp,
    UnionType,
)
from .astclass import Node, finish, node
from .source import Span

# ---------------------------------------------------------------- shared statements


@node
class FieldDecl(Node):
    """A schema field or state channel: `draft: str = "" reduce append "doc"`."""

    name: Name
    type: TypeExpr
    default: Expr | None
    reducer: Ref | None
    doc: StringLit | None
    span: Span


@node
class StateStmt(Node):
    fields: tuple[FieldDecl, ...]
    span: Span


@node
class LimitsStmt(Node):
    """`limits { steps: 25, step_timeout: 30s }`."""

    entries: MapLit
    span: Span


@node
class CheckpointStmt(Node):
    """`checkpoint sqlite(".agentc/state.db")`, `checkpoint memory`, `checkpoint none`."""

    value: Expr
    span: Span


@node
class InterruptStmt(Node):
    """`interrupt before publish, tools`: `when` is the word `before` or `after`."""

    when: Name
    nodes: tuple[Name, ...]
    span: Span


@node
class MiddlewareItem(Node):
    """One entry of a `middleware { … }` block: a declared middleware or a Python hook."""

    name: Ref
    config: MapLit | None
    span: Span


@node
class MiddlewareStmt(Node):
    items: tuple[MiddlewareItem, ...]
    span: Span


@node
class SettingStmt(Node):
    """Any other `key value` line (`description "…"`); the checker decides if it is known."""

    key: Name
    value: Expr
    span: Span


# ---------------------------------------------------------------- agent block


@node
class ModelStmt(Node):
    """`model "openai:gpt-4o-mini" { temperature: 0 }`."""

    spec: Expr
    options: MapLit | None
    span: Span


@node
class PromptStmt(Node):
    value: Expr
    span: Span


@node
class ToolsStmt(Node):
    value: Expr
    span: Span


@node
class OutputStmt(Node):
    """`output Answer via tool { handle_errors: false }`."""

    schema: Expr
    strategy: Name | None
    options: MapLit | None
    span: Span


AgentStmt: TypeAlias = (
    ModelStmt
    | PromptStmt
    | ToolsStmt
    | OutputStmt
    | MiddlewareStmt
    | LimitsStmt
    | CheckpointStmt
    | StateStmt
    | InterruptStmt
    | SettingStmt
)


@node
class AgentDecl(Node):
    name: Name
    body: tuple[AgentStmt, ...]
    doc: StringLit | None
    span: Span


# ---------------------------------------------------------------- graph block


@node
class NodeDecl(Node):
    """`node check = python(tools.check_draft) { retry: { attempts: 3 }, timeout: 10s }`."""

    name: Name
    value: Call
    options: MapLit | None
    span: Span


@node
class EdgeDecl(Node):
    """`edge a -> b`, `edge a -> [b, c]`, `edge a -> b when cond`, `edge a -> b otherwise`."""

    source: Name
    targets: tuple[Name, ...]
    condition: Expr | None
    otherwise: bool
    span: Span


@node
class JoinDecl(Node):
    """`edge [a, b] -> c`: `c` runs once, after every source has run (a join).

    `targets`, `condition` and `otherwise` are what was written after `->`; a join takes
    one target and no condition (the checker says so)."""

    sources: tuple[Name, ...]
    targets: tuple[Name, ...]
    condition: Expr | None
    otherwise: bool
    span: Span


@node
class RouteCase(Node):
    """`tools -> act` or `"Rejected + Feedback" -> gen`: a router's answer and its node."""

    label: Name | StringLit  # a string when the answer is not a name
    target: Name
    span: Span

    @property
    def key(self) -> str:
        """The router's answer this case maps, however it was written."""
        return self.label.text if isinstance(self.label, Name) else self.label.value


@node
class RouteDecl(Node):
    """`route model by tools_condition { tools -> tools, end -> END }`, or with a target
    list `route plan by steps.assign [worker, END]` (`targets`; `cases` is then empty):
    the router returns node names, or `Send`s to them."""

    source: Name
    router: Ref | Call
    cases: tuple[RouteCase, ...]
    span: Span
    targets: tuple[Name, ...] | None = None  # the list form; None: the `{ … }` form


@node
class HookDecl(Node):
    """`hook before write = python(tools.log_turn)` or `hook before_model = python(…)`.

    `point` is `before`/`after` with `target` naming a node, or a hook-point name
    (`before_agent`, `before_model`, `after_model`, `after_agent`, `wrap_model_call`,
    `wrap_tool_call`) with `target` None.
    """

    point: Name
    target: Name | None
    value: Call
    span: Span


GraphStmt: TypeAlias = (
    StateStmt
    | NodeDecl
    | EdgeDecl
    | JoinDecl
    | RouteDecl
    | HookDecl
    | InterruptStmt
    | LimitsStmt
    | CheckpointStmt
    | MiddlewareStmt
    | OutputStmt  # `output [channel, …]`: the channels in the run's result
    | SettingStmt
)


@node
class GraphDecl(Node):
    name: Name
    body: tuple[GraphStmt, ...]
    doc: StringLit | None
    span: Span


# ---------------------------------------------------------------- top level


@node
class VersionDecl(Node):
    """`agentc 1`: the language version the file is written for."""

    version: int
    span: Span


@node
class UseDecl(Node):
    """`use "./tools.py" as tools`, `use "./shared.agent"`, `use "pkg.hooks" as hooks`,
    `use "http://…/mcp" as files { timeout: 30s }`."""

    target: StringLit
    alias: Name | None
    span: Span
    options: MapLit | None = None  # only an MCP server takes options (checked in resolve)


@node
class SchemaDecl(Node):
    name: Name
    fields: tuple[FieldDecl, ...]
    doc: StringLit | None
    span: Span


@node
class ParamDecl(Node):
    """A typed parameter of a declared middleware, router or template."""

    name: Name
    type: TypeExpr
    default: Expr | None
    doc: StringLit | None
    span: Span


@node
class DeclareDecl(Node):
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


# ---------------------------------------------------------------- test blocks (`agentc test`)


@node
class TestAgent(Node):
    """`agent calculator`: the agent or graph of the tested file the test runs."""

    name: Name
    span: Span


@node
class TestModel(Node):
    """`model "scripted" { replies: [...] }`: the tested agent's model (every model node of
    a graph, one model for all); `model NODE "…"`: that model node's only."""

    node: Name | None
    spec: StringLit
    options: MapLit | None
    span: Span


@node
class TestReplay(Node):
    """`replay "cassettes/add.jsonl"`: the run's models served from a recorded cassette."""

    path: StringLit
    span: Span


@node
class TestInput(Node):
    """`input "what is 2+3?"` (the user's message) or `input { topic: "cats" }` (channels)."""

    value: Expr
    span: Span


@node
class TestDecide(Node):
    """`decide approve`, `decide edit(a: 1)`, `decide reject("why")`, `decide respond("…")`."""

    decision: Expr
    span: Span


@node
class TestExpect(Node):
    """`expect answer contains("5")`: `subject` says what is checked, `value` how."""

    subject: Name
    value: Expr
    span: Span


TestStmt: TypeAlias = TestAgent | TestModel | TestReplay | TestInput | TestDecide | TestExpect


@node
class TestDecl(Node):
    """`test "adds two numbers" { … }`: statements in the order they were written."""

    name: StringLit
    body: tuple[TestStmt, ...]
    span: Span


Item: TypeAlias = UseDecl | SchemaDecl | AgentDecl | GraphDecl | DeclareDecl


@node
class Module(Node):
    """A file. `tests` are its `test` blocks, kept apart from `items`: the compiler never
    sees them (they are read by `agentc test` and its checks)."""

    version: VersionDecl | None
    items: tuple[Item, ...]
    span: Span
    tests: tuple[TestDecl, ...] = dataclasses.field(default=(), metadata={"omit_empty": True})


# One `exec` for every node class's `__init__` (see dsl/astclass.py): keep this last.
finish()
