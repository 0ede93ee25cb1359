"""A hand-built graph's constructs in the review tools: joins, Send routes, declared goto,
deferred/cached/retried nodes, model and tools nodes, subgraphs (collapsed and expanded),
drawn in every text format and explained seat by seat; LangGraph's drawing as the oracle
for which edges exist and which are conditional."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.golden import check_golden

from agentc import ir, review
from agentc.compiler import pipeline, render
from agentc.review import Holder, Origin

from .test_render import NEEDS_DOT, _mermaid_edges, svg_elements

CASE = Path(__file__).parent / "cases" / "joke.agent"


@pytest.fixture(scope="module")
def program() -> ir.Program:
    result = pipeline.compile_source(
        CASE.read_text(encoding="utf-8"), "joke.agent", base_dir=str(CASE.parent)
    )
    assert result.program is not None, [d.message for d in result.diagnostics]
    return result.program


@pytest.fixture(scope="module")
def joke(program) -> ir.Graph:
    return program.graph("joke")


def graphs(program: ir.Program) -> dict[str, ir.Graph]:
    return {g.name: g for g in program.graphs}


def edges_of(d: render.Diagram) -> dict[tuple[str, str], render.DEdge]:
    return {(e.source, e.target): e for e in d.edges}


# ---------------------------------------------------------------- the drawable form


def test_send_goto_and_join_edges_have_their_own_styles(joke):
    edges = edges_of(render.diagram(joke))
    send = edges["plan", "worker"]
    assert (send.style, send.label) == (render.EdgeStyle.SEND, "Send")
    for target in ("write", ir.END):
        goto = edges["gate", target]
        assert (goto.style, goto.label) == (render.EdgeStyle.GOTO, "goto")
    point = render.join_id(0)
    assert edges["write", point].style is edges["plan", point].style is render.EdgeStyle.JOIN
    assert edges[point, "join"].style is render.EdgeStyle.STATIC
    # joined sources reach the target only through the join point
    assert ("write", "join") not in edges and ("plan", "join") not in edges


def test_join_point_is_a_node_saying_all_of(joke):
    [point] = [n for n in render.diagram(joke).nodes if n.kind is render.Terminal.JOIN]
    assert (point.id, point.label) == ("__join1__", render.JOIN_LABEL)


def test_nodes_say_model_target_tools_output_and_run_policies(joke):
    by_id = {n.id: n for n in render.diagram(joke).nodes}
    assert by_id["write"].detail == "openai:gpt-4o-mini → joke"
    assert by_id["think"].detail == "openai:gpt-4o-mini → messages"
    assert "tools: add" in by_id["think"].notes
    assert "output: Feedback via tool" in by_id["grade"].notes
    assert "input: Grade: {joke}" in by_id["grade"].notes
    assert by_id["act"].detail == "add" and by_id["act"].interrupt == ("before",)
    assert "Send payload: Section" in by_id["worker"].notes
    assert any(n.startswith("deferred") for n in by_id["join"].notes)
    assert by_id["slow"].notes == ("retry: 3 attempts", "cached for 60 s", "timeout: 5 s")
    assert by_id["sub"].detail == "subgraph child"
    assert by_id["sub"].notes == ("in: text ← joke", "out: review ← verdict")


def test_legend_names_the_context_schema(joke):
    assert "context: Ctx" in render.diagram(joke).legend


# ---------------------------------------------------------------- renderers


def test_mermaid_draws_send_and_goto_restyled_and_joins_as_open_links(joke):
    text = render.to_mermaid(joke)
    lines = [ln.strip() for ln in text.splitlines()]
    assert "plan -. &nbsp;Send&nbsp; .-> worker;" in lines
    assert "gate -. &nbsp;goto&nbsp; .-> write;" in lines
    assert "write --- __join1__;" in lines and "__join1__ --> join;" in lines
    assert "__join1__((all of)):::join" in lines
    links = [
        ln for ln in lines if re.match(r"\S+ (-->|-\.->|---|-\. .*? \.->|-- .*? -->) \S+;", ln)
    ]
    styled = {
        int(m.group(1)): m.group(2) for ln in lines if (m := re.match(r"linkStyle (\d+) (.*);", ln))
    }
    assert {links[i].split()[0] + ">" + links[i].split()[-1] for i in styled} == {
        "plan>worker;",
        "gate>write;",
        "gate>__end__;",
    }


def test_dot_draws_send_dashed_goto_dotted_and_join_sources_without_arrowheads(joke):
    text = render.to_dot(joke)
    assert '"plan" -> "worker" [style=dashed, color="#2f6fb0"' in text
    assert '"gate" -> "__end__" [style=dotted' in text
    assert '"write" -> "__join1__" [arrowhead=none];' in text
    assert '"__join1__" [label=<all of>, shape=circle' in text


def test_agent_drawings_are_unchanged_by_the_new_styles():
    from support import review_cases as fixtures

    text = render.to_mermaid(fixtures.guarded())
    assert "linkStyle" not in text and "classDef join" not in text


# ---------------------------------------------------------------- expansion (xray)


def test_collapsed_by_default(joke):
    d = render.diagram(joke)
    assert "sub" in {n.id for n in d.nodes} and not d.children(None)


def test_expanded_subgraph_is_a_cluster_of_the_childs_nodes(program, joke):
    d = render.diagram(joke, expand=graphs(program))
    ids = {n.id for n in d.nodes}
    assert "sub" not in ids and {"sub:__start__", "sub:judge", "sub:__end__"} <= ids
    [cluster] = d.children(None)
    assert (cluster.id, cluster.kind) == ("sub", render.ClusterKind.SUBGRAPH)
    assert {n.id for n in d.members("sub")} == {"sub:__start__", "sub:judge", "sub:__end__"}
    edges = edges_of(d)
    assert ("grade", "sub:__start__") in edges and ("sub:__end__", "slow") in edges
    assert ("sub:__start__", "sub:judge") in edges and ("sub:judge", "sub:__end__") in edges
    labels = {n.id: n.label for n in d.nodes}
    assert labels["sub:__start__"] == "in: text ← joke"
    assert labels["sub:__end__"] == "out: review ← verdict"


def test_expanded_mermaid_ids_are_langgraphs_xray_ids(program, joke):
    text = render.to_mermaid(render.diagram(joke, expand=graphs(program)))
    assert '\tsubgraph sg_sub["subgraph sub: child"]\n' in text
    assert "\t\tsub\\3ajudge(judge" in text


def test_expanded_agent_node_nests_its_middleware_clusters():
    from support import review_cases as fixtures

    impl = ir.ImportRef(module="agentc.runtime.subgraph", attr="subgraph_node")
    span = fixtures.span(3)
    parent = ir.Graph(
        name="outer",
        kind=ir.GraphKind.GRAPH,
        state=[],
        nodes=[
            ir.NodeSpec(
                name="helper",
                kind=ir.NodeKind.AGENT,
                impl=impl,
                config={"graph": "janitor"},
                span=span,
            )
        ],
        edges=[
            ir.EdgeSpec(source=ir.START, target="helper", span=span),
            ir.EdgeSpec(source="helper", target=ir.END, span=span),
        ],
        limits=ir.Limits(steps=ir.Bound(value=25)),
        checkpoint=ir.CheckpointSpec(kind=ir.CheckpointKind.NONE),
        span=span,
    )
    d = render.diagram(parent, expand={"janitor": fixtures.guarded()})
    outer = {c.id: c for c in d.clusters}
    assert outer["helper"].kind is render.ClusterKind.SUBGRAPH
    assert outer["helper:human_review"].parent == "helper"
    text = render.to_dot(d)
    nested = text.index('subgraph "cluster_helper:human_review"')
    assert text.index('subgraph "cluster_helper"') < nested
    mermaid = render.to_mermaid(d)
    assert "\t\tsubgraph mw_helper\\3ahuman_review" in mermaid


def test_expanded_node_keeps_its_breakpoints_and_run_notes(program, joke):
    pause = ir.InterruptSpec(when=ir.InterruptWhen.BEFORE, node="sub", span=joke.span)
    sub = next(n for n in joke.nodes if n.name == "sub")
    retried = sub.model_copy(update={"retry": ir.RetryPolicy(max_attempts=2)})
    nodes = [retried if n.name == "sub" else n for n in joke.nodes]
    g = joke.model_copy(update={"interrupts": [pause], "nodes": nodes})
    d = render.diagram(g, expand=graphs(program))
    by_id = {n.id: n for n in d.nodes}
    assert by_id["sub:__start__"].interrupt == ("before",) and not by_id["sub:__end__"].interrupt
    [cluster] = d.children(None)
    assert cluster.title == "subgraph sub: child; retry: 2 attempts"


def test_expansion_stops_at_a_graph_that_contains_itself(joke):
    looped = {"child": joke}  # `sub` would draw joke inside joke: drawn collapsed there
    d = render.diagram(joke, expand={**looped, "joke": joke})
    assert all(n.id.count("sub:") <= 1 for n in d.nodes)


@NEEDS_DOT
def test_expanded_svg_has_the_clusters_nodes_and_edges(program, joke):
    d = render.diagram(joke, expand=graphs(program))
    nodes, edges = svg_elements(render.render_dot(render.to_dot(d), render.BinaryFormat.SVG))
    assert {n.id for n in d.nodes} <= nodes
    assert {(e.source, e.target) for e in d.edges} == edges


def test_cli_expand_flag(capsys, monkeypatch):
    from agentc.cli import main

    monkeypatch.chdir(CASE.parents[3])
    assert main(["graph", str(CASE.relative_to(CASE.parents[3])), "--xray"]) == 0
    out = capsys.readouterr().out
    assert "subgraph sg_sub" in out and "sub\\3ajudge" in out


def test_expanded_golden(request, program, joke):
    d = render.diagram(joke, expand=graphs(program))
    check_golden(request, "joke.joke.expanded.mmd", render.to_mermaid(d))
    check_golden(request, "joke.joke.expanded.dot", render.to_dot(d))


# ---------------------------------------------------------------- LangGraph as the oracle


def _langgraph_edges() -> set[tuple[str, str, bool]]:
    """The joke graph's shape built with LangGraph, drawn by its own draw_mermaid."""
    lg = pytest.importorskip("langgraph.graph")
    types = pytest.importorskip("langgraph.types")
    from typing import Annotated, TypedDict

    # the functional form: under `from __future__ import annotations` a class body's hints
    # stay strings that LangGraph cannot resolve inside this function
    state = TypedDict("S", {"joke": str, "done": Annotated[list, lambda a, b: a + b]})  # noqa: UP013

    def step(state: dict) -> dict:
        return {}

    g = lg.StateGraph(state)
    for name in ("think", "write", "grade", "act", "plan", "worker", "join", "slow", "sub"):
        g.add_node(name, step, defer=name == "join")
    g.add_node("gate", step, destinations=("write", lg.END))  # a declared Command(goto)
    g.add_edge(lg.START, "write")
    g.add_edge(lg.START, "plan")
    g.add_edge(["write", "plan"], "join")
    g.add_conditional_edges("plan", lambda s: [types.Send("worker", {})], ["worker"])
    for source, target in [
        ("worker", "gate"),
        ("join", "grade"),
        ("grade", "sub"),
        ("sub", "slow"),
        ("slow", "think"),
        ("act", "think"),
    ]:
        g.add_edge(source, target)
    g.add_conditional_edges("think", lambda s: "tools", {"tools": "act", "end": lg.END})
    return _mermaid_edges(g.compile().get_graph().draw_mermaid())


