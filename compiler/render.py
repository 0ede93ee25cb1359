"""Diagrams of a compiled graph: Mermaid and Graphviz DOT text, SVG/PNG through `dot`.

Input: one `ir.Graph` (with `__start__`/`__end__` implied by its edges). Output: a
`Diagram` (nodes, edges, clusters and legend lines, all in a fixed order) and the text or
bytes drawn from it. Invariants: the same IR always gives the same text byte for byte (IR
declaration order, never set or dict-hash order); every IR node, static edge and branch
route appears; conditional edges are dashed and labelled with their condition; middleware
hook nodes sit in one cluster per middleware. Mermaid follows LangGraph's `draw_mermaid`
(frontmatter, `graph TD;`, `__start__([<p>__start__</p>]):::first`, `-.->`, `classDef`)
so it pastes wherever LangGraph's does. Nothing here needs networkx; the Graphviz `dot`
program is needed only for SVG/PNG (`DotNotFound` says which package installs it).
"""

from __future__ import annotations

import enum
import html
import shutil
from dataclasses import dataclass

import agentc.ir as ir

DOT_PACKAGE_HINT = (
    "install Graphviz's `dot` program (Debian/Ubuntu: `apt-get install "
    "graphviz`); the mermaid and dot text formats work without it"
)


class DotNotFound(RuntimeError):
    """The Graphviz `dot` program is not on PATH."""


class EdgeStyle(str, enum.Enum):
    STATIC = "static"
    CONDITIONAL = "conditional"


class Terminal(str, enum.Enum):
    START = "start"
    END = "end"


NodeShape = ir.NodeKind | Terminal


@dataclass(frozen=True, slots=True)
class DNode:
    id: str
    label: str
    kind: NodeShape
    detail: str | None = None
    cluster: str | None = None  # the middleware whose hook this node is
    interrupt: tuple[str, ...] = ()  # "before" / "after" (D7)


@dataclass(frozen=True, slots=True)
class DEdge:
    source: str
    target: str
    style: EdgeStyle
    label: str | None = None


@dataclass(frozen=True, slots=True)
class Cluster:
    id: str
    title: str


@dataclass(frozen=True, slots=True)
class Diagram:
    name: str
    nodes: tuple[DNode, ...]
    edges: tuple[DEdge, ...]
    clusters: tuple[Cluster, ...]
    legend: tuple[str, ...]


# ---------------------------------------------------------------- IR → Diagram

# What each stdlib router's route labels mean on an edge (C2, C5, G2, jump_to). A route
# label that maps to None is drawn without text; an unknown router shows its labels.
ROUTE_LABELS: dict[str, dict[str, str | None]] = {
    "agentc.stdlib.agent:model_to_tools": {
        "tools": "tool calls",
        "end": "no tool calls",
        "model": "no pending calls",
    },
    "agentc.stdlib.agent:tools_to_model": {"model": None, "end": "__direct__"},
    "agentc.stdlib.agent:model_to_model": {"model": "retry output", "end": "structured answer"},
    "agentc.stdlib.agent:hook_router": {
        "default": None,
        "model": "jump_to model",
        "tools": "jump_to tools",
        "end": "jump_to end",
    },
    "agentc.stdlib.routing:tools_condition": {"tools": "tool calls", "end": "no tool calls"},
}


def diagram(graph: ir.Graph) -> Diagram:
    """The drawable form of `graph`: what every renderer below draws."""
    return Diagram(
        name=graph.name,
        nodes=_nodes(graph),
        edges=_merge_edges(_static_edges(graph) + _branch_edges(graph)),
        clusters=_clusters(graph),
        legend=legend_lines(graph),
    )


def _nodes(graph: ir.Graph) -> tuple[DNode, ...]:
    pauses: dict[str, list[str]] = {}
    for spec in graph.interrupts:
        pauses.setdefault(spec.node, []).append(spec.when.value)
    body = tuple(_node(graph, n, tuple(pauses.get(n.name, ()))) for n in graph.nodes)
    return (
        (DNode(ir.START, ir.START, Terminal.START),) + body + (DNode(ir.END, ir.END, Terminal.END),)
    )


