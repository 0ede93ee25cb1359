"""`graph.get_graph()` on a loaded graph, as LangGraph's: nodes and edges (the same ones as
the IR and as LangGraph 1.2.24's drawing of a twin), mermaid text that parses back to
them, a PNG through Graphviz, and what a notebook displays."""

from __future__ import annotations

import re
import shutil

import pytest
from support.graphs import END, START, chain, chan, compiled, graph, lg_twin, node, router

import agentc
from agentc.compiler.render import mermaid_id
from agentc.graphview import GraphDrawing, LoadedGraph, drawing
from agentc.runtime.errors import GraphvizMissingError

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is missing")

NODES_PY = """
def write(state):
    return {"x": state["x"] + 1}

def check(state):
    return {"ok": state["x"] > 2}

def publish(state):
    return {}

def helper(state):
    return {}
"""

REVIEW = """
use "./nodes.py" as nodes

graph helper_graph {
  state { x: int = 0 }
  node help = python(nodes.helper)
  edge START -> help
  edge help -> END
}

graph review {
  state {
    x: int = 0
    ok: bool = false
  }
  node write = python(nodes.write)
  node check = python(nodes.check)
  node publish = python(nodes.publish)
  node sub = subgraph(helper_graph)
  edge START -> write
  edge write -> check
  edge check -> publish when ok
  edge check -> write otherwise
  edge publish -> sub
  edge sub -> END
}
"""


@pytest.fixture
def review(tmp_path):
    (tmp_path / "nodes.py").write_text(NODES_PY)
    path = tmp_path / "review.agent"
    path.write_text(REVIEW)
    return agentc.load(path)["review"]


_EDGE = re.compile(r"^\t+(\S+) (?:-->|-\.->|---|-- .+? -->|-\. .+? \.->|-- .+? ---) (\S+);$")
_NODE = re.compile(r"^\t+([A-Za-z0-9_\\-]+)[\(\[\{/]")
_NOT_NODES = {"subgraph", "classDef", "class", "linkStyle", "end", "__legend__"}


def parse_mermaid(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    """The node ids and (source, target) pairs a mermaid flowchart declares."""
    nodes, edges = set(), set()
    for line in text.splitlines():
        if m := _EDGE.match(line):
            edges.add((m[1], m[2]))
        elif (m := _NODE.match(line)) and m[1] not in _NOT_NODES:
            nodes.add(m[1])
    return nodes, edges


def ir_shape(g) -> tuple[set[str], set[tuple[str, str]]]:
    """The graph's nodes (with START and END) and every edge a run may take, from the IR."""
    nodes = {START, END, *(n.name for n in g.nodes)}
    edges = {(e.source, e.target) for e in g.edges}
    for br in g.branches:
        edges |= {(br.source, c.target) for c in br.cases}
        edges |= {(br.source, t) for t in br.routes.values()}
    return nodes, edges


def test_loaded_graph_draws_itself(review):
    assert isinstance(review, LoadedGraph)
    drawn = review.get_graph()
    assert isinstance(drawn, GraphDrawing)
    nodes, edges = ir_shape(review.graph)
    assert set(drawn.nodes) == nodes
    assert {(e.source, e.target) for e in drawn.edges} == edges
    assert {(e.source, e.target) for e in drawn.edges if e.conditional} == {
        ("check", "publish"),
        ("check", "write"),
    }
    assert drawn.nodes["sub"].kind == "subgraph" and drawn.nodes["write"].name == "write"
    assert [e.data for e in drawn.edges if e.conditional] == ["when ok", "otherwise"]


def test_mermaid_text_parses_to_the_irs_nodes_and_edges(review):
    nodes, edges = ir_shape(review.graph)
    assert parse_mermaid(review.get_graph().draw_mermaid()) == (
        {mermaid_id(n) for n in nodes},
        {(mermaid_id(s), mermaid_id(t)) for s, t in edges},
    )
    # the same text `agentc graph` prints
    from agentc.cmd_graph import Format, draw

    assert review.get_graph().draw_mermaid() == draw(review.graph, Format.MERMAID).decode()


def test_xray_draws_the_subgraphs_own_nodes(review):
    drawn = review.get_graph(xray=True)
    assert {"sub:help", "sub:__start__", "sub:__end__"} <= set(drawn.nodes)
    assert "sub" not in drawn.nodes
    assert ("sub:help", "sub:__end__") in {(e.source, e.target) for e in drawn.edges}
    nodes, _ = parse_mermaid(drawn.draw_mermaid())
    assert mermaid_id("sub:help") in nodes


def picks(state):
    return "b" if state["x"] else "end"


def test_nodes_and_edges_match_langgraphs_drawing_of_the_same_graph():
    pytest.importorskip("langgraph", reason="langgraph (the oracle) is not installed")
    g = graph(
        state=[chan("x")],
        nodes=[node("a", lambda s: {}), node("b", lambda s: {})],
        edges=[(START, "a"), ("b", END)],
        branches=[router("a", picks, {"b": "b", "end": END})],
    )
    ours = drawing(compiled(g).program, g)
    theirs = lg_twin(g).get_graph()
    assert list(ours.nodes) == list(theirs.nodes)
    assert {(e.source, e.target, e.conditional) for e in ours.edges} == {
        (e.source, e.target, e.conditional) for e in theirs.edges
    }
    plain = graph(state=[chan("x")], nodes=[node("a", lambda s: {})], edges=chain("a"))
    assert ours.draw_mermaid().startswith(lg_twin(plain).get_graph().draw_mermaid()[:50])


@needs_dot
def test_png_is_a_png(review, tmp_path):
    drawn = review.get_graph()
    png = drawn.draw_png()
    assert png is not None and png.startswith(PNG_MAGIC)
    assert drawn.draw_mermaid_png() == png
    from agentc.cmd_graph import Format, draw

    assert png == draw(review.graph, Format.PNG)  # the picture `agentc graph --format png` draws
    out = tmp_path / "g.png"
    assert drawn.draw_png(out) is None and out.read_bytes().startswith(PNG_MAGIC)
    bundle = review._repr_mimebundle_()
    assert bundle["image/png"].startswith(PNG_MAGIC)
    assert bundle["text/vnd.mermaid"] == drawn.draw_mermaid()
    assert set(review._repr_mimebundle_(include=["text/plain"])) == {"text/plain"}
    assert drawn._repr_png_() == png


def test_without_graphviz_png_says_so_and_notebooks_get_the_text(review, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # a real PATH on which there is no `dot`
    drawn = review.get_graph()
    with pytest.raises(GraphvizMissingError) as err:
        drawn.draw_png()
    assert "Graphviz" in str(err.value) and "draw_mermaid()" in str(err.value)
    assert err.value.code == "graphviz-missing"
    assert drawn._repr_png_() is None
    bundle = drawn._repr_mimebundle_()
    assert "image/png" not in bundle
    assert bundle["text/markdown"].startswith("```mermaid\n")
