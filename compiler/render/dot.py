"""Graphviz DOT text of a `Diagram`, and SVG/PNG laid out by the `dot` program.

Input: an `ir.Graph` or its `Diagram`; for `render_dot`, DOT text and a `BinaryFormat`.
Output: DOT text (HTML-like labels, one cluster per middleware and per expanded subgraph,
nested as the diagram nests them, START at the top and END at the bottom, a legend
cluster) and the bytes Graphviz draws from it. Invariant:
deterministic text. Only `render_dot` needs the Graphviz `dot` program (and the
`graphviz` package, imported on first use); `DotNotFound` says which package installs it.
"""

from __future__ import annotations

import enum
import html
import shutil

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

DOT_PACKAGE_HINT = (
    "install Graphviz's `dot` program (Debian/Ubuntu: `apt-get install "
    "graphviz`); the mermaid and dot text formats work without it"
)


class DotNotFound(RuntimeError):
    """The Graphviz `dot` program is not on PATH."""


_DOT_NODE_ATTRS: dict[NodeShape, str] = {
    Terminal.START: 'shape=oval, style="filled", fillcolor="#ffffff", penwidth=1.5',
    Terminal.END: 'shape=oval, style="filled", fillcolor="#bfb6fc", penwidth=1.5',
    ir.NodeKind.MODEL: 'shape=box, style="rounded,filled", fillcolor="#f2f0ff"',
    ir.NodeKind.TOOLS: 'shape=component, style="filled", fillcolor="#e3f2e1"',
    ir.NodeKind.PYTHON: 'shape=box, style="filled", fillcolor="#e8f0fe"',
    ir.NodeKind.HOOK: 'shape=box, style="rounded,filled", fillcolor="#fff4dd", fontsize=10',
    ir.NodeKind.AGENT: 'shape=box, style="filled", fillcolor="#fde7ef", peripheries=2',
    ir.NodeKind.SUBGRAPH: 'shape=box, style="filled", fillcolor="#fde7ef", peripheries=2',
    Terminal.JOIN: (
        'shape=circle, style="filled", fillcolor="#555555", fontcolor="#ffffff", '
        "fontsize=8, width=0.35, margin=0"
    ),
}
# Edge attributes by style: conditional dashed (as LangGraph), a Send route dashed and blue
# (it fans out), a declared goto dotted, a join's source without an arrowhead (it meets the
# join point, it does not trigger it), a sub-agent run by a tools node dashed and pink.
_DOT_EDGE_ATTRS: dict[EdgeStyle, tuple[str, ...]] = {
    EdgeStyle.STATIC: (),
    EdgeStyle.CONDITIONAL: ("style=dashed",),
    EdgeStyle.SEND: ("style=dashed", 'color="#2f6fb0"', 'fontcolor="#2f6fb0"', "penwidth=1.4"),
    EdgeStyle.GOTO: ("style=dotted", "penwidth=1.4"),
    EdgeStyle.JOIN: ("arrowhead=none",),
    EdgeStyle.CALL: ("style=dashed", 'color="#b0306b"', 'fontcolor="#b0306b"', "penwidth=1.4"),
}
_DOT_HEADER = (
    '\tgraph [rankdir=TB, fontname="Helvetica", fontsize=12, nodesep=0.5, ranksep=0.45, '
    "newrank=true, pad=0.2];\n"
    '\tnode [fontname="Helvetica", fontsize=12, margin="0.15,0.06"];\n'
    '\tedge [fontname="Helvetica", fontsize=10, color="#555555"];\n'
)


def dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _dot_html(text: str) -> str:
    return html.escape(text, quote=True)


def _dot_label(node: DNode) -> str:
    parts = [
        _dot_html(node.label)
        if isinstance(node.kind, Terminal)
        else f"<b>{_dot_html(node.label)}</b>"
    ]
    if node.kind is Terminal.JOIN:
        return "<" + _dot_html(node.label) + ">"
    parts += [
        f'<font point-size="9" color="#444444">{_dot_html(line)}</font>'
        for line in (node.detail, *node.notes)
        if line
    ]
    parts += [
        f'<font point-size="9" color="#d62728"><b>pause {when}</b></font>'
        for when in node.interrupt
    ]
    return "<" + "<br/>".join(parts) + ">"


