"""One line of the plain summary: a topic, a sentence, and the span that makes it so.

Input: nothing (a definition). Output: `Line`, shared by `summary` (an agent) and
`graphsummary` (a hand-built graph's own nodes) and read by `render`. Invariant: frozen.
"""

from __future__ import annotations

from dataclasses import dataclass

import agentc.ir as ir


@dataclass(frozen=True, slots=True)
class Line:
    topic: str  # model, tools, sub-agents, reviews, limits, memory, output, middleware …
    text: str  # what happens, in words (no final period)
    span: ir.SourceSpan | None = None