def _through_join_points(edges: set[tuple[str, str, bool]]) -> set[tuple[str, str, bool]]:
    """Our join point contracted: each source straight to the target, as LangGraph draws."""
    points = {t for _, t, _ in edges if t.startswith("__join")}
    out = {e for e in edges if e[0] not in points and e[1] not in points}
    for point in points:
        targets = [t for s, t, _ in edges if s == point]
        out |= {(s, t, False) for s, p, _ in edges if p == point for t in targets}
    return out


def test_edges_and_their_conditionality_match_langgraphs_drawing(joke):
    mermaid = render.to_mermaid(joke)
    ours = _mermaid_edges(mermaid.replace(" --- ", " --> "))
    assert _through_join_points(ours) == _langgraph_edges()


# ---------------------------------------------------------------- explain


def test_model_node_seats_answer_per_node(joke):
    dmap = review.decision_map(joke)
    b1 = {p.source: p for p in dmap.answer("B1").parts}
    assert '"You are helpful."' in b1["node `think`"].answer
    assert b1["nodes `write`, `worker`"].answer.startswith("none")
    b2 = {p.source: p.answer for p in dmap.answer("B2").parts}
    assert "whole `messages` channel" in b2["node `think`"]
    assert "no conversation is read" in b2["node `write`"]
    [b7] = dmap.answer("B7").parts
    assert b7.source == "node `grade`" and "`Feedback`" in b7.answer
    assert b7.span.line == joke.nodes[2].span.line + 1  # the `output:` argument's line
    g4 = dmap.answer("G4").parts[0]
    assert "no retry" in g4.answer and g4.origin is Origin.FACT
    assert dmap.answer("C1").parts[0].holder is Holder.LLM


