"""One nearest-name suggestion for an unknown name.

Uses `agentc.dsl.suggest.suggest` when the parser package provides it; otherwise a small
Levenshtein with case/underscore folding. Output: a `help` sentence or None.
"""

from __future__ import annotations

from collections.abc import Iterable


def _fold(s: str) -> str:
    return s.lower().replace("_", "").replace("-", "")


def _distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _local_suggest(name: str, candidates: Iterable[str]) -> str | None:
    best: tuple[int, str] | None = None
    folded = _fold(name)
    for c in candidates:
        if c == name:
            continue
        d = 0 if _fold(c) == folded else _distance(folded, _fold(c))
        if best is None or d < best[0]:
            best = (d, c)
    if best is None:
        return None
    limit = max(1, min(3, len(name) // 3))
    return best[1] if best[0] <= limit else None


def nearest(name: str, candidates: Iterable[str]) -> str | None:
    candidates = list(dict.fromkeys(candidates))
    try:
        from ..dsl.suggest import suggest
    except ImportError:
        return _local_suggest(name, candidates)
    try:
        return suggest(name, candidates)
    except Exception:  # the parser's helper is young; never let it break a check
        return _local_suggest(name, candidates)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    best = nearest(name, candidates)
    return f"did you mean `{best}`?" if best else None
