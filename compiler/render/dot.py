"""Graphviz DOT text of a `Diagram`, and SVG/PNG laid out by the `dot` program.

Input: an `ir.Graph` or its `Diagram`; for `render_dot`, DOT text and a `BinaryFormat`.
Output: DOT text (HTML-like labels, one cluster per middleware, START at the top and END
at the bottom, a legend cluster) and the bytes Graphviz draws from it. Invariant:
deterministic text. Only `render_dot` needs the Graphviz `dot` program (and the
`graphviz` package, imported on first use); `DotNotFound` says which package installs it.
"""

from __future__ import annotations

import enum
import html
import shutil

import agentc.ir as ir

from .diagram import DEdge, Diagram, DNode, EdgeStyle, NodeShape, Terminal, diagram

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
        f"<b>{_dot_html(node.label)}</b>"
        if node.kind is not Terminal.START and node.kind is not Terminal.END
        else _dot_html(node.label)
    ]
    if node.detail:
        parts.append(f'<font point-size="9" color="#444444">{_dot_html(node.detail)}</font>')
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
    attrs = ["style=dashed"] if edge.style is EdgeStyle.CONDITIONAL else []
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


def to_dot(graph: ir.Graph | Diagram, *, legend: bool = True) -> str:
    d = graph if isinstance(graph, Diagram) else diagram(graph)
    out = [f"digraph {dot_quote(d.name)} {{\n", _DOT_HEADER]
    out += [_dot_node(n, "\t") for n in d.nodes if n.cluster is None]
    for cluster in d.clusters:
        out.append(f"\tsubgraph {dot_quote('cluster_' + cluster.id)} {{\n")
        out.append(
            f'\t\tlabel={dot_quote(cluster.title)}; style="rounded,dashed"; '
            'color="#c79a2e"; fontsize=10;\n'
        )
        out += [_dot_node(n, "\t\t") for n in d.nodes if n.cluster == cluster.id]
        out.append("\t}\n")
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
