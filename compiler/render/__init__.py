"""Diagrams of a compiled graph: Mermaid and Graphviz DOT text, SVG/PNG through `dot`.

Input: one `ir.Graph`. Output: a `Diagram` (diagram.py: nodes, edges, clusters and legend
lines, all in a fixed order) and the text or bytes drawn from it: `to_mermaid`
(mermaid.py, LangGraph's `draw_mermaid` form), `to_dot` and `render_dot` (dot.py).
Invariants: the same IR always gives the same text byte for byte; every IR node, static
edge and branch route appears; conditional edges are dashed and labelled with their
condition; `Send` fan-out is dashed and labelled "Send", a declared `goto` dotted and
labelled "goto", a join's sources meet at an "all of" point; middleware hook nodes sit in
one cluster per middleware, and an expanded subgraph node (`diagram(g, expand=graphs)`) in
a cluster of its child's nodes. Nothing here needs networkx; the Graphviz `dot` program is
needed only for SVG/PNG.
"""

from __future__ import annotations

from .diagram import (
    CALL_LABEL,
    GOTO_LABEL,
    JOIN_LABEL,
    ROUTE_LABELS,
    SEND_LABEL,
    Cluster,
    ClusterKind,
    DEdge,
    Diagram,
    DNode,
    EdgeStyle,
    NodeShape,
    Terminal,
    case_label,
    diagram,
    join_id,
    route_label,
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
from .labels import (
    map_text,
    model_config,
    model_line,
    model_switchers,
    node_detail,
    node_notes,
    run_notes,
    subgraph_config,
    template_text,
    tool_config,
    tool_names,
)
from .mermaid import mermaid_id, to_mermaid
from .words import condition_text, legend_lines

__all__ = [
    "DOT_PACKAGE_HINT",
    "CALL_LABEL",
    "GOTO_LABEL",
    "JOIN_LABEL",
    "ROUTE_LABELS",
    "SEND_LABEL",
    "ClusterKind",
    "join_id",
    "map_text",
    "model_config",
    "model_line",
    "model_switchers",
    "node_detail",
    "node_notes",
    "run_notes",
    "subgraph_config",
    "template_text",
    "tool_config",
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
