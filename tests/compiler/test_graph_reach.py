"""`Reach` (the structural checks' BFS) answers exactly as networkx does on random graphs."""

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from agentc import ir
from agentc.compiler.structure import GraphView, Reach

SPAN = ir.SourceSpan(file="t.agent", line=1, col=1, end_line=1, end_col=2, offset=0, end_offset=1)
NAMES = ["a", "b", "c", "d", "e", "f"]
ENDPOINTS = st.sampled_from([ir.START, *NAMES, ir.END])


def make_graph(nodes: list[str], edges: list[tuple[str, str]], branches: list[tuple[str, str]]):
    impl = ir.ImportRef(module="m", attr="f")
    return ir.Graph(
        name="g",
        kind=ir.GraphKind.GRAPH,
        state=[],
        nodes=[ir.NodeSpec(name=n, kind=ir.NodeKind.PYTHON, impl=impl, span=SPAN) for n in nodes],
        edges=[ir.EdgeSpec(source=s, target=t, span=SPAN) for s, t in edges],
        branches=[
            ir.BranchSpec(
                source=s, kind=ir.BranchKind.ROUTER, router=impl, routes={"x": t}, span=SPAN
            )
            for s, t in branches
        ],
        limits=ir.Limits(steps=ir.Bound(value=25)),
        checkpoint=ir.CheckpointSpec(kind=ir.CheckpointKind.NONE),
        span=SPAN,
    )


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    nodes=st.lists(st.sampled_from(NAMES), unique=True),
    edges=st.lists(st.tuples(ENDPOINTS, ENDPOINTS), max_size=12),
    branches=st.lists(st.tuples(ENDPOINTS, ENDPOINTS), max_size=6),
)
def test_reach_matches_networkx(nodes, edges, branches):
    graph = make_graph(nodes, edges, branches)
    reach, view = Reach.of(graph), GraphView.of(graph)
    for node in view.digraph.nodes:
        assert reach.descendants(node) == nx.descendants(view.digraph, node)
        assert reach.ancestors(node) == nx.ancestors(view.digraph, node)
        assert reach.out_degree(node) == view.digraph.out_degree(node)
