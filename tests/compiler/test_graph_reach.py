"""`Reach` (the structural checks' BFS) answers exactly as networkx does on random graphs,
joins, declared `goto` targets and `Send` routes included; the checks read those edges."""

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from agentc import ir
from agentc.compiler.structure import EdgeKind, GraphView, Reach, check_structure, graph_edges
from agentc.dsl.codes import Code

SPAN = ir.SourceSpan(file="t.agent", line=1, col=1, end_line=1, end_col=2, offset=0, end_offset=1)
NAMES = ["a", "b", "c", "d", "e", "f"]
ENDPOINTS = st.sampled_from([ir.START, *NAMES, ir.END])
IMPL = ir.ImportRef(module="m", attr="f")


def make_graph(
    nodes: list[str],
    edges: list[tuple[str, str]],
    branches: list[tuple[str, str]],
    *,
    joins: list[tuple[list[str], str]] = (),
    goto: dict[str, list[str]] | None = None,
    sends: list[tuple[str, list[str]]] = (),
    kinds: dict[str, ir.NodeKind] | None = None,
):
    goto, kinds = goto or {}, kinds or {}
    return ir.Graph(
        name="g",
        kind=ir.GraphKind.GRAPH,
        state=[],
        nodes=[
            ir.NodeSpec(
                name=n,
                kind=kinds.get(n, ir.NodeKind.PYTHON),
                impl=IMPL,
                goto=goto.get(n),
                span=SPAN,
            )
            for n in nodes
        ],
        edges=[ir.EdgeSpec(source=s, target=t, span=SPAN) for s, t in edges],
        joins=[ir.JoinSpec(sources=list(s), target=t, span=SPAN) for s, t in joins],
        branches=[
            ir.BranchSpec(
                source=s, kind=ir.BranchKind.ROUTER, router=IMPL, routes={"x": t}, span=SPAN
            )
            for s, t in branches
        ]
        + [
            ir.BranchSpec(
                source=s,
                kind=ir.BranchKind.ROUTER,
                router=IMPL,
                routes={t: t for t in targets},
                sends=True,
                span=SPAN,
            )
            for s, targets in sends
        ],
        limits=ir.Limits(steps=ir.Bound(value=25)),
        checkpoint=ir.CheckpointSpec(kind=ir.CheckpointKind.NONE),
        span=SPAN,
    )


SOURCES = st.lists(st.sampled_from([ir.START, *NAMES]), min_size=1, max_size=3, unique=True)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    nodes=st.lists(st.sampled_from(NAMES), unique=True),
    edges=st.lists(st.tuples(ENDPOINTS, ENDPOINTS), max_size=12),
    branches=st.lists(st.tuples(ENDPOINTS, ENDPOINTS), max_size=6),
    joins=st.lists(st.tuples(SOURCES, st.sampled_from([*NAMES, ir.END])), max_size=3),
    goto=st.dictionaries(
        st.sampled_from(NAMES), st.lists(st.sampled_from([*NAMES, ir.END]), max_size=3)
    ),
    sends=st.lists(st.tuples(ENDPOINTS, st.lists(st.sampled_from(NAMES), max_size=3)), max_size=3),
)
def test_reach_matches_networkx(nodes, edges, branches, joins, goto, sends):
    graph = make_graph(
        nodes,
        edges,
        branches,
        joins=joins,
        goto={k: v for k, v in goto.items() if k in nodes},
        sends=sends,
    )
    reach, view = Reach.of(graph), GraphView.of(graph)
    for node in view.digraph.nodes:
        assert reach.descendants(node) == nx.descendants(view.digraph, node)
        assert reach.ancestors(node) == nx.ancestors(view.digraph, node)
        assert reach.out_degree(node) == view.digraph.out_degree(node)
    # a barrier only narrows what can run, never widens it
    assert reach.runnable() <= reach.descendants(ir.START)


def _codes(graph: ir.Graph) -> list[Code]:
    return [d.code for d in check_structure(graph)]


def test_join_edges_run_from_each_source_to_the_target_and_are_marked():
    graph = make_graph(
        ["a", "b", "c"],
        [(ir.START, "a"), (ir.START, "b"), ("c", ir.END)],
        [],
        joins=[(["a", "b"], "c")],
    )
    joins = [(e.source, e.target) for e in graph_edges(graph) if e.kind is EdgeKind.JOIN]
    assert joins == [("a", "c"), ("b", "c")]
    view = GraphView.of(graph)
    assert view.digraph.edges["a", "c"]["join"] and view.digraph.edges["a", "c"]["kind"] == "join"
    assert not view.digraph.edges["a", "c"]["conditional"]
    assert Reach.of(graph).runnable() == {"a", "b", "c", ir.END}
    assert _codes(graph) == []  # before joins were known: c unreachable, a and b stuck


def test_a_join_waiting_for_a_node_that_never_runs_blocks_its_target():
    graph = make_graph(
        ["a", "b", "c"],
        [(ir.START, "a"), ("c", ir.END), ("b", ir.END)],
        [],
        joins=[(["a", "b"], "c")],
    )
    diags = list(check_structure(graph))
    messages = {d.message for d in diags}
    assert "node `b` can never run" in messages and "node `c` can never run" in messages
    [blocked] = [d for d in diags if d.message == "node `c` can never run"]
    assert blocked.code is Code.UNREACHABLE_NODE
    assert "waits for `b`" in " ".join(blocked.notes)


def test_declared_goto_targets_are_edges_and_lead_to_end():
    graph = make_graph(
        ["gate", "w"], [(ir.START, "gate"), ("w", "gate")], [], goto={"gate": ["w", ir.END]}
    )
    kinds = {(e.source, e.target): e.kind for e in graph_edges(graph)}
    assert kinds[("gate", ir.END)] is EdgeKind.GOTO and kinds[("gate", "w")] is EdgeKind.GOTO
    assert _codes(graph) == []


def test_declared_goto_narrows_the_python_escape_from_a_loop():
    # model ⇄ python loop: undeclared goto may still leave (warning); declared to the loop only
    # (no END), the run can only stop at the step limit (error)
    kinds = {"m": ir.NodeKind.MODEL}
    loop = [(ir.START, "m"), ("m", "p")]
    open_ = make_graph(["m", "p"], loop + [("p", "m")], [], kinds=kinds)
    closed = make_graph(["m", "p"], loop, [], kinds=kinds, goto={"p": ["m"]})
    [warn] = list(check_structure(open_))
    [err] = list(check_structure(closed))
    assert warn.code is err.code is Code.NO_PATH_TO_END
    assert not warn.is_error and err.is_error


def test_send_routes_are_marked_and_reach_their_targets():
    graph = make_graph(
        ["plan", "worker"],
        [(ir.START, "plan"), ("worker", ir.END)],
        [],
        sends=[("plan", ["worker"])],
    )
    [send] = [e for e in graph_edges(graph) if e.kind is EdgeKind.SEND]
    assert (send.source, send.target, send.conditional) == ("plan", "worker", True)
    assert GraphView.of(graph).digraph.edges["plan", "worker"]["kind"] == "send"
    assert _codes(graph) == []


def test_dangling_join_source_and_goto_target_are_reported():
    graph = make_graph(
        ["a"],
        [(ir.START, "a"), ("a", ir.END)],
        [],
        joins=[(["a", "ghost"], ir.END)],
        goto={"a": ["nowhere"]},
    )
    dangling = [d.message for d in check_structure(graph) if d.code is Code.DANGLING_TARGET]
    assert dangling == ["`ghost` is not a node of `g`", "`nowhere` is not a node of `g`"]
