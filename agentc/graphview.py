"""Drawing a loaded graph from Python, as LangGraph's `graph.get_graph()` does.

Input: a compiled graph's `ir.Program` and `ir.Graph`, and `xray`. Output: a
`GraphDrawing` with the nodes and edges LangGraph's `Graph` names (`Node.id`, `.name`;
`Edge.source`, `.target`, `.data` its label, `.conditional`), `draw_mermaid()` (the text
`agentc graph` prints), `draw_png()` (Graphviz's `dot`, as `agentc graph --format png`;
`draw_mermaid_png()` draws the same picture, laid out by Graphviz rather than by the
mermaid.ink web service, so nothing leaves the machine) and the methods notebooks display
(`_repr_png_`, `_repr_mimebundle_`). `LoadedGraph` is the `CompiledGraph` that
`agentc.load` returns, with `get_graph`: the drawing lives here, on top of both halves,
because the runtime never imports the compiler (its renderers are compiler/render).
Invariants: the nodes and edges are the ones every drawing shows (one `Diagram`); the
same IR always gives the same text and picture.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import ir
from .compiler import render
from .runtime.compiled import CompiledGraph
from .runtime.errors import GraphvizMissingError

_PLAIN = frozenset({render.EdgeStyle.STATIC, render.EdgeStyle.JOIN})
MERMAID_MIME = "text/vnd.mermaid"


@dataclass(frozen=True, slots=True)
class Node:
    """A drawn node: a graph node, `__start__` / `__end__`, or a join point."""

    id: str  # as LangGraph's: the node's name; `parent:child` inside an expanded subgraph
    name: str
    kind: str  # model, tools, python, hook, agent, subgraph; start, end, join
    label: str  # the text drawn in it
    detail: str | None = None  # the line under it (a model's name, a tool list …)


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    data: str | None = None  # its label: a condition, a route, "Send", "goto"
    conditional: bool = False  # drawn dashed: taken only sometimes (LangGraph's flag)
    style: str = render.EdgeStyle.STATIC.value  # how it is drawn (`render.EdgeStyle`)


class GraphDrawing:
    """What `get_graph()` returns: LangGraph's `Graph` calls over agentc's diagram."""

    def __init__(self, diagram: render.Diagram) -> None:
        self.diagram = diagram
        self.nodes: dict[str, Node] = {n.id: _node(n) for n in diagram.nodes}
        self.edges: list[Edge] = [_edge(e) for e in diagram.edges]

    def draw_mermaid(self, *, legend: bool = True) -> str:
        """Mermaid flowchart text, as `agentc graph` (and LangGraph's `draw_mermaid`)."""
        return render.to_mermaid(self.diagram, legend=legend)

    def draw_dot(self, *, legend: bool = True) -> str:
        return render.to_dot(self.diagram, legend=legend)

    def draw_png(self, output_file_path: str | Path | None = None) -> bytes | None:
        """PNG bytes laid out by Graphviz's `dot`; with a path, written there (None back,
        as LangGraph's). Without `dot` on PATH, `GraphvizMissingError`."""
        try:
            png = render.render_dot(self.draw_dot(), render.BinaryFormat.PNG)
        except render.DotNotFound as exc:
            raise GraphvizMissingError(
                f"cannot draw a PNG: {exc}",
                help="draw_mermaid() gives the diagram as text without Graphviz",
            ) from exc
        if output_file_path is None:
            return png
        Path(output_file_path).write_bytes(png)
        return None

    def draw_mermaid_png(self, output_file_path: str | Path | None = None) -> bytes | None:
        """`draw_png()`: the picture LangGraph's `draw_mermaid_png()` is used for, drawn
        here by Graphviz (no request to mermaid.ink)."""
        return self.draw_png(output_file_path)

    def _repr_png_(self) -> bytes | None:
        """A notebook's picture; None without Graphviz (the notebook shows the text)."""
        return self.draw_png() if render.dot_available() else None

    def _repr_mimebundle_(
        self, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
    ) -> dict[str, Any]:
        """The PNG when Graphviz is there, the mermaid text always (JupyterLab draws a
        fenced mermaid block in markdown), and a plain line."""
        mermaid = self.draw_mermaid()
        bundle: dict[str, Any] = {
            "text/plain": repr(self),
            MERMAID_MIME: mermaid,
            "text/markdown": f"```mermaid\n{mermaid}```\n",
        }
        if render.dot_available():
            bundle["image/png"] = self.draw_png()
        wanted = set(include) if include is not None else set(bundle)
        unwanted = set(exclude or ())
        return {k: v for k, v in bundle.items() if k in wanted and k not in unwanted}

    def __repr__(self) -> str:
        return (
            f"<GraphDrawing {self.diagram.name}: {len(self.nodes)} nodes, {len(self.edges)} edges>"
        )


def drawing(program: ir.Program, graph: ir.Graph, xray: bool | int = False) -> GraphDrawing:
    """`graph` drawn; `xray` (any depth): subgraph and agent nodes as their child's nodes."""
    graphs = _graphs(program)  # sub-agents are described from their own graphs
    return GraphDrawing(render.diagram(graph, expand=graphs if xray else None, graphs=graphs))


def _graphs(program: ir.Program) -> Mapping[str, ir.Graph]:
    return {g.name: g for g in program.graphs}


def _node(n: render.DNode) -> Node:
    kind = n.kind.value
    return Node(n.id, n.id, kind, n.label, n.detail)


def _edge(e: render.DEdge) -> Edge:
    return Edge(e.source, e.target, e.label, e.style not in _PLAIN, e.style.value)


class LoadedGraph(CompiledGraph):
    """A graph as `agentc.load` gives it: a `CompiledGraph` that can also draw itself."""

    def get_graph(self, config: object = None, *, xray: bool | int = False) -> GraphDrawing:
        """The drawing of this graph (LangGraph's call; `config` is accepted and unused:
        agentc's graph does not change shape per run)."""
        return drawing(self.program, self.graph, xray)

    def _repr_mimebundle_(
        self, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
    ) -> dict[str, Any]:
        """A notebook cell ending in the graph shows its picture, as LangGraph's."""
        return self.get_graph()._repr_mimebundle_(include, exclude)
