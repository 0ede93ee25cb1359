"""The graph view of a lowered graph, and the structural checks made on it.

Input: an `ir.Graph`. Output: `GraphView` (a `networkx.DiGraph` over node names plus
`__start__`/`__end__`; each edge carries `conditional` and `label`) and diagnostics:
dangling targets (a lowering bug, reported anyway), nodes unreachable from START (warning),
nodes with no path to END. This is the only module that imports networkx.

The checks run on `Reach`, a plain adjacency map with breadth-first descendants and
ancestors: importing networkx costs ~110 ms, more than a third of the 300 ms budget of a
cold `agentc check`, and reachability is all the checks need. `GraphView` (networkx)
stays the analysis API for tools and tests, imported on first use, and a property test
checks `Reach` against networkx on random graphs.

Policy for "no path to END" (our judgement, see docs/diagnostics.md):
- error when every node reachable from the stuck node is a fixed node (model, tools, agent,
  subgraph, template hook) and none is a dead end: the run can only stop at the step limit;
- warning otherwise: a dead end stops the run quietly without reaching END, and a python
  node may still leave by returning `Command(goto=…)`.
Invariant: the IR is only read.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import agentc.ir as ir

from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error, warning
from ..dsl.source import Pos, Span


def graph_edges(graph: ir.Graph) -> Iterator[tuple[str, str, bool, str | None]]:
    """Every edge as (source, target, conditional, label), static edges first."""
    for e in graph.edges:
        yield e.source, e.target, False, None
    for b in graph.branches:
        for target in branch_targets(b):
            yield b.source, target, True, b.label


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
            g.add_node(n.name, kind=n.kind.value)
        g.add_node(ir.END)
        for source, target, conditional, label in graph_edges(graph):
            g.add_edge(source, target, conditional=conditional, label=label)
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

    @classmethod
    def of(cls, graph: ir.Graph) -> Reach:
        names = [ir.START, *(n.name for n in graph.nodes), ir.END]
        succ: dict[str, set[str]] = {n: set() for n in names}
        pred: dict[str, set[str]] = {n: set() for n in names}
        for source, target, _, _ in graph_edges(graph):
            succ.setdefault(source, set()).add(target)
            pred.setdefault(target, set()).add(source)
            succ.setdefault(target, set())
            pred.setdefault(source, set())
        return cls(graph, succ, pred)

    def descendants(self, node: str) -> set[str]:
        return _walk(self.succ, node)

    def ancestors(self, node: str) -> set[str]:
        return _walk(self.pred, node)

    def out_degree(self, node: str) -> int:
        return len(self.succ.get(node, ()))


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
    pairs = [(e.source, e.target, e.span) for e in view.graph.edges]
    pairs += [(b.source, t, b.span) for b in view.graph.branches for t in branch_targets(b)]
    for i in view.graph.interrupts:  # e.g. `interrupt before tools` in an agent without tools
        if i.node not in known:
            yield error(
                Code.DANGLING_TARGET,
                f"`{i.node}` is not a node of `{view.graph.name}`",
                to_span(i.span),
                "interrupt at no node",
            )
    for source, target, span in pairs:
        for end in (source, target):
            if end not in known:
                yield error(
                    Code.DANGLING_TARGET,
                    f"`{end}` is not a node of `{view.graph.name}`",
                    to_span(span),
                    "points at nothing",
                    notes=(
                        "e.g. a middleware hook that may jump to `tools` in an agent without tools",
                    ),
                )


def check_reachable(view: Reach) -> Iterator[Diagnostic]:
    reached = view.descendants(ir.START)
    for n in view.graph.nodes:
        if n.name not in reached:
            yield warning(
                Code.UNREACHABLE_NODE,
                f"node `{n.name}` can never run",
                _name_span(n),
                "no edge or branch reaches this node from START",
                help=f"add an edge such as `edge <node> -> {n.name}`, or remove it",
            )


def check_path_to_end(view: Reach) -> Iterator[Diagnostic]:
    """One diagnostic per graph, at the first stuck node; the others are listed."""
    reaching_end = view.ancestors(ir.END)
    reached = view.descendants(ir.START)
    stuck = [n for n in view.graph.nodes if n.name in reached and n.name not in reaching_end]
    if not stuck:
        return
    first = stuck[0]
    ahead = view.descendants(first.name) | {first.name}
    kinds = {n.name: n.kind for n in view.graph.nodes}
    dead_end = any(view.out_degree(a) == 0 for a in ahead)
    escape = any(kinds.get(a) is ir.NodeKind.PYTHON for a in ahead)
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
                f"F1: the run stops with a recursion error after "
                f"{view.graph.limits.steps.value} steps",
            )
            + others,
            help="add a `when … otherwise` or a route that leads to END",
        )


def _name_span(n: ir.NodeSpec) -> Span:
    return to_span(n.span)