def _dot_node(node: DNode, indent: str) -> str:
    attrs = _DOT_NODE_ATTRS[node.kind]
    if node.interrupt:
        attrs += ', color="#d62728", penwidth=2.5'
    return f"{indent}{dot_quote(node.id)} [label={_dot_label(node)}, {attrs}];\n"


def _dot_edge(edge: DEdge) -> str:
    attrs = list(_DOT_EDGE_ATTRS[edge.style])
    if edge.label:
        attrs.append(f"label={dot_quote(' ' + edge.label + ' ')}")
    tail = f" [{', '.join(attrs)}]" if attrs else ""
    return f"\t{dot_quote(edge.source)} -> {dot_quote(edge.target)}{tail};\n"


def _dot_legend(d: Diagram) -> list[str]:
    rows = "".join(f'<tr><td align="left">{_dot_html(line)}</td></tr>' for line in d.legend)
    table = f'<<table border="0" cellborder="0" cellspacing="1">{rows}</table>>'
    return [
        "\tsubgraph cluster_legend {\n",
        '\t\tlabel="legend"; style="dashed"; color="#999999"; fontsize=10;\n',
        f'\t\t"__legend__" [shape=plaintext, fontsize=10, label={table}];\n',
        "\t}\n",
    ]


def _dot_cluster(d: Diagram, cluster: Cluster, indent: str) -> list[str]:
    """One cluster with its nodes and, nested, the clusters inside it."""
    if cluster.kind is ClusterKind.SUBGRAPH:
        style = 'style="rounded"; color="#b0306b"; fontsize=11'
    else:
        style = 'style="rounded,dashed"; color="#c79a2e"; fontsize=10'
    out = [
        f"{indent}subgraph {dot_quote('cluster_' + cluster.id)} {{\n",
        f"{indent}\tlabel={dot_quote(cluster.title)}; {style};\n",
    ]
    out += [_dot_node(n, indent + "\t") for n in d.members(cluster.id)]
    for inner in d.children(cluster.id):
        out += _dot_cluster(d, inner, indent + "\t")
    out.append(f"{indent}}}\n")
    return out


def to_dot(graph: ir.Graph | Diagram, *, legend: bool = True) -> str:
    d = graph if isinstance(graph, Diagram) else diagram(graph)
    out = [f"digraph {dot_quote(d.name)} {{\n", _DOT_HEADER]
    out += [_dot_node(n, "\t") for n in d.members(None)]
    for cluster in d.children(None):
        out += _dot_cluster(d, cluster, "\t")
    out += [
        f"\t{{ rank=source; {dot_quote(ir.START)} }}\n",
        f"\t{{ rank=sink; {dot_quote(ir.END)} }}\n",
    ]
    out += [_dot_edge(e) for e in d.edges]
    if legend:
        out += _dot_legend(d)
    out.append("}\n")
    return "".join(out)


# ---------------------------------------------------------------- SVG / PNG via `dot`


class BinaryFormat(str, enum.Enum):
    SVG = "svg"
    PNG = "png"


def dot_available() -> bool:
    return shutil.which("dot") is not None


def render_dot(dot_text: str, fmt: BinaryFormat) -> bytes:
    """Lay out DOT text with Graphviz; `DotNotFound` when `dot` is missing."""
    if not dot_available():
        raise DotNotFound(f"the Graphviz `dot` program was not found on PATH: {DOT_PACKAGE_HINT}")
    import graphviz  # imported here: `agentc graph --format mermaid` never needs it

    try:
        return graphviz.Source(dot_text).pipe(format=fmt.value)
    except graphviz.ExecutableNotFound as exc:
        raise DotNotFound(
            f"the Graphviz `dot` program could not be run: {DOT_PACKAGE_HINT}"
        ) from exc
