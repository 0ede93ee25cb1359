"""The decision map of one compiled graph: who holds each seat of create_agent, and why.

Input: an `ir.Graph` and the `SeatTable` (default: the stdlib's). Output: a `DecisionMap` —
one `SeatAnswer` per seat, each with one or more `Part`s (a holder, the answer in this agent,
and the span of the `.agent` text that makes it so), seats this file decides listed first,
and the holder counts (kind · holder → seats) as the seed's own summary table.

Invariants: nothing is written per agent. The table gives defaults; each middleware's
declared `seats` (from `stdlib/prelude.agent`, via `ir.MiddlewareSpec.seats`, else the seats
of its hook points) moves those seats to it; the IR facts of `facts.FACTS` fill the answer
templates the table attaches to seats. In a hand-built `graph`, the graph's own model and
tools nodes answer the seats a model call or a ToolNode makes (`nodeseats.py`: one part per
group of nodes that answer alike, at the node); the other create_agent seats are not in
play. A middleware's answer says what it does (`mwtext.describe`), never its config.

Sub-agents (`subagents.py`: agents used as tools, agent and subgraph nodes) get a map of
their own, kept in `DecisionMap.subagents`, when the program is given; their
answers to the review, model and cap seats (`subagents.FOLDED`) are repeated in the
parent's answers with the sub-agent named, since they are decided inside the parent's run.
The map is a pure function of its inputs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import agentc.ir as ir

from .facts import FACTS, FactValue, local_tools, ticks
from .mwtext import describe, is_stdlib
from .nodeseats import GraphNodes, node_parts
from .parts import Origin, Part
from .seats import Holder, Kind, Scope, SeatRow, SeatTable, Split, seat_table
from .subagents import FOLDED, SubAgentUse, counts, folded, uses


@dataclass(frozen=True, slots=True)
class SeatAnswer:
    seat: SeatRow
    parts: tuple[Part, ...]

    @property
    def holder(self) -> Holder:
        """The seat's holder for the counts: the first part's (a review split puts human first)."""
        return self.parts[0].holder

    @property
    def changed(self) -> bool:
        return any(
            p.origin in (Origin.FACT, Origin.MIDDLEWARE, Origin.SUBAGENT) for p in self.parts
        )


@dataclass(frozen=True, slots=True)
class SubAgentMap:
    """A sub-agent this graph runs, and its own decision map."""

    use: SubAgentUse
    map: DecisionMap


@dataclass(frozen=True, slots=True)
class DecisionMap:
    graph: str
    kind: ir.GraphKind
    file: str
    answers: tuple[SeatAnswer, ...]  # changed first, then seat order
    counts: tuple[tuple[Kind, Holder, int], ...] = field(default=())
    subagents: tuple[SubAgentMap, ...] = ()
    source: ir.Graph | None = field(default=None, compare=False)  # the graph it describes
    schemas: tuple[ir.SchemaSpec, ...] = field(default=(), compare=False)  # the program's

    def answer(self, seat_id: str) -> SeatAnswer:
        for a in self.answers:
            if a.seat.id == seat_id:
                return a
        raise KeyError(seat_id)


def decision_map(
    graph: ir.Graph,
    table: SeatTable | None = None,
    *,
    program: ir.Program | None = None,
) -> DecisionMap:
    """The map of `graph`; with `program` (the compiled file it comes from), its
    sub-agents' maps too, followed to any depth (a graph already being mapped further out
    is not), and the schemas its summary names."""
    graphs = {g.name: g for g in program.graphs} if program is not None else {}
    schemas = tuple(program.schemas) if program is not None else ()
    return _map(graph, table or seat_table(), graphs, (graph.name,), schemas)


def _map(
    graph: ir.Graph,
    table: SeatTable,
    graphs: Mapping[str, ir.Graph],
    seen: tuple[str, ...],
    schemas: tuple[ir.SchemaSpec, ...],
) -> DecisionMap:
    subs = tuple(
        SubAgentMap(use, _map(use.graph, table, graphs, (*seen, use.graph.name), schemas))
        for use in uses(graph, graphs)
        if use.graph.name not in seen
    )
    facts = {name: extract(graph) for name, extract in FACTS.items()}
    claims = _middleware_claims(graph, table)
    nodes = GraphNodes.of(graph) if graph.kind is ir.GraphKind.GRAPH else None
    answers = [
        _fold(
            graph, SeatAnswer(row, _parts(graph, row, facts, claims.get(row.id, []), nodes)), subs
        )
        for row in table.seats
    ]
    ordered = [a for a in answers if a.changed] + [a for a in answers if not a.changed]
    return DecisionMap(
        graph.name,
        graph.kind,
        graph.span.file,
        tuple(ordered),
        _counts(answers, table),
        subs,
        graph,
        schemas,
    )


def _fold(graph: ir.Graph, answer: SeatAnswer, subs: tuple[SubAgentMap, ...]) -> SeatAnswer:
    """A FOLDED seat: the sub-agents' own answers after this graph's (a default of this
    graph's own then says it is this graph's alone: "in `supervisor` itself: …")."""
    if answer.seat.id not in FOLDED:
        return answer
    extra = [
        folded(sub.use, part)
        for sub in subs
        for part in sub.map.answer(answer.seat.id).parts
        if counts(part)
    ]
    if not extra:
        return answer
    own = [
        replace(p, answer=f"in `{graph.name}` itself: {p.answer[:1].lower()}{p.answer[1:]}")
        if p.origin in (Origin.DEFAULT, Origin.NOT_IN_PLAY)
        else p
        for p in answer.parts
    ]
    return SeatAnswer(answer.seat, (*own, *extra))


def _middleware_claims(graph: ir.Graph, table: SeatTable) -> dict[str, list[ir.MiddlewareSpec]]:
    """Seat id → the middleware that take it, in declaration order."""
    claims: dict[str, list[ir.MiddlewareSpec]] = {}
    for mw in graph.agent.middleware if graph.agent else []:
        seats = list(mw.seats) or [
            s for point in mw.hooks for s in table.hook_seats.get(point.value, ())
        ]
        for seat_id in dict.fromkeys(seats):
            claims.setdefault(seat_id, []).append(mw)
    return claims


NOT_IN_PLAY = Part(
    Holder.NONE,
    "not in play: no node of this graph makes this decision",
    Origin.NOT_IN_PLAY,
)


def _parts(
    graph: ir.Graph,
    row: SeatRow,
    facts: Mapping[str, FactValue | None],
    claims: list[ir.MiddlewareSpec],
    nodes: GraphNodes | None,
) -> tuple[Part, ...]:
    """The middleware that took the seat, then the facts that fill it; else its default.
    In a hand-built graph the graph's own model and tools nodes answer first; a
    create_agent seat that none of them makes is not in play."""
    own = node_parts(nodes, row) if nodes is not None else []
    if nodes is not None and row.scope is Scope.AGENT:
        return tuple(own) or (NOT_IN_PLAY,)
    parts = [p for mw in claims for p in _middleware_parts(graph, row, mw)]
    parts += _fact_parts(row, facts) + own
    if parts:
        return tuple(parts)
    return (Part(row.holder, _default_answer(graph, row), Origin.DEFAULT),)


def _fact_parts(row: SeatRow, facts: Mapping[str, FactValue | None]) -> list[Part]:
    """One part per fact rule of the seat whose fact holds here, in the table's order."""
    parts = []
    for rule in row.facts:
        fact = facts.get(rule.fact)
        if fact is not None:
            answer = rule.answer.format(**fact.values)
            source = f"`{fact.source}`"
            parts.append(Part(rule.holder or row.holder, answer, Origin.FACT, source, fact.span))
    return parts


