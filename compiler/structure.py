"""The graph view of a lowered graph, and the structural checks made on it.

Input: an `ir.Graph`. Output: `graph_edges` (every edge as a `GEdge`: static, conditional,
`Send` fan-out, declared `goto`, or one source of a join), `GraphView` (a `networkx.DiGraph`
over node names plus `__start__`/`__end__`; each edge carries `kind`, `conditional`, `join`
and `label`) and diagnostics: dangling targets (a lowering bug, reported anyway), nodes that
can never run (warning; a join target runs only once every source can), nodes with no path
to END. This is the only module that imports networkx.

The checks run on `Reach`, a plain adjacency map with breadth-first descendants and
ancestors: importing networkx costs ~110 ms, more than a third of the 300 ms budget of a
cold `agentc check`, and reachability is all the checks need. `GraphView` (networkx)
stays the analysis API for tools and tests, imported on first use, and a property test
checks `Reach` against networkx on random graphs.

Policy for "no path to END" (our judgement, see docs/diagnostics.md):
- error when every node reachable from the stuck node is a fixed node (model, tools, agent,
  subgraph, template hook) and none is a dead end: the run can only stop at the step limit;
- warning otherwise: a dead end stops the run quietly without reaching END, and a python
  node without declared `goto` targets may still leave by returning `Command(goto=…)` (one
  with them leaves only along its GOTO edges, which the view already has).
Invariant: the IR is only read.
"""

from __future__ import annotations

import enum
import functools
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import agentc.ir as ir

from ..dsl.astclass import Record, record
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error, warning
from ..dsl.source import Pos, Span
from .suggest import did_you_mean


class EdgeKind(str, enum.Enum):
    """How control moves along an edge (what a diagram draws and a check may weigh)."""

    STATIC = "static"  # `edge a -> b`
    CONDITIONAL = "conditional"  # a `when` case or a router's route
    SEND = "send"  # `route a by r [x, y]`: the router may fan out by `Send`
    GOTO = "goto"  # `{ goto: [x, END] }`: a declared `Command(goto=…)` target
    JOIN = "join"  # `edge [a, b] -> c`: one source of a barrier; c runs once all have run


@record
class GEdge(Record):
    source: str
    target: str
    kind: EdgeKind
    label: str | None = None
    span: ir.SourceSpan | None = None

    @property
    def conditional(self) -> bool:
        """Taken only on some runs: every kind but static edges and joins."""
        return self.kind not in (EdgeKind.STATIC, EdgeKind.JOIN)


def graph_edges(graph: ir.Graph) -> Iterator[GEdge]:
    """Every edge, in a fixed order: static edges, joins (one per source), branch routes
    (Send routes marked), then declared `goto` targets."""
    for e in graph.edges:
        yield GEdge(e.source, e.target, EdgeKind.STATIC, None, e.span)
    for j in graph.joins:
        for source in j.sources:
            yield GEdge(source, j.target, EdgeKind.JOIN, None, j.span)
    for b in graph.branches:
        kind = EdgeKind.SEND if b.sends else EdgeKind.CONDITIONAL
        for target in branch_targets(b):
            yield GEdge(b.source, target, kind, b.label, b.span)
    for n in graph.nodes:
        for target in n.goto or ():
            yield GEdge(n.name, target, EdgeKind.GOTO, "goto", n.span)


@dataclass(frozen=True)
class GraphView:
    graph: ir.Graph
    digraph: Any  # networkx.DiGraph

    @classmethod
    def of(cls, graph: ir.Graph) -> GraphView:
        import networkx as nx

        g = nx.DiGraph()
        g.add_node(ir.START)
        for n in graph.nodes:
            g.add_node(n.name, kind=n.kind.value, defer=n.defer)
        g.add_node(ir.END)
        for e in graph_edges(graph):
            g.add_edge(
                e.source,
                e.target,
                conditional=e.conditional,
                kind=e.kind.value,
                join=e.kind is EdgeKind.JOIN,
                label=e.label,
            )
        return cls(graph, g)

    def edge_set(self) -> set[tuple[str, str, bool]]:
        return {(u, v, d["conditional"]) for u, v, d in self.digraph.edges(data=True)}


