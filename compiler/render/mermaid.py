"""Mermaid text of a `Diagram`, as LangGraph's `draw_mermaid` writes it.

Input: an `ir.Graph` or its `Diagram`. Output: Mermaid flowchart text (frontmatter,
`graph TD;`, `__start__([<p>__start__</p>]):::first`, `-.->` for conditional edges,
`classDef`s), so it pastes wherever LangGraph's does; hook nodes sit in one `subgraph` per
middleware and an expanded subgraph's nodes in a nested `subgraph` (ids `node:child`,
`\3a`-escaped, as LangGraph's xray drawing); `Send` routes and declared `goto`s are
dashed links restyled by `linkStyle` (blue; dotted; a sub-agent run by a tools node pink),
a join's sources meet an "all of" circle through open links (`---`); interrupts are
outlined, the legend is a note.
Invariant: deterministic text.
"""

from __future__ import annotations

import agentc.ir as ir

from .diagram import (
    Cluster,
    ClusterKind,
    DEdge,
    Diagram,
    DNode,
    EdgeStyle,
    NodeShape,
    Terminal,
    diagram,
)

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
    Terminal.JOIN: "{0}(({1})):::join",
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


_MERMAID_JOIN_CLASS = "join fill:#555555,color:#ffffff,font-size:9px"


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
    if node.kind is Terminal.JOIN:
        return label
    notes = [_mermaid_escape(line) for line in (node.detail, *node.notes) if line]
    notes += [f"pause {when}" for when in node.interrupt]
    if notes:
        label += "<hr/><small><em>" + "<br/>".join(notes) + "</em></small>"
    return label


def _mermaid_node(node: DNode, indent: str) -> str:
    line = _MERMAID_SHAPES[node.kind].format(mermaid_id(node.id), _mermaid_label(node))
    return f"{indent}{line}\n"


# How each style is drawn: the link when unlabelled, the link around a label, and the
# `linkStyle` that sets it apart (Mermaid has one dashed link; Send and goto restyle it).
_MERMAID_LINKS: dict[EdgeStyle, tuple[str, str, str | None]] = {
    EdgeStyle.STATIC: (" --> ", " -- &nbsp;{}&nbsp; --> ", None),
    EdgeStyle.CONDITIONAL: (" -.-> ", " -. &nbsp;{}&nbsp; .-> ", None),
    EdgeStyle.SEND: (" -.-> ", " -. &nbsp;{}&nbsp; .-> ", "stroke:#2f6fb0,stroke-width:2px"),
    EdgeStyle.GOTO: (" -.-> ", " -. &nbsp;{}&nbsp; .-> ", "stroke-dasharray:1 4,stroke-width:2px"),
    EdgeStyle.JOIN: (" --- ", " -- &nbsp;{}&nbsp; --- ", None),
    EdgeStyle.CALL: (" -.-> ", " -. &nbsp;{}&nbsp; .-> ", "stroke:#b0306b,stroke-width:2px"),
}


def _mermaid_edge(edge: DEdge) -> str:
    bare, labelled, _ = _MERMAID_LINKS[edge.style]
    arrow = labelled.format(_mermaid_escape(edge.label)) if edge.label else bare
    return f"\t{mermaid_id(edge.source)}{arrow}{mermaid_id(edge.target)};\n"


def _link_styles(d: Diagram) -> list[str]:
    """`linkStyle` lines by link index (edges are drawn in `d.edges` order)."""
    out = []
    for index, edge in enumerate(d.edges):
        style = _MERMAID_LINKS[edge.style][2]
        if style is not None:
            out.append(f"\tlinkStyle {index} {style};\n")
    return out


def _mermaid_cluster(d: Diagram, cluster: Cluster, indent: str) -> list[str]:
    prefix = "sg_" if cluster.kind is ClusterKind.SUBGRAPH else "mw_"
    out = [
        f'{indent}subgraph {mermaid_id(prefix + cluster.id)}["{_mermaid_escape(cluster.title)}"]\n'
    ]
    out += [_mermaid_node(n, indent + "\t") for n in d.members(cluster.id)]
    for inner in d.children(cluster.id):
        out += _mermaid_cluster(d, inner, indent + "\t")
    out.append(f"{indent}end\n")
    return out


def to_mermaid(graph: ir.Graph | Diagram, *, legend: bool = True) -> str:
    d = graph if isinstance(graph, Diagram) else diagram(graph)
    out = [_MERMAID_FRONTMATTER, "graph TD;\n"]
    out += [_mermaid_node(n, "\t") for n in d.members(None)]
    for cluster in d.children(None):
        out += _mermaid_cluster(d, cluster, "\t")
    out += [_mermaid_edge(e) for e in d.edges]
    out += _link_styles(d)
    out += [f"\tclass {mermaid_id(n.id)} interrupt;\n" for n in d.nodes if n.interrupt]
    if legend:
        text = "<br/>".join(_mermaid_escape(line) for line in d.legend)
        out.append(f'\t__legend__["{text}"]:::legend\n')
    out += [f"\tclassDef {style}\n" for style in _MERMAID_CLASSES]
    if any(n.kind is Terminal.JOIN for n in d.nodes):  # only then: older drawings unchanged
        out.append(f"\tclassDef {_MERMAID_JOIN_CLASS}\n")
    return "".join(out)
