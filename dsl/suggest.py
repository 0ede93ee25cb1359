"""Nearest-name suggestions for "did you mean …?".

Input: a misspelt name and the names that exist. Output: at most one candidate, only
when it is close: equal after folding case and `_`/`-`, or within an edit distance of
about a third of the name's length (rustc's rule of thumb).

Each suggestion compares the name with every name in scope, so a file with thousands of
unknown names would cost names × mistakes. Inside `suggestion_budget()` (one per check)
suggestions stop once `COMPARISONS_PER_CHECK` names have been compared: the later mistakes
are still reported, without one, and their candidate names are never looked at (callers
pass lazy iterables).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# ~1 s of comparisons at most; an ordinary file (dozens of mistakes among hundreds of
# names) never comes near it, a 5 MB file of broken agents stays linear to check
COMPARISONS_PER_CHECK = 100_000


class _Budget:
    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


_BUDGET: ContextVar[_Budget | None] = ContextVar("agentc_suggestion_budget", default=None)


@contextmanager
def suggestion_budget(limit: int = COMPARISONS_PER_CHECK) -> Iterator[None]:
    """Within this block, `suggest` compares at most `limit` names in all."""
    token = _BUDGET.set(_Budget(limit))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def _fold(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def distance(a: str, b: str, limit: int | None = None) -> int:
    """Edit distance counting a swap of neighbours as one edit (optimal string alignment).

    Stops early, returning `limit + 1`, once every alignment costs more than `limit`.
    """
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i]
        for j in range(1, len(b) + 1):
            cost = min(
                previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1])
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        if limit is not None and min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return previous[-1]


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The one candidate close to `name`, or None (never `name` itself)."""
    folded = _fold(name)
    if not folded:
        return None
    budget = _BUDGET.get()
    if budget is not None and budget.left <= 0:
        return None
    limit = max(1, len(folded) // 3)
    best: tuple[int, str] | None = None
    for candidate in sorted(set(candidates)):
        if candidate == name:
            continue
        if budget is not None:
            budget.left -= 1
        score = distance(folded, _fold(candidate), limit)
        # `score < len(folded)`: a suggestion must keep something of what was written.
        if score <= limit and score < max(1, len(folded)) and (best is None or score < best[0]):
            best = (score, candidate)
    return best[1] if best else None


# ---------------------------------------------------------------- habits from Python

CONTEXT_SIZE_KINDS = ("tokens", "messages", "fraction")  # the prelude's `context_size`


def tuple_hint(text: str, opener: int, comma: int) -> str | None:
    """`trigger: ("tokens", 4000)`, LangChain's ContextSize tuple, stops the parser at its
    comma; the language writes `tokens(4000)`, and has lists, not tuples. None when the
    `(` at `opener` is a call's (`tokens(4000, …)`) or the comma is not directly in it."""
    if text[opener : opener + 1] != "(" or text[comma : comma + 1] != ",":
        return None
    before = text[:opener].rstrip()
    if before and (before[-1].isalnum() or before[-1] in "_."):
        return None  # `name(…, …)`: a call's arguments
    first = text[opener + 1 : comma].strip()
    close = text.find(")", comma)
    rest = text[comma + 1 : close if close >= 0 else comma + 40].strip()
    kind = first.strip("\"'")
    if kind in CONTEXT_SIZE_KINDS and rest and "," not in rest:
        return f"the language has no tuples: write `{kind}({rest})`"
    return "the language has no tuples: write a list, `[a, b]`"
