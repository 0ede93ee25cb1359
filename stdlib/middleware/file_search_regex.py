"""Which regular expressions `grep_search` refuses: those whose matching time can explode
through backtracking. Python's `re` cannot be interrupted and the `regex`
module's timeout is not a dependency, so the pattern's shape is read before it runs."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from typing import Any

# The stdlib's own regex parser, to read a pattern's shape without running it. It has no
# public name on 3.11+ (`sre_parse` is a deprecated alias that warns on import).
sre_parse: Any = importlib.import_module("re._parser")

MAX_OPEN_REPEATS = 2  # open-ended quantifiers allowed in one regex
_OPEN = 50  # a quantifier whose upper bound is above this counts as open-ended


class SlowPattern(ValueError):
    """A regular expression refused because it could run for a very long time."""


def check_regex(pattern: str) -> None:
    """Refuse regular expressions whose matching time can explode (catastrophic
    backtracking): a variable quantifier inside an open-ended one (`(a+)+`, `(a?a?)+`), a
    quantified alternation (`(a|a)*`), or more than MAX_OPEN_REPEATS open-ended
    quantifiers (`.*.*.*x`; a trailing `.*` is not counted)."""
    try:
        tree = sre_parse.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return  # re.compile accepted it; nothing to add
    top = list(tree)
    dot_star = (sre_parse.MAX_REPEAT, (0, sre_parse.MAXREPEAT, [(sre_parse.ANY, None)]))
    if top and _same(top[-1], dot_star):  # a trailing `.*` never backtracks
        top = top[:-1]
    count = [0]

    def visit(items, inside: bool) -> None:
        for op, av in items:
            if op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT):
                lo, hi, sub = av
                open_ = hi == sre_parse.MAXREPEAT or hi > _OPEN
                if inside and lo != hi:
                    raise SlowPattern(_SLOW.format(pattern, "a quantifier inside a quantifier"))
                if open_:
                    count[0] += 1
                    if any(o == sre_parse.BRANCH for o, _ in _flat(sub)):
                        raise SlowPattern(_SLOW.format(pattern, "a quantified alternation"))
                visit(sub, inside or open_)
            else:
                for child in _children(op, av):
                    visit(child, inside)

    visit(top, False)
    if count[0] > MAX_OPEN_REPEATS:
        raise SlowPattern(
            _SLOW.format(pattern, f"more than {MAX_OPEN_REPEATS} open-ended quantifiers")
        )


_SLOW = "pattern `{}` is refused: {} can take exponential time; use a simpler pattern"


def _same(item, want) -> bool:
    op, av = item
    return (
        op == want[0] and av[0] == want[1][0] and av[1] == want[1][1] and list(av[2]) == want[1][2]
    )


def _children(op, av) -> list:
    if op == sre_parse.SUBPATTERN:
        return [av[-1]]
    if op == sre_parse.BRANCH:
        return list(av[1])
    if op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
        return [av[1]]
    if op == sre_parse.ATOMIC_GROUP:
        return [av]
    if op == sre_parse.GROUPREF_EXISTS:
        return [b for b in av[1:] if b is not None]
    return []


def _flat(items) -> Iterator[tuple]:
    for op, av in items:
        yield op, av
        for child in _children(op, av):
            yield from _flat(child)
