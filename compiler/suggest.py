"""One nearest-name suggestion for an unknown name, as a `help` sentence.

Input: a misspelt name and the names that exist. Output: `did you mean `x`?` or None. The
choice of name is `agentc.dsl.suggest` (case/underscore folding, edit distance of about a
third of the name): one implementation for the parser and the compiler.
Invariant: at most one suggestion, never the name itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..dsl.suggest import distance, suggest

nearest = suggest  # the one candidate close to a name, or None

__all__ = ["did_you_mean", "distance", "nearest"]


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    best = suggest(name, candidates)
    return f"did you mean `{best}`?" if best else None