def branch_targets(b: ir.BranchSpec) -> list[str]:
    if b.kind is ir.BranchKind.WHEN:
        return [c.target for c in b.cases]
    return list(dict.fromkeys(b.routes.values()))


def to_span(s: ir.SourceSpan) -> Span:
    return Span(s.file, Pos(s.line, s.col, s.offset), Pos(s.end_line, s.end_col, s.end_offset))


@dataclass(frozen=True)
class Reach:
    """Successor and predecessor maps of a graph, for reachability questions."""

    graph: ir.Graph
    succ: dict[str, set[str]]
    pred: dict[str, set[str]]
    edges: tuple[GEdge, ...] = ()  # `graph_edges(graph)`, listed once for every check

    @classmethod
    def of(cls, graph: ir.Graph) -> Reach:
        names = [ir.START, *(n.name for n in graph.nodes), ir.END]
        succ: dict[str, set[str]] = {n: set() for n in names}
        pred: dict[str, set[str]] = {n: set() for n in names}
        edges = tuple(graph_edges(graph))
        for e in edges:
            succ.setdefault(e.source, set()).add(e.target)
            pred.setdefault(e.target, set()).add(e.source)
            succ.setdefault(e.target, set())
            pred.setdefault(e.source, set())
        return cls(graph, succ, pred, edges)

    def descendants(self, node: str) -> set[str]:
        return _walk(self.succ, node)

    def ancestors(self, node: str) -> set[str]:
        return _walk(self.pred, node)

    def out_degree(self, node: str) -> int:
        return len(self.succ.get(node, ()))

    def runnable(self) -> set[str]:
        """Nodes some run can reach from START, where a join's target counts only once
        every one of its sources can run (a barrier that is never released lets no one in)."""
        return set(self._runnable)

    @functools.cached_property
    def _runnable(self) -> frozenset[str]:
        # Each join counts its sources not yet reached and is released when none is left,
        # so a node and a join are each visited once (rescanning every join after each
        # release was quadratic in a chain of joins).
        free: dict[str, list[str]] = {}
        for e in self.edges or graph_edges(self.graph):
            if e.kind is not EdgeKind.JOIN:
                free.setdefault(e.source, []).append(e.target)
        joins = self.graph.joins
        waiting = [len(set(j.sources)) for j in joins]
        joins_of: dict[str, list[int]] = {}
        for i, j in enumerate(joins):
            for source in set(j.sources):
                joins_of.setdefault(source, []).append(i)
        seen: set[str] = set()
        queue = deque([ir.START, *(j.target for j, w in zip(joins, waiting, strict=True) if not w)])
        while queue:
            node = queue.popleft()
            if node in seen:
                continue
            seen.add(node)
            queue.extend(free.get(node, ()))
            for i in joins_of.get(node, ()):
                waiting[i] -= 1
                if not waiting[i]:
                    queue.append(joins[i].target)
        seen.discard(ir.START)
        return frozenset(seen)


def _walk(adjacent: dict[str, set[str]], start: str) -> set[str]:
    """Nodes reachable from `start` (excluding it unless on a cycle), as networkx does."""
    seen: set[str] = set()
    queue = deque(adjacent.get(start, ()))
    while queue:
        node = queue.popleft()
        if node not in seen:
            seen.add(node)
            queue.extend(adjacent.get(node, ()))
    seen.discard(start)
    return seen


def check_structure(graph: ir.Graph) -> Iterator[Diagnostic]:
    view = Reach.of(graph)
    yield from check_dangling(view)
    yield from check_reachable(view)
    yield from check_path_to_end(view)


