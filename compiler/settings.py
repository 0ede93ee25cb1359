"""The settings of one `agent` or `graph` block, read from its body once.

Input: the body of an `ast.AgentDecl` or `ast.GraphDecl`. Output: `AgentSettings` /
`GraphSettings` — one named field per setting (the first statement that writes it: also
the `key value` lines `store`, `context` and a graph's `input`, and a graph's `output [...]`
line), the statements a block may hold many of (interrupts; a graph's nodes, edges, joins,
routes and hooks), its other `key value` lines, and `repeated`: every later statement of a
setting already written, which `duplicate_settings` reports as `duplicate-setting`.
`Ctx` builds each block's settings once (`Ctx.agent_settings`, `Ctx.graph_settings`);
check and lower both read them.

Invariants: a body is walked once; the first statement of a setting wins (the lowering
never meets a repeated one: the checker reported it); the statements each kind of block
holds, and the word each is written with, are listed here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeAlias, TypeVar

import agentc.ir as ir

from ..dsl import ast
from ..dsl.astclass import Record, record
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, Label, error

# ---------------------------------------------------------------- the vocabulary

STORE = "store"  # I1: `store memory | none | sqlite("…")`, a `key value` line of both blocks
TRACE = "trace"  # `trace "otlp://…" | "FILE.jsonl" | none | { to, content }`, both blocks
CONTEXT = "context"  # `context Schema`: the per-run context's schema, both blocks
INPUT = "input"  # a graph's `input [channel, …]`: the channels a caller may set
# The statements that set one thing, by the word that opens them.
SETTING_WORDS: dict[type[ast.Node], str] = {
    ast.ModelStmt: "model",
    ast.PromptStmt: "prompt",
    ast.ToolsStmt: "tools",
    ast.OutputStmt: "output",
    ast.MiddlewareStmt: "middleware",
    ast.StateStmt: "state",
    ast.LimitsStmt: "limits",
    ast.CheckpointStmt: "checkpoint",
}
AGENT_SETTINGS = frozenset(SETTING_WORDS)
GRAPH_SETTINGS = frozenset({ast.StateStmt, ast.LimitsStmt, ast.CheckpointStmt, ast.OutputStmt})
# `key value` lines that set one thing (written at most once), per kind of block.
AGENT_SETTING_KEYS = frozenset({STORE, TRACE, CONTEXT})
GRAPH_SETTING_KEYS = frozenset({STORE, TRACE, CONTEXT, INPUT})
# Words that open a statement of their own, so never a `key value` setting of an agent.
STATEMENT_WORDS = (*SETTING_WORDS.values(), "interrupt")

AGENT_CHANNELS = ("messages", "jump_to", "structured_response")  # built into every agent
BOUNDARY = {"START": ir.START, "END": ir.END}  # a graph's boundary as written → IR names
NODE_KINDS = ("model", "tools", "python", "agent", "subgraph")  # `node x = KIND(…)`

_HELP = {
    STORE: "keep one `store` line",
    TRACE: "keep one `trace` line",
    CONTEXT: "keep one `context` line",
    INPUT: "list every input channel in one `input [...]`",
}

Stmt: TypeAlias = "ast.AgentStmt | ast.GraphStmt"


@record
class Repeated(Record):
    """A setting written again: `again` is ignored, `first` is the one that counts."""

    word: str
    first: Stmt
    again: Stmt


@record
class AgentSettings(Record):
    model: ast.ModelStmt | None = None
    prompt: ast.PromptStmt | None = None
    tools: ast.ToolsStmt | None = None
    output: ast.OutputStmt | None = None
    middleware: ast.MiddlewareStmt | None = None
    state: ast.StateStmt | None = None
    limits: ast.LimitsStmt | None = None
    checkpoint: ast.CheckpointStmt | None = None
    store: ast.SettingStmt | None = None
    trace: ast.SettingStmt | None = None
    context: ast.SettingStmt | None = None
    interrupts: tuple[ast.InterruptStmt, ...] = ()
    settings: tuple[ast.SettingStmt, ...] = ()  # every other `key value` line
    repeated: tuple[Repeated, ...] = ()


@record
class GraphSettings(Record):
    state: ast.StateStmt | None = None
    limits: ast.LimitsStmt | None = None
    checkpoint: ast.CheckpointStmt | None = None
    store: ast.SettingStmt | None = None
    trace: ast.SettingStmt | None = None
    context: ast.SettingStmt | None = None
    input: ast.SettingStmt | None = None
    output: ast.OutputStmt | None = None
    interrupts: tuple[ast.InterruptStmt, ...] = ()
    nodes: tuple[ast.NodeDecl, ...] = ()
    edges: tuple[ast.EdgeDecl, ...] = ()
    joins: tuple[ast.JoinDecl, ...] = ()
    routes: tuple[ast.RouteDecl, ...] = ()
    hooks: tuple[ast.HookDecl, ...] = ()
    middleware: tuple[ast.MiddlewareStmt, ...] = ()  # misplaced: graphs take none
    settings: tuple[ast.SettingStmt, ...] = ()  # every other `key value` line
    repeated: tuple[Repeated, ...] = ()


_S = TypeVar("_S", bound=ast.Node)


@dataclass
class _Body:
    """One walk of a body: the first statement of each setting, the rest by kind."""

    singles: frozenset[type[ast.Node]]
    keys: frozenset[str]  # the `key value` lines written at most once
    first: dict[str, Stmt] = field(default_factory=dict)
    repeated: list[Repeated] = field(default_factory=list)
    many: dict[type[ast.Node], list[Stmt]] = field(default_factory=dict)

    def read(self, body: Iterable[Stmt]) -> _Body:
        for stmt in body:
            word = self._word(stmt)
            if word is None:
                self.many.setdefault(type(stmt), []).append(stmt)
            elif word in self.first:
                self.repeated.append(Repeated(word, self.first[word], stmt))
            else:
                self.first[word] = stmt
        return self

    def _word(self, stmt: Stmt) -> str | None:
        if isinstance(stmt, ast.SettingStmt):
            return stmt.key.text if stmt.key.text in self.keys else None
        return SETTING_WORDS[type(stmt)] if type(stmt) in self.singles else None

    def one(self, word: str, cls: type[_S]) -> _S | None:
        stmt = self.first.get(word)
        assert stmt is None or isinstance(stmt, cls), stmt
        return stmt

    def all(self, cls: type[_S]) -> tuple[_S, ...]:
        return tuple(s for s in self.many.get(cls, ()) if isinstance(s, cls))


def agent_settings(agent: ast.AgentDecl) -> AgentSettings:
    b = _Body(AGENT_SETTINGS, AGENT_SETTING_KEYS).read(agent.body)
    return AgentSettings(
        model=b.one("model", ast.ModelStmt),
        prompt=b.one("prompt", ast.PromptStmt),
        tools=b.one("tools", ast.ToolsStmt),
        output=b.one("output", ast.OutputStmt),
        middleware=b.one("middleware", ast.MiddlewareStmt),
        state=b.one("state", ast.StateStmt),
        limits=b.one("limits", ast.LimitsStmt),
        checkpoint=b.one("checkpoint", ast.CheckpointStmt),
        store=b.one(STORE, ast.SettingStmt),
        trace=b.one(TRACE, ast.SettingStmt),
        context=b.one(CONTEXT, ast.SettingStmt),
        interrupts=b.all(ast.InterruptStmt),
        settings=b.all(ast.SettingStmt),
        repeated=tuple(b.repeated),
    )


def graph_settings(graph: ast.GraphDecl) -> GraphSettings:
    b = _Body(GRAPH_SETTINGS, GRAPH_SETTING_KEYS).read(graph.body)
    return GraphSettings(
        state=b.one("state", ast.StateStmt),
        limits=b.one("limits", ast.LimitsStmt),
        checkpoint=b.one("checkpoint", ast.CheckpointStmt),
        store=b.one(STORE, ast.SettingStmt),
        trace=b.one(TRACE, ast.SettingStmt),
        context=b.one(CONTEXT, ast.SettingStmt),
        input=b.one(INPUT, ast.SettingStmt),
        output=b.one("output", ast.OutputStmt),
        interrupts=b.all(ast.InterruptStmt),
        nodes=b.all(ast.NodeDecl),
        edges=b.all(ast.EdgeDecl),
        joins=b.all(ast.JoinDecl),
        routes=b.all(ast.RouteDecl),
        hooks=b.all(ast.HookDecl),
        middleware=b.all(ast.MiddlewareStmt),
        settings=b.all(ast.SettingStmt),
        repeated=tuple(b.repeated),
    )


def when_groups(edges: Iterable[ast.EdgeDecl]) -> dict[str, list[ast.EdgeDecl]]:
    """A graph's `when` and `otherwise` edges by source, in order: one branch each."""
    groups: dict[str, list[ast.EdgeDecl]] = {}
    for e in edges:
        if e.condition is not None or e.otherwise:
            groups.setdefault(e.source.text, []).append(e)
    return groups


def duplicate_settings(repeated: Iterable[Repeated]) -> Iterator[Diagnostic]:
    """`duplicate-setting` for each setting written again, pointing at the first."""
    for r in repeated:
        yield error(
            Code.DUPLICATE_SETTING,
            f"`{r.word}` is given twice",
            r.again.span,
            "given again here",
            secondary=(Label(r.first.span, "first given here"),),
            help=_HELP.get(r.word, "keep one"),
        )
