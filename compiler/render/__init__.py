"""Diagrams of a compiled graph: Mermaid and Graphviz DOT text, SVG/PNG through `dot`.

Input: one `ir.Graph`. Output: a `Diagram` (diagram.py: nodes, edges, clusters and legend
lines, all in a fixed order) and the text or bytes drawn from it: `to_mermaid`
(mermaid.py, LangGraph's `draw_mermaid` form), `to_dot` and `render_dot` (dot.py).
Invariants: the same IR always gives the same text byte for byte; every IR node, static
edge and branch route appears; conditional edges are dashed and labelled with their
condition; middleware hook nodes sit in one cluster per middleware. Nothing here needs
networkx; the Graphviz `dot` program is needed only for SVG/PNG.
"""

from __future__ import annotations

from .diagram import (
    ROUTE_LABELS,
    Cluster,
    DEdge,
    Diagram,
    DNode,
    EdgeStyle,
    NodeShape,
    Terminal,
    case_label,
    condition_text,
    diagram,
    legend_lines,
    route_label,
    tool_names,
)
from .dot import (
    DOT_PACKAGE_HINT,
    BinaryFormat,
    DotNotFound,
    dot_available,
    dot_quote,
    render_dot,
    to_dot,
)
from .mermaid import mermaid_id, to_mermaid

__all__ = [
    "DOT_PACKAGE_HINT",
    "ROUTE_LABELS",
    "BinaryFormat",
    "Cluster",
    "DEdge",
    "DNode",
    "Diagram",
    "DotNotFound",
    "EdgeStyle",
    "NodeShape",
    "Terminal",
    "case_label",
    "condition_text",
    "diagram",
    "dot_available",
    "dot_quote",
    "legend_lines",
    "mermaid_id",
    "render_dot",
    "route_label",
    "to_dot",
    "to_mermaid",
    "tool_names",
]
