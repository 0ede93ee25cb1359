"""Diagrams: golden mermaid/dot text, LangGraph's conventions, every IR element in the SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from support import review_cases as fixtures
from support.golden import check_golden

from agentc import ir
from agentc.compiler import render

NEEDS_DOT = pytest.mark.skipif(
    not render.dot_available(),
    reason=("Graphviz `dot` is not installed (Debian package `graphviz`): SVG/PNG not checked"),
)


@pytest.mark.parametrize("name", sorted(fixtures.ALL))
def test_mermaid_golden(request, name):
    check_golden(request, f"fixture_{name}.mmd", render.to_mermaid(fixtures.ALL[name]()))


@pytest.mark.parametrize("name", sorted(fixtures.ALL))
def test_dot_golden(request, name):
    check_golden(request, f"fixture_{name}.dot", render.to_dot(fixtures.ALL[name]()))


def test_same_ir_same_text():
    assert render.to_dot(fixtures.guarded()) == render.to_dot(fixtures.guarded())
    assert render.to_mermaid(fixtures.guarded()) == render.to_mermaid(fixtures.guarded())


def test_mermaid_follows_draw_mermaid_conventions():
    text = render.to_mermaid(fixtures.calculator())
    assert text.startswith("---\nconfig:\n  flowchart:\n    curve: linear\n---\ngraph TD;\n")
    assert "\t__start__([<p>__start__</p>]):::first\n" in text
    assert "\t__end__([<p>__end__</p>]):::last\n" in text
    for line in (
        "classDef default fill:#f2f0ff,line-height:1.2",
        "classDef first fill-opacity:0",
        "classDef last fill:#bfb6fc",
    ):
        assert f"\t{line}\n" in text
    assert "\t__start__ --> model;\n" in text
    assert "\tmodel -. &nbsp;tool calls&nbsp; .-> tools;\n" in text


def test_hook_ids_are_escaped_as_langgraph_does():
    text = render.to_mermaid(fixtures.guarded())
    assert "human_review\\2eafter_model{{after_model}}:::hook" in text


def test_conditional_edges_are_dashed_and_labelled():
    d = render.diagram(fixtures.review_loop())
    conditional = {
        (e.source, e.target): e.label for e in d.edges if e.style is render.EdgeStyle.CONDITIONAL
    }
    assert conditional == {("check", "publish"): "when approved", ("check", "write"): "otherwise"}
    dot = render.to_dot(fixtures.review_loop())
    assert '"check" -> "publish" [style=dashed, label=" when approved "];' in dot


def test_condition_text_round_trips_the_language_syntax():
    cond = ir.BoolCond(
        kind="and",
        operands=[
            ir.FieldCond(name="approved"),
            ir.CompareCond(
                op="!=", left=ir.FieldCond(name="draft"), right=ir.LiteralCond(value="")
            ),
            ir.NotCond(operand=ir.FieldCond(name="review", path=["blocked"])),
        ],
    )
    assert render.condition_text(cond) == 'approved and draft != "" and not review.blocked'
    either = ir.BoolCond(kind="or", operands=[ir.FieldCond(name="a"), ir.FieldCond(name="b")])
    assert render.condition_text(ir.NotCond(operand=either)) == "not (a or b)"


def test_middleware_hooks_are_clustered_and_interrupts_marked():
    d = render.diagram(fixtures.guarded())
    assert [c.id for c in d.clusters] == ["human_review", "model_call_limit"]
    by_id = {n.id: n for n in d.nodes}
    assert by_id["model_call_limit.before_model"].cluster == "model_call_limit"
    assert by_id["tools"].interrupt == ("before",)
    assert "interrupt before tools (line 16)" in d.legend
    assert "steps ≤ 25 (line 14)" in d.legend
    assert "checkpoint: sqlite .agentc/state.db (line 17)" in d.legend


def test_exit_label_names_return_direct_and_structured_answer():
    d = render.diagram(fixtures.guarded())
    edge = next(e for e in d.edges if (e.source, e.target) == ("tools", ir.END))
    assert edge.label == "return_direct / structured answer"


def expected_edges(graph: ir.Graph) -> set[tuple[str, str]]:
    """Every edge the IR has, as drawn: a join through its join point."""
    pairs = {(e.source, e.target) for e in graph.edges}
    for b in graph.branches:
        pairs |= {(b.source, c.target) for c in b.cases} | {
            (b.source, t) for t in b.routes.values()
        }
    for i, j in enumerate(graph.joins):
        point = render.join_id(i)
        pairs |= {(s, point) for s in j.sources} | {(point, j.target)}
    pairs |= {(n.name, t) for n in graph.nodes for t in n.goto or ()}
    # an agent used as a tool (H1): a sub-agent node the tools node runs
    for n in graph.nodes:
        if n.kind is ir.NodeKind.TOOLS:
            tools = graph.agent.tools if graph.agent and n.name == "tools" else []
            listed = n.config.get("tools")
            tools = list(tools) + [
                ir.ToolSpec.model_validate(t) for t in (listed if isinstance(listed, list) else [])
            ]
            pairs |= {(n.name, f"{n.name}:{t.name}") for t in tools if t.agent is not None}
    return pairs


def svg_elements(svg: bytes) -> tuple[set[str], set[tuple[str, str]]]:
    root = ET.fromstring(svg)
    ns = {"s": "http://www.w3.org/2000/svg"}
    nodes, edges = set(), set()
    for group in root.iter("{http://www.w3.org/2000/svg}g"):
        title = group.find("s:title", ns)
        if title is None or title.text is None:
            continue
        if group.get("class") == "node":
            nodes.add(title.text)
        elif group.get("class") == "edge":
            source, _, target = title.text.partition("->")
            edges.add((source, target))
    return nodes, edges


@NEEDS_DOT
@pytest.mark.parametrize("name", sorted(fixtures.ALL))
def test_svg_has_every_node_and_edge_of_the_ir(name):
    graph = fixtures.ALL[name]()
    svg = render.render_dot(render.to_dot(graph), render.BinaryFormat.SVG)
    nodes, edges = svg_elements(svg)
    assert {n.name for n in graph.nodes} | {ir.START, ir.END} <= nodes
    assert expected_edges(graph) == edges


@NEEDS_DOT
def test_png_renders(tmp_path):
    png = render.render_dot(render.to_dot(fixtures.guarded()), render.BinaryFormat.PNG)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000


def test_missing_dot_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(render.DotNotFound, match="apt-get install graphviz"):
        render.render_dot(render.to_dot(fixtures.calculator()), render.BinaryFormat.SVG)


# ---------------------------------------------------------------- LangGraph as the oracle


def _mermaid_edges(text: str) -> set[tuple[str, str, bool]]:
    edges = set()
    for line in text.splitlines():
        m = re.match(
            r"\t(\S+) (-->|-\.->|-\. &nbsp;.*?&nbsp; \.->|-- &nbsp;.*?&nbsp; -->) (\S+);", line
        )
        if m:
            edges.add((m.group(1), m.group(3), m.group(2).startswith("-.")))
    return edges


def _langgraph_mermaid(tools: bool, middleware: bool) -> str:
    lc = pytest.importorskip("langchain.agents")
    mw = pytest.importorskip("langchain.agents.middleware")
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.tools import tool

    class Fake(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):
            return self

    @tool
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    middleware_list = (
        [
            mw.HumanInTheLoopMiddleware(interrupt_on={"add": True}),
            mw.ModelCallLimitMiddleware(run_limit=3),
        ]
        if middleware
        else []
    )
    agent = lc.create_agent(
        model=Fake(messages=iter([])), tools=[add] if tools else [], middleware=middleware_list
    )
    text = agent.get_graph().draw_mermaid()
    return text.replace("HumanInTheLoopMiddleware", "human_review").replace(
        "ModelCallLimitMiddleware", "model_call_limit"
    )


def test_calculator_edges_match_create_agent():
    ours = {(s, t) for s, t, _ in _mermaid_edges(render.to_mermaid(fixtures.calculator()))}
    theirs = {(s, t) for s, t, _ in _mermaid_edges(_langgraph_mermaid(True, False))}
    assert ours == theirs


def _plain_guarded() -> ir.Graph:
    """The guarded fixture without what create_agent above lacks (output, return_direct)."""
    g = fixtures.guarded()
    branches = [
        b
        if b.source != "tools"
        else b.model_copy(update={"routes": {"model": "model_call_limit.before_model"}})
        for b in g.branches
    ]
    return g.model_copy(update={"branches": branches})


def test_middleware_edges_match_create_agent():
    ours = _mermaid_edges(render.to_mermaid(_plain_guarded()))
    theirs = _mermaid_edges(_langgraph_mermaid(True, True))
    assert ours == theirs
