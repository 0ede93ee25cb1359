"""One answer to a seat in one graph: who holds it, what it is here, and what decides it.

Input: nothing (definitions). Output: `Origin` (where an answer comes from) and `Part` (a
holder, the answer, its origin, and the construct and span that make it so), shared by
`decisions` (the map) and `nodeseats` (a hand-built graph's own nodes); `where`, a span as
a reader sees it. Invariant: frozen.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

import agentc.ir as ir

from .seats import Holder


class Origin(str, enum.Enum):
    DEFAULT = "default"  # the table's default answer
    FACT = "fact"  # a line of this file fills the answer
    MIDDLEWARE = "middleware"  # a middleware of this agent took the seat
    NOT_IN_PLAY = "not_in_play"
    SUBAGENT = "subagent"  # a sub-agent this agent runs (as a tool or a node) decides it


@dataclass(frozen=True, slots=True)
class Part:
    holder: Holder
    answer: str
    origin: Origin
    source: str | None = None  # `limits`, middleware `human_review` …
    span: ir.SourceSpan | None = None


def where(span: ir.SourceSpan | None, home: str) -> str:
    """`12:5` in the map's own file, `prelude.agent:40:1` elsewhere, `` without a span."""
    if span is None:
        return ""
    if span.file == home:
        return f"{span.line}:{span.col}"
    return f"{Path(span.file).name}:{span.line}:{span.col}"
