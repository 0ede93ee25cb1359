"""Reviewing an agent before it runs: the decision map of create_agent's seats and its renderings.

Input: a compiled `ir.Graph` (and its `ir.Program`, to follow sub-agents). Output:
`decision_map(graph, program=…)` → a `DecisionMap` (who holds each seat, and the line that
makes it so; its sub-agents' own maps), shown by `render_text` / `render_markdown` / `to_json`,
compared by `diff` / `render_diff` / `diff_json`, and laid out with the diagram as one HTML
page by `agentc.review.html.page`.

Rooms, in dependency order: `seats` (the table, package data) → `facts` (IR facts the table's
answers quote) and `parts` (one answer) → `graphnodes`, `modelseats`, `nodeseats` (how a
hand-built graph's own model and tools nodes answer), `mwtext` (what each middleware does,
in words) and `subagents` (the agents a graph runs) → `decisions` (the map) → `lines`,
`graphsummary` and `summary` (the plain summary a newcomer reads first) → `render`
(text, Markdown, JSON) → `compare` (the diff) and `html` (the page). Invariants: every room
is a pure function of the IR and the table; nothing here imports the runtime.
"""

from __future__ import annotations

from .compare import SeatChange, diff, diff_json, render_diff
from .decisions import DecisionMap, SeatAnswer, SubAgentMap, decision_map
from .facts import FACTS, FactValue
from .parts import Origin, Part
from .render import because, render_markdown, render_text, to_json, where
from .seats import Holder, Kind, Scope, SeatRow, SeatTable, seat_table

__all__ = [
    "FACTS",
    "DecisionMap",
    "FactValue",
    "Holder",
    "Kind",
    "Origin",
    "Part",
    "Scope",
    "SeatAnswer",
    "SeatChange",
    "SubAgentMap",
    "SeatRow",
    "SeatTable",
    "because",
    "decision_map",
    "diff",
    "diff_json",
    "render_diff",
    "render_markdown",
    "render_text",
    "seat_table",
    "to_json",
    "where",
]
