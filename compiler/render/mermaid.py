"""Mermaid text of a `Diagram`, as LangGraph's `draw_mermaid` writes it.

Input: an `ir.Graph` or its `Diagram`. Output: Mermaid flowchart text (frontmatter,
`graph TD;`, `__start__([<p>__start__</p>]):::first`, `-.->` for conditional edges,
`classDef`s), so it pastes wherever LangGraph's does; hook nodes sit in one `subgraph` per
middleware, interrupts are outlined, the legend is a note. Invariant: deterministic text.
"""

from __future__ import annotations

import agentc.ir as ir

from .diagram import DEdge, Diagram, DNode, EdgeStyle, NodeShape, Terminal, diagram

_MERMAID_FRONTMATTER = "---\nconfig:\n  flowchart:\n    curve: linear\n---\n"
_MERMAID_ESCAPES = {
    "[": "#91;",
    "]": "#93;",
    "(": "#40;",
    ")": "#41;",
    "{": "#123;",
    "}": "#125;",
    '"': "#quot;",
    "<": "#60;",
    ">": "#62;",
    "|": "#124;",
}
# Shapes by node kind: LangGraph draws every node `id(label)`; the kinds get their own.
_MERMAID_SHAPES: dict[NodeShape, str] = {
    Terminal.START: "{0}([{1}]):::first",
    Terminal.END: "{0}([{1}]):::last",
    ir.NodeKind.MODEL: "{0}({1})",
    ir.NodeKind.TOOLS: "{0}[/{1}/]:::tools",
    ir.NodeKind.PYTHON: "{0}[{1}]:::python",
    ir.NodeKind.HOOK: "{0}{{{{{1}}}}}:::hook",
    ir.NodeKind.AGENT: "{0}[[{1}]]:::agent",
    ir.NodeKind.SUBGRAPH: "{0}[[{1}]]:::agent",
}
_MERMAID_CLASSES = (
    "default fill:#f2f0ff,line-height:1.2",
    "first fill-opacity:0",
    "last fill:#bfb6fc",
    "tools fill:#e3f2e1",
    "python fill:#e8f0fe",
    "hook fill:#fff4dd",
    "agent fill:#fde7ef",
    "interrupt stroke:#d62728,stroke-width:3px",
    "legend fill:#ffffff,stroke:#999999,stroke-dasharray:3 3,text-align:left",
)


def mermaid_id(name: str) -> str:
    """LangGraph's safe id: [A-Za-z0-9_-] kept, anything else as `\\` + hex code point."""
    return "".join(
        ch if ch.isascii() and (ch.isalnum() or ch in "_-") else "\\" + format(ord(ch), "x")
        for ch in name
    )


def _mermaid_escape(text: str) -> str:
    text = text.replace("#", "#35;")
    for char, entity in _MERMAID_ESCAPES.items():
        text = text.replace(char, entity)
    return text


def _mermaid_label(node: DNode) -> str:
    label = _mermaid_escape(node.label)
    if node.kind in (Terminal.START, Terminal.END):
        return f"<p>{label}</p>"
    notes = [_mermaid_escape(node.detail)] if node.detail else []
    notes += [f"pause {when}" for when in node.interrupt]
    if notes:
        label += "<hr/><small><em>" + "<br/>".join(notes) + "</em></small>"
    return label


def _mermaid_node(node: DNode, indent: str) -> str:
    line = _MERMAID_SHAPES[node.kind].format(mermaid_id(node.id), _mermaid_label(node))
    return f"{indent}{line}\n"


def _mermaid_edge(edge: DEdge) -> str:
    if edge.label:
        text = _mermaid_escape(edge.label)
        arrow = (
            f" -. &nbsp;{text}&nbsp; .-> "
            if edge.style is EdgeStyle.CONDITIONAL
            else f" -- &nbsp;{text}&nbsp; --> "
        )
    else:
        arrow = " -.-> " if edge.style is EdgeStyle.CONDITIONAL else " --> "
    return f"\t{mermaid_id(edge.source)}{arrow}{mermaid_id(edge.target)};\n"


def to_mermaid(graph: ir.Graph | Diagram, *, legend: bool = True) -> str:
    d = graph if isinstance(graph, Diagram) else diagram(graph)
    out = [_MERMAID_FRONTMATTER, "graph TD;\n"]
    out += [_mermaid_node(n, "\t") for n in d.nodes if n.cluster is None]
    for cluster in d.clusters:
        out.append(
            f'\tsubgraph {mermaid_id("mw_" + cluster.id)}["{_mermaid_escape(cluster.title)}"]\n'
        )
        out += [_mermaid_node(n, "\t\t") for n in d.nodes if n.cluster == cluster.id]
        out.append("\tend\n")
    out += [_mermaid_edge(e) for e in d.edges]
    out += [f"\tclass {mermaid_id(n.id)} interrupt;\n" for n in d.nodes if n.interrupt]
    if legend:
        text = "<br/>".join(_mermaid_escape(line) for line in d.legend)
        out.append(f'\t__legend__["{text}"]:::legend\n')
    out += [f"\tclassDef {style}\n" for style in _MERMAID_CLASSES]
    return "".join(out)