def test_tool_node_seats_answer_at_the_tools_node(joke):
    dmap = review.decision_map(joke)
    e5 = dmap.answer("E5").parts[0]
    assert e5.source == "node `act`" and "order the model listed them" in e5.answer
    e3 = dmap.answer("E3").parts[0]
    assert e3.origin is Origin.DEFAULT and e3.source == "node `act`"
    assert dmap.answer("D1").parts[0].holder is Holder.HUMAN  # `interrupt before act`
    assert "`act` → think" in dmap.answer("C5").parts[0].answer


def test_graph_wide_seats(joke):
    dmap = review.decision_map(joke)
    g1 = dmap.answer("G1").parts
    assert g1[0].holder is Holder.LLM and "`think`" in g1[0].answer
    a11 = " ".join(p.answer for p in dmap.answer("A11").parts)
    assert "`join` waits for all of `write`, `plan`" in a11
    assert "`plan` may Send to `worker`" in a11 and "`gate` may go to `write`, END" in a11
    assert dmap.answer("I1").parts[0].holder is Holder.EXTERNAL
    assert "only `topic`" in dmap.answer("A5").parts[0].answer


def test_seats_no_node_makes_stay_out_of_play(joke):
    dmap = review.decision_map(joke)
    for seat in ("D10", "D14", "F4", "A9", "E12"):
        assert dmap.answer(seat).holder is Holder.NONE, seat


def test_answers_name_no_seat_ids(joke):
    seat_id = re.compile(r"\b[A-I]\d{1,2}\b")
    for answer in review.decision_map(joke).answers:
        for part in answer.parts:
            if part.origin is Origin.FACT:
                assert not seat_id.search(part.answer), (answer.seat.id, part.answer)


def test_far_fewer_seats_out_of_play_than_before(joke):
    out = [a for a in review.decision_map(joke).answers if a.holder is Holder.NONE]
    assert len(out) <= 35