def check_dangling(view: Reach) -> Iterator[Diagnostic]:
    known = {n.name for n in view.graph.nodes} | {ir.START, ir.END}
    for i in view.graph.interrupts:  # e.g. `interrupt before tools` in an agent without tools
        if i.node not in known:
            yield error(
                Code.DANGLING_TARGET,
                f"`{i.node}` is not a node of `{view.graph.name}`",
                to_span(i.span),
                "interrupt at no node",
                notes=("its nodes are " + ", ".join(f"`{n.name}`" for n in view.graph.nodes),),
                help=did_you_mean(i.node, (n.name for n in view.graph.nodes)),
            )
    for e in view.edges or graph_edges(view.graph):  # joins and goto targets included
        for end in dict.fromkeys((e.source, e.target)):
            if end not in known and e.span is not None:
                yield error(
                    Code.DANGLING_TARGET,
                    f"`{end}` is not a node of `{view.graph.name}`",
                    to_span(e.span),
                    "points at nothing",
                    notes=(
                        "e.g. a middleware hook that may jump to `tools` in an agent without tools",
                    ),
                )


def check_reachable(view: Reach) -> Iterator[Diagnostic]:
    reached = view.descendants(ir.START)
    runnable = view.runnable()
    joins_into: dict[str, list[ir.JoinSpec]] = {}
    for j in view.graph.joins:
        joins_into.setdefault(j.target, []).append(j)
    for n in view.graph.nodes:
        if n.name not in reached:
            yield warning(
                Code.UNREACHABLE_NODE,
                f"node `{n.name}` can never run",
                _name_span(n),
                "no edge or branch reaches this node from START",
                help=f"add an edge such as `edge <node> -> {n.name}`, or remove it",
            )
        elif n.name not in runnable:
            yield warning(
                Code.UNREACHABLE_NODE,
                f"node `{n.name}` can never run",
                _name_span(n),
                "it is reached only through a join that waits for a node that never runs",
                notes=tuple(_blocked_joins(joins_into.get(n.name, []), runnable)),
                help="drop that source from the join, or add an edge that reaches it",
            )


def _blocked_joins(joins: list[ir.JoinSpec], runnable: set[str]) -> Iterator[str]:
    """The joins into one node (in declaration order) that wait for a node that never runs."""
    for j in joins:
        missing = [s for s in j.sources if s not in runnable]
        if missing:
            names = ", ".join(f"`{s}`" for s in missing)
            yield f"the join at line {j.span.line} also waits for {names}"


def check_path_to_end(view: Reach) -> Iterator[Diagnostic]:
    """One diagnostic per graph, at the first stuck node; the others are listed."""
    reaching_end = view.ancestors(ir.END)
    reached = view.runnable()  # a node that can never run is reported once, above
    stuck = [n for n in view.graph.nodes if n.name in reached and n.name not in reaching_end]
    if not stuck:
        return
    first = stuck[0]
    ahead = view.descendants(first.name) | {first.name}
    dead_end = any(view.out_degree(a) == 0 for a in ahead)
    escape = any(_may_goto_anywhere(n) for n in view.graph.nodes if n.name in ahead)
    others = tuple(
        f"no path to END either: {', '.join(n.name for n in stuck[1:])}"
        for _ in (0,)
        if len(stuck) > 1
    )
    if dead_end or escape:
        yield warning(
            Code.NO_PATH_TO_END,
            f"node `{first.name}` has no path to END",
            _name_span(first),
            "runs from here never reach END",
            notes=(
                "the run stops at a node without outgoing edges, or leaves only "
                "if a python node returns Command(goto=…)",
            )
            + others,
            help=f"add an edge such as `edge {first.name} -> END`",
        )
    else:
        yield error(
            Code.NO_PATH_TO_END,
            f"node `{first.name}` has no path to END",
            _name_span(first),
            "every run through here loops until the step limit",
            notes=(
                f"the run stops with a recursion error after "
                f"{view.graph.limits.steps.value} steps (the step limit, F1)",
            )
            + others,
            help="add a `when … otherwise` or a route that leads to END",
        )


def _may_goto_anywhere(node: ir.NodeSpec) -> bool:
    """A python node without declared `goto` targets may return any `Command(goto=…)`; one
    with them may only go where its GOTO edges (already in the view) lead."""
    return node.kind is ir.NodeKind.PYTHON and node.goto is None


def _name_span(n: ir.NodeSpec) -> Span:
    return to_span(n.span)
