"""The structural checks read each join a fixed number of times, however many joins a graph
has: a chain of joins, each released by the one before it, once made `Reach.runnable`
rescan every join after each release (quadratic). Counted, not timed: the graph's join
list counts how often it is walked."""

from __future__ import annotations

from typing import Any

from agentc import ir
from agentc.compiler.structure import Reach, check_structure
from agentc.dsl.codes import Code

SPAN = ir.SourceSpan(file="t.agent", line=1, col=1, end_line=1, end_col=2, offset=0, end_offset=1)
IMPL = ir.ImportRef(module="m", attr="f")


class CountedList(list[Any]):
    walks = 0

    def __iter__(self) -> Any:
        CountedList.walks += 1
        return super().__iter__()


def join_chain(n: int, *, blocked: bool = False) -> ir.Graph:
    """START → a; joins `[n_i, a] -> n_{i+1}`; n_0 after a (or after nothing: all blocked)."""
    names = ["a", *(f"n{i}" for i in range(n + 1))]
    edges = [("__start__", "a"), (f"n{n}", "__end__"), ("a", "__end__")]
    if not blocked:
        edges.append(("a", "n0"))
    joins = CountedList(
        ir.JoinSpec.model_construct(sources=[f"n{i}", "a"], target=f"n{i + 1}", span=SPAN)
        for i in range(n)
    )
    return ir.Graph.model_construct(
        name="g",
        kind=ir.GraphKind.GRAPH,
        state=[],
        nodes=[
            ir.NodeSpec.model_construct(
                name=x, kind=ir.NodeKind.PYTHON, impl=IMPL, config={}, span=SPAN, goto=None
            )
            for x in names
        ],
        edges=[ir.EdgeSpec.model_construct(source=s, target=t, span=SPAN) for s, t in edges],
        joins=joins,
        branches=[],
        interrupts=[],
        limits=ir.Limits.model_construct(steps=ir.Bound.model_construct(value=25, span=None)),
        checkpoint=ir.CheckpointSpec.model_construct(kind=ir.CheckpointKind.NONE),
        span=SPAN,
    )


def walks_of_runnable(n: int) -> int:
    reach = Reach.of(join_chain(n))
    CountedList.walks = 0
    assert reach.runnable() == {"a", ir.END, *(f"n{i}" for i in range(n + 1))}
    return CountedList.walks


def test_runnable_walks_the_joins_a_fixed_number_of_times() -> None:
    assert walks_of_runnable(10) == walks_of_runnable(200) <= 3


def test_every_node_behind_a_blocked_join_chain_is_reported_once_with_its_join() -> None:
    graph = join_chain(50, blocked=True)
    CountedList.walks = 0
    found = [d for d in check_structure(graph) if d.code is Code.UNREACHABLE_NODE]
    assert CountedList.walks <= 6  # not once per reported node
    assert [d.message for d in found] == [f"node `n{i}` can never run" for i in range(51)]