def _default_answer(graph: ir.Graph, row: SeatRow) -> str:
    if row.hint and graph.agent is not None:
        return f"{row.default} (add the `{row.hint}` middleware to change this)"
    return row.default


def _middleware_parts(graph: ir.Graph, row: SeatRow, mw: ir.MiddlewareSpec) -> list[Part]:
    holder = row.taken_holder or row.holder
    if not is_stdlib(mw) and holder is Holder.CODE:
        holder = Holder.EXTERNAL  # the integrator's own Python, outside agentc (as C7, I1)
    if mw.origin is ir.MiddlewareOrigin.LIMITS:  # budgets in `limits`, lowered to middleware
        source, span = "`limits` (budgets)", _first_span(mw) or mw.span
    else:
        source, span = f"middleware `{mw.name}`", mw.span
    if row.split is not None and isinstance(mw.config.get(row.split.config), dict):
        return _split_parts(graph, row.split, mw, source)
    return [Part(holder, describe(mw, graph, row.id), Origin.MIDDLEWARE, source, span)]


def _first_span(mw: ir.MiddlewareSpec) -> ir.SourceSpan | None:
    return next(iter(mw.config_spans.values()), None)


def _split_parts(graph: ir.Graph, split: Split, mw: ir.MiddlewareSpec, source: str) -> list[Part]:
    """D9: one part per gated tool, at its own key (`delete_file: true` at 12:5), then
    the tools waved through, at the setting (`interrupt_on`)."""
    setting = mw.config[split.config]
    gated = [name for name, value in setting.items() if value not in (False, None)]
    rest = [t.name for t in local_tools(graph) if t.name not in gated]
    spans = mw.config_spans
    parts = [
        Part(
            split.holder,
            f"{split.answer}: {ticks([name])}",
            Origin.MIDDLEWARE,
            f"`{name}` in `{split.config}` of {source}",
            spans.get(f"{split.config}.{name}") or mw.span,
        )
        for name in gated
    ]
    if rest or not gated:
        who = ticks(rest) if rest else "every tool"
        parts.append(
            Part(
                split.rest_holder,
                f"{split.rest_answer}: {who}",
                Origin.MIDDLEWARE,
                f"`{split.config}` of {source}",
                spans.get(split.config) or mw.span,
            )
        )
    return parts


def _counts(answers: list[SeatAnswer], table: SeatTable) -> tuple[tuple[Kind, Holder, int], ...]:
    """kind · holder → seats, in the seed's order first, then any other pair by size."""
    counter = Counter((a.seat.kind, a.holder) for a in answers)
    order = [(k, h) for k, h, _ in table.published_counts]
    rest = sorted(
        (pair for pair in counter if pair not in order),
        key=lambda pair: (-counter[pair], pair[0].value, pair[1].value),
    )
    return tuple((k, h, counter[(k, h)]) for k, h in order + rest if counter[(k, h)])
