"""A huge broken file stays linear to check: "did you mean" stops at a per-check budget.

Each suggestion compares a name with every name in scope, so thousands of unknown names in
a file of thousands of agents would cost names × mistakes. Past the budget the mistakes are
still reported, each located, only without a suggestion.
"""

from __future__ import annotations

from collections.abc import Iterator

from agentc.compiler.pipeline import compile_source
from agentc.dsl.suggest import COMPARISONS_PER_CHECK, suggest, suggestion_budget


def _broken_agents(n: int) -> str:
    body = "".join(
        f'agent a{i} {{\n  model "openai:gpt-4o-mini"\n  prompt "p"\n  tools [a{i}x]\n}}\n'
        for i in range(n)
    )
    return "agentc 1\n" + body


def test_suggestions_stop_at_the_budget_and_every_mistake_is_still_reported() -> None:
    n = 600  # 600 mistakes × 600 names = 360,000 comparisons > the budget
    assert n * n > COMPARISONS_PER_CHECK
    result = compile_source(_broken_agents(n), "big.agent")
    unknown = [d for d in result.errors if "a" in d.message and "x`" in d.message]
    assert len(unknown) == n  # every mistake reported, in order, located
    helped = [d for d in unknown if d.help and "did you mean" in d.help]
    assert helped, "the first mistakes still get a suggestion"
    assert unknown[0].help is not None and "did you mean `a0`?" in unknown[0].help
    assert len(helped) < n  # the budget ran out before the last ones
    assert all(d.help is None or "did you mean" not in d.help for d in unknown[len(helped) :])


def test_a_budget_counts_comparisons_and_never_touches_names_once_spent() -> None:
    with suggestion_budget(3):
        assert suggest("colour", ["color", "x", "y"]) == "color"
        consumed: list[str] = []

        def names() -> Iterator[str]:
            for name in ("color", "colr"):
                consumed.append(name)
                yield name

        assert suggest("colour", names()) is None
        assert consumed == []  # lazy candidates are never walked past the budget
    assert suggest("colour", ["color"]) == "color"  # outside a check: no budget
