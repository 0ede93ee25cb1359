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
play. The map is a pure function of its inputs.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import agentc.ir as ir

from .facts import FACTS, FactValue, local_tools, ticks
from .nodeseats import GraphNodes, node_parts
from .parts import Origin, Part
from .seats import Holder, Kind, Scope, SeatRow, SeatTable, Split, seat_table

STDLIB_PREFIX = "agentc.stdlib"


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
        return any(p.origin in (Origin.FACT, Origin.MIDDLEWARE) for p in self.parts)


@dataclass(frozen=True, slots=True)
class DecisionMap:
    graph: str
    kind: ir.GraphKind
    file: str
    answers: tuple[SeatAnswer, ...]  # changed first, then seat order
    counts: tuple[tuple[Kind, Holder, int], ...] = field(default=())

    def answer(self, seat_id: str) -> SeatAnswer:
        for a in self.answers:
            if a.seat.id == seat_id:
                return a
        raise KeyError(seat_id)


def decision_map(graph: ir.Graph, table: SeatTable | None = None) -> DecisionMap:
    table = table or seat_table()
    facts = {name: extract(graph) for name, extract in FACTS.items()}
    claims = _middleware_claims(graph, table)
    nodes = GraphNodes.of(graph) if graph.kind is ir.GraphKind.GRAPH else None
    answers = [
        SeatAnswer(row, _parts(graph, row, facts, claims.get(row.id, []), nodes))
        for row in table.seats
    ]
    ordered = [a for a in answers if a.changed] + [a for a in answers if not a.changed]
    return DecisionMap(
        graph.name, graph.kind, graph.span.file, tuple(ordered), _counts(answers, table)
    )


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
    if not mw.impl.module.startswith(STDLIB_PREFIX) and holder is Holder.CODE:
        holder = Holder.EXTERNAL  # the integrator's own Python, outside agentc (as C7, I1)
    if mw.origin is ir.MiddlewareOrigin.LIMITS:  # budgets in `limits`, lowered to middleware
        source, span = "`limits` (budgets)", _first_span(mw) or mw.span
    else:
        source, span = f"middleware `{mw.name}`", mw.span
    if row.split is not None and isinstance(mw.config.get(row.split.config), dict):
        return _split_parts(graph, row.split, mw, source)
    answer = (
        f"taken over by `{mw.name}`"
        + (f" ({mw.declared})" if mw.declared != mw.name else "")
        + _config_text(mw.config)
    )
    return [Part(holder, answer, Origin.MIDDLEWARE, source, span)]


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


def _config_text(config: Mapping[str, Any], limit: int = 70) -> str:
    # Short settings only: the IR fills every default, and long prose (prompts, notices)
    # belongs to the file, not to a one-line answer.
    shown = {
        k: v
        for k, v in config.items()
        if v is not None
        and not (isinstance(v, str) and len(v) > 16)
        and len(json.dumps(v, ensure_ascii=False)) <= 48
    }
    if not shown:
        return ""
    text = ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in shown.items())
    return " { " + (text if len(text) <= limit else text[: limit - 1] + "…") + " }"


def _counts(answers: list[SeatAnswer], table: SeatTable) -> tuple[tuple[Kind, Holder, int], ...]:
    """kind · holder → seats, in the seed's order first, then any other pair by size."""
    counter = Counter((a.seat.kind, a.holder) for a in answers)
    order = [(k, h) for k, h, _ in table.published_counts]
    rest = sorted(
        (pair for pair in counter if pair not in order),
        key=lambda pair: (-counter[pair], pair[0].value, pair[1].value),
    )
    return tuple((k, h, counter[(k, h)]) for k, h in order + rest if counter[(k, h)])