def _node(graph: ir.Graph, node: ir.NodeSpec, pauses: tuple[str, ...]) -> DNode:
    cluster, label, kind = None, node.name, node.kind
    if node.kind is ir.NodeKind.HOOK:
        cluster = str(node.config.get("middleware") or node.name.rpartition(".")[0])
        label = str(node.config.get("point") or node.name.rpartition(".")[2])
    elif node.kind is ir.NodeKind.PYTHON and node.hook is not None:
        # a graph's `hook before write = python(...)`, spliced in as a Python node
        kind, label = ir.NodeKind.HOOK, f"{node.hook.when.value} {node.hook.node or ''}"
    return DNode(node.name, label.strip(), kind, _detail(graph, node), cluster, pauses)


def _detail(graph: ir.Graph, node: ir.NodeSpec) -> str | None:
    """A short second line: the model string, the tool names, the Python function."""
    agent = graph.agent
    if node.kind is ir.NodeKind.MODEL:
        if agent is not None and node.name == "model":
            return agent.model.spec
        model = node.config.get("model")
        return model.get("spec") if isinstance(model, dict) else model
    if node.kind is ir.NodeKind.TOOLS:
        return ", ".join(tool_names(graph, node)) or None
    if node.kind is ir.NodeKind.PYTHON:
        return node.impl.attr
    if node.kind in (ir.NodeKind.AGENT, ir.NodeKind.SUBGRAPH):
        target = node.config.get("graph") or node.config.get("agent") or node.impl.attr
        return f"{node.kind.value} {target}"
    return None


def tool_names(graph: ir.Graph, node: ir.NodeSpec) -> list[str]:
    if graph.agent is not None and node.name == "tools":
        middleware_tools = [t.name for m in graph.agent.middleware for t in m.tools]
        return middleware_tools + [t.name for t in graph.agent.tools]
    listed = node.config.get("tools")  # a graph's tools node: ToolSpec dumps
    if not isinstance(listed, list):
        return []
    return [str(t.get("name")) if isinstance(t, dict) else str(t) for t in listed]


def _clusters(graph: ir.Graph) -> tuple[Cluster, ...]:
    declared = {m.name: m.declared for m in graph.agent.middleware} if graph.agent else {}
    seen: list[str] = []
    for node in graph.nodes:
        if node.kind is ir.NodeKind.HOOK:
            name = _node(graph, node, ()).cluster
            if name is not None and name not in seen:
                seen.append(name)
    return tuple(Cluster(name, _cluster_title(name, declared.get(name))) for name in seen)


def _cluster_title(name: str, declared: str | None) -> str:
    if declared is None or declared == name:
        return f"middleware {name}"
    return f"middleware {name} ({declared})"


def _static_edges(graph: ir.Graph) -> list[DEdge]:
    return [DEdge(e.source, e.target, EdgeStyle.STATIC) for e in graph.edges]


def _branch_edges(graph: ir.Graph) -> list[DEdge]:
    edges: list[DEdge] = []
    for branch in graph.branches:
        if branch.kind is ir.BranchKind.WHEN:
            edges.extend(
                DEdge(branch.source, case.target, EdgeStyle.CONDITIONAL, case_label(case))
                for case in branch.cases
            )
            continue
        for route, target in branch.routes.items():
            edges.append(
                DEdge(
                    branch.source,
                    target,
                    EdgeStyle.CONDITIONAL,
                    route_label(graph, branch, route, target),
                )
            )
    return edges


def case_label(case: ir.BranchCase) -> str:
    if case.condition is None:
        return "otherwise"
    return "when " + condition_text(case.condition)


def route_label(graph: ir.Graph, branch: ir.BranchSpec, route: str, target: str) -> str | None:
    known = ROUTE_LABELS.get(branch.router.key) if branch.router else None
    if known is None:
        return (
            branch.label
            if branch.label and len(branch.routes) == 1
            else (None if route == target else route)
        )
    text = known.get(route, route)
    return _direct_exit_label(graph) if text == "__direct__" else text


def _direct_exit_label(graph: ir.Graph) -> str:
    """tools → exit happens on return_direct tools (C5, G2) or a structured answer (G8)."""
    agent, reasons = graph.agent, []
    if agent is not None and any(t.return_direct for t in agent.tools):
        reasons.append("return_direct")
    if agent is not None and agent.output is not None:
        reasons.append("structured answer")
    return " / ".join(reasons) or "end"


def _merge_edges(edges: list[DEdge]) -> tuple[DEdge, ...]:
    """One edge per (source, target, style); labels joined in first-seen order."""
    merged: dict[tuple[str, str, EdgeStyle], list[str | None]] = {}
    for edge in edges:
        merged.setdefault((edge.source, edge.target, edge.style), []).append(edge.label)
    out = []
    for (source, target, style), labels in merged.items():
        texts = list(dict.fromkeys(label for label in labels if label))
        out.append(DEdge(source, target, style, " / ".join(texts) or None))
    return tuple(out)


# ---------------------------------------------------------------- conditions as text


def condition_text(cond: ir.Condition) -> str:
    """A condition written back in the language's own syntax (`approved and draft != ""`)."""
    if isinstance(cond, ir.FieldCond):
        return ".".join([cond.name, *cond.path])
    if isinstance(cond, ir.LiteralCond):
        return _literal_text(cond.value)
    if isinstance(cond, ir.CompareCond):
        return f"{_operand(cond.left)} {cond.op} {_operand(cond.right)}"
    if isinstance(cond, ir.NotCond):
        return f"not {_operand(cond.operand)}"
    if isinstance(cond, ir.BoolCond):
        return f" {cond.kind} ".join(_operand(c) for c in cond.operands)
    return f"{cond.ref.attr}(state)"


def _operand(cond: ir.Condition) -> str:
    """Comparisons bind tighter than `not`/`and`/`or`; only a nested and/or needs parentheses."""
    text = condition_text(cond)
    return f"({text})" if isinstance(cond, ir.BoolCond) else text


def _literal_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


# ---------------------------------------------------------------- legend


def legend_lines(graph: ir.Graph) -> tuple[str, ...]:
    """Limits, checkpointer and interrupt points: what the arrows cannot show (F1, F2, F10, D7)."""
    lines = [f"{graph.kind.value} {graph.name}"]
    if graph.agent is not None:
        lines.append(f"model: {graph.agent.model.spec}")
    lines.append(_bound_text("steps", graph.limits.steps, _int_text))
    if graph.limits.step_timeout_s is not None:
        lines.append(_bound_text("step timeout", graph.limits.step_timeout_s, _seconds_text))
    for name, bound in graph.limits.extra.items():
        lines.append(_bound_text(name, bound, _int_text))
    lines.append(_checkpoint_text(graph.checkpoint))
    for spec in graph.interrupts:
        lines.append(f"interrupt {spec.when.value} {spec.node} (line {spec.span.line})")
    return tuple(lines)


def _bound_text(name: str, bound: ir.Bound, fmt) -> str:
    where = f"line {bound.span.line}" if bound.span is not None else "default"
    return f"{name} ≤ {fmt(bound.value)} ({where})"


def _int_text(value: float | int) -> str:
    return f"{int(value):,}" if float(value).is_integer() else str(value)


def _seconds_text(value: float | int) -> str:
    return f"{_int_text(value)} s"


def _checkpoint_text(spec: ir.CheckpointSpec) -> str:
    text = f"checkpoint: {spec.kind.value}"
    if spec.path:
        text += f" {spec.path}"
    return text + (f" (line {spec.span.line})" if spec.span is not None else " (default)")


# ---------------------------------------------------------------- Mermaid

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


# ---------------------------------------------------------------- DOT

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
