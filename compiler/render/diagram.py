"""The drawable form of a compiled graph: what every renderer draws.

Input: one `ir.Graph` (with `__start__`/`__end__` implied by its edges) and, to expand
subgraph nodes, the program's graphs by name. Output: a `Diagram` — nodes (kind, a detail
line and notes from labels.py, the middleware cluster of a hook, interrupts), edges (static;
conditional, labelled with their condition or route; `Send` fan-out; declared `goto`; a
join's sources meeting at a join point that goes on "all of" them), clusters (middleware,
expanded subgraphs and sub-agents, nested) and legend lines (words.py: the model and who
may switch it, limits, checkpointer, interrupts, context: what the arrows cannot show). An
agent used as a tool is a sub-agent node beside the tools node that runs it (a `CALL`
edge), described from the program's graphs. Invariants: the same IR always gives the same
`Diagram` (IR declaration order, never set or dict-hash order); every IR node, static edge,
join, branch route and goto target appears (an expanded subgraph node as its child's
cluster, entered at `node:__start__` and left at `node:__end__`); edges with one source,
target and style are merged, their labels joined.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace

import agentc.ir as ir

from .labels import (
    agent_tools,
    child_notes,
    cluster_title,
    graph_notes,
    map_text,
    node_detail,
    node_notes,
    run_notes,
    subgraph_config,
)
from .words import condition_text, legend_lines


class EdgeStyle(str, enum.Enum):
    STATIC = "static"
    CONDITIONAL = "conditional"
    SEND = "send"  # a route that may fan out by `Send` (dashed, labelled "Send")
    GOTO = "goto"  # a declared `Command(goto=…)` target (dotted, labelled "goto")
    JOIN = "join"  # a join's source meeting its join point (no arrowhead)
    CALL = "call"  # a tools node running a sub-agent (an agent used as a tool, H1)


class Terminal(str, enum.Enum):
    START = "start"
    END = "end"
    JOIN = "join"  # a join point: its sources meet here, then "all of" them go on


NodeShape = ir.NodeKind | Terminal


class ClusterKind(str, enum.Enum):
    MIDDLEWARE = "middleware"  # the hook nodes of one middleware
    SUBGRAPH = "subgraph"  # an expanded subgraph or agent node: the child's own nodes


@dataclass(frozen=True, slots=True)
class DNode:
    id: str
    label: str
    kind: NodeShape
    detail: str | None = None
    cluster: str | None = None  # the middleware or expanded subgraph this node sits in
    interrupt: tuple[str, ...] = ()  # "before" / "after" (D7)
    notes: tuple[str, ...] = ()  # lines under the detail: tools, output, defer, retry …


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
    kind: ClusterKind = ClusterKind.MIDDLEWARE
    parent: str | None = None  # the cluster this one sits in (an expanded subgraph)


@dataclass(frozen=True, slots=True)
class Diagram:
    name: str
    nodes: tuple[DNode, ...]
    edges: tuple[DEdge, ...]
    clusters: tuple[Cluster, ...]
    legend: tuple[str, ...]

    def children(self, cluster: str | None) -> tuple[Cluster, ...]:
        """The clusters directly inside `cluster` (None: at the top), in order."""
        return tuple(c for c in self.clusters if c.parent == cluster)

    def members(self, cluster: str | None) -> tuple[DNode, ...]:
        return tuple(n for n in self.nodes if n.cluster == cluster)


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
JOIN_LABEL = "all of"
SEND_LABEL = "Send"
GOTO_LABEL = "goto"
CALL_LABEL = "runs as a tool"
EXPAND_DEPTH = 8  # nested subgraphs drawn at most this deep (a guard, not a rule)


@dataclass(frozen=True, slots=True)
class _Layer:
    nodes: tuple[DNode, ...]
    edges: tuple[DEdge, ...]
    clusters: tuple[Cluster, ...]


def diagram(
    graph: ir.Graph,
    *,
    expand: Mapping[str, ir.Graph] | None = None,
    graphs: Mapping[str, ir.Graph] | None = None,
) -> Diagram:
    """The drawable form of `graph`: what every renderer below draws. An agent used as a
    tool (H1) is a sub-agent node beside the tools node that calls it, described from
    `graphs` (the program's graphs by name) when given. With `expand` (the same mapping),
    subgraph, agent and sub-agent nodes are drawn as a cluster holding the child's own
    nodes, ids prefixed `node:` as LangGraph's `get_graph(xray=True)` does; without it
    they stay one node (collapsed)."""
    known = View(graphs or expand or {}, expand is not None)
    layer = _layer(graph, "", None, known, (graph.name,))
    return Diagram(graph.name, layer.nodes, layer.edges, layer.clusters, legend_lines(graph))


@dataclass(frozen=True, slots=True)
class View:
    graphs: Mapping[str, ir.Graph]  # the program's graphs by name
    expand: bool  # draw children inside their nodes (xray)


@dataclass(frozen=True, slots=True)
class _Child:
    """A node that runs another graph: a subgraph or agent node, or a sub-agent tool."""

    id: str  # the drawn node's id
    graph: ir.Graph
    title: str
    entry: tuple[str, tuple[str, ...]]  # how the child's START is labelled, its pauses
    exit: tuple[str, tuple[str, ...]]
    returns_to: str | None = None  # a sub-agent tool: its answer goes back to this node


def _layer(
    graph: ir.Graph, prefix: str, cluster: str | None, view: View, seen: tuple[str, ...]
) -> _Layer:
    """One graph's nodes, edges and clusters, ids prefixed (a child drawn inside a parent)."""
    nodes = list(_nodes(graph, prefix, cluster, view.graphs))
    edges = list(_merge_edges(_static_edges(graph) + _join_edges(graph) + _branch_edges(graph)))
    edges = [DEdge(prefix + e.source, prefix + e.target, e.style, e.label) for e in edges]
    edges += _call_edges(graph, prefix)
    clusters = list(_clusters(graph, prefix, cluster))
    for child in _children(graph, prefix, nodes, view, seen) if view.expand else ():
        inner = _layer(child.graph, child.id + ":", child.id, view, (*seen, child.graph.name))
        nodes = _replace(nodes, child.id, _entry_exit(child, inner.nodes))
        edges = [_rewire(e, child.id) for e in edges] + list(inner.edges)
        if child.returns_to is not None:  # the sub-agent's last message answers the call
            edges.append(DEdge(f"{child.id}:{ir.END}", child.returns_to, EdgeStyle.CALL))
        clusters += [Cluster(child.id, child.title, ClusterKind.SUBGRAPH, cluster), *inner.clusters]
    return _Layer(tuple(nodes), tuple(edges), tuple(clusters))


def _children(
    graph: ir.Graph, prefix: str, nodes: list[DNode], view: View, seen: tuple[str, ...]
) -> list[_Child]:
    """The nodes to draw as their child's cluster, in drawing order."""
    drawn = {n.id: n for n in nodes}
    out = []
    for node in graph.nodes:
        child = _expandable(node, view.graphs, seen)
        if child is not None:
            outer = drawn[prefix + node.name]
            typed = subgraph_config(node)
            ins, outs = (typed.input, typed.output) if typed is not None else (None, None)
            title = "; ".join([f"{node.kind.value} {node.name}: {child.name}", *run_notes(node)])
            entry = ("in: " + map_text(ins) if ins else "in", _when("before", outer))
            exit_ = ("out: " + map_text(outs) if outs else "out", _when("after", outer))
            out.append(_Child(outer.id, child, title, entry, exit_))
        for tool in agent_tools(graph, node):
            sub = view.graphs.get(str(tool.agent))
            if sub is not None and sub.name not in seen and len(seen) <= EXPAND_DEPTH:
                title = f"sub-agent {tool.name}: agent {sub.name} (run as a tool)"
                sub_id = _call_id(prefix, node, tool)
                out.append(
                    _Child(sub_id, sub, title, ("request", ()), ("answer", ()), prefix + node.name)
                )
    return out


def _call_id(prefix: str, node: ir.NodeSpec, tool: ir.ToolSpec) -> str:
    return f"{prefix}{node.name}:{tool.name}"


def _call_edges(graph: ir.Graph, prefix: str) -> list[DEdge]:
    """A tools node runs its sub-agents (H1): one `CALL` edge to each."""
    return [
        DEdge(prefix + node.name, _call_id(prefix, node, tool), EdgeStyle.CALL, CALL_LABEL)
        for node in graph.nodes
        for tool in agent_tools(graph, node)
    ]


def _sub_agents(
    graph: ir.Graph,
    node: ir.NodeSpec,
    prefix: str,
    cluster: str | None,
    graphs: Mapping[str, ir.Graph],
) -> list[DNode]:
    """The sub-agent nodes a tools node calls: the tool's name, the agent it runs, and
    what that agent does that a reviewer must see (model, reviews, limits)."""
    out = []
    for tool in agent_tools(graph, node):
        child = graphs.get(str(tool.agent))
        notes = child_notes(child) if child is not None else ()
        detail = f"sub-agent: agent {tool.agent}"
        out.append(
            DNode(
                _call_id(prefix, node, tool),
                tool.name,
                ir.NodeKind.AGENT,
                detail,
                cluster,
                (),
                notes,
            )
        )
    return out


def _expandable(
    node: ir.NodeSpec, graphs: Mapping[str, ir.Graph], seen: tuple[str, ...]
) -> ir.Graph | None:
    """The child graph to draw inside `node`; None for a node that is not a subgraph, a
    child not in `graphs`, or one already being drawn further out (it would never end)."""
    typed = subgraph_config(node)
    child = graphs.get(typed.graph) if typed is not None else None
    if child is None or child.name in seen or len(seen) > EXPAND_DEPTH:
        return None
    return child


def _replace(nodes: list[DNode], node_id: str, inner: list[DNode]) -> list[DNode]:
    at = next(i for i, n in enumerate(nodes) if n.id == node_id)
    return nodes[:at] + inner + nodes[at + 1 :]


def _entry_exit(child: _Child, inner: tuple[DNode, ...]) -> list[DNode]:
    """The child's START and END, renamed: where the parent's edges enter and leave,
    labelled with the input and output maps when the subgraph node has them (`request` and
    `answer` for a sub-agent tool), and carrying the node's own breakpoints (before: at
    the entry; after: at the exit)."""
    relabel = {f"{child.id}:{ir.START}": child.entry, f"{child.id}:{ir.END}": child.exit}
    return [
        replace(n, label=relabel[n.id][0], interrupt=relabel[n.id][1]) if n.id in relabel else n
        for n in inner
    ]


def _when(word: str, node: DNode) -> tuple[str, ...]:
    return (word,) if word in node.interrupt else ()


def _rewire(edge: DEdge, inner_id: str) -> DEdge:
    """Into the subgraph node → into the child's START; out of it → out of the child's END."""
    source = f"{inner_id}:{ir.END}" if edge.source == inner_id else edge.source
    target = f"{inner_id}:{ir.START}" if edge.target == inner_id else edge.target
    return replace(edge, source=source, target=target)


def _nodes(
    graph: ir.Graph, prefix: str, cluster: str | None, graphs: Mapping[str, ir.Graph]
) -> tuple[DNode, ...]:
    pauses: dict[str, list[str]] = {}
    for spec in graph.interrupts:
        pauses.setdefault(spec.node, []).append(spec.when.value)
    body: list[DNode] = []
    for n in graph.nodes:
        body.append(_node(graph, n, tuple(pauses.get(n.name, ())), prefix, cluster, graphs))
        body += _sub_agents(graph, n, prefix, cluster, graphs)
    joins = tuple(
        DNode(prefix + join_id(i), JOIN_LABEL, Terminal.JOIN, cluster=cluster)
        for i, _ in enumerate(graph.joins)
    )
    start = DNode(prefix + ir.START, ir.START, Terminal.START, cluster=cluster)
    end = DNode(prefix + ir.END, ir.END, Terminal.END, cluster=cluster)
    return (start, *body, *joins, end)


def join_id(index: int) -> str:
    """The id of a graph's `index`th join point (0-based): `__join1__`, `__join2__` …"""
    return f"__join{index + 1}__"


def _node(
    graph: ir.Graph,
    node: ir.NodeSpec,
    pauses: tuple[str, ...],
    prefix: str = "",
    cluster: str | None = None,
    graphs: Mapping[str, ir.Graph] | None = None,
) -> DNode:
    label, kind = node.name, node.kind
    if node.kind is ir.NodeKind.HOOK:
        cluster = prefix + _middleware_of(node)
        label = str(node.config.get("point") or node.name.rpartition(".")[2])
    elif node.kind is ir.NodeKind.PYTHON and node.hook is not None:
        # a graph's `hook before write = python(...)`, spliced in as a Python node
        kind, label = ir.NodeKind.HOOK, f"{node.hook.when.value} {node.hook.node or ''}"
    detail = node_detail(graph, node)
    notes = node_notes(node) + graph_notes(graph, node, graphs or {})
    return DNode(prefix + node.name, label.strip(), kind, detail, cluster, pauses, notes)


def _middleware_of(node: ir.NodeSpec) -> str:
    return str(node.config.get("middleware") or node.name.rpartition(".")[0])


def _clusters(graph: ir.Graph, prefix: str, parent: str | None) -> tuple[Cluster, ...]:
    declared = {m.name: m.declared for m in graph.agent.middleware} if graph.agent else {}
    seen: list[str] = []
    for node in graph.nodes:
        if node.kind is ir.NodeKind.HOOK and _middleware_of(node) not in seen:
            seen.append(_middleware_of(node))
    models = {m.name: m.config.get("model") for m in graph.agent.middleware} if graph.agent else {}
    return tuple(
        Cluster(
            prefix + name,
            cluster_title(name, declared.get(name), models.get(name)),
            parent=parent,
        )
        for name in seen
    )


def _static_edges(graph: ir.Graph) -> list[DEdge]:
    return [DEdge(e.source, e.target, EdgeStyle.STATIC) for e in graph.edges]


def _join_edges(graph: ir.Graph) -> list[DEdge]:
    """Each source meets the join point; the point goes on to the target once all have."""
    edges: list[DEdge] = []
    for i, join in enumerate(graph.joins):
        edges += [DEdge(s, join_id(i), EdgeStyle.JOIN) for s in join.sources]
        edges.append(DEdge(join_id(i), join.target, EdgeStyle.STATIC))
    return edges


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
            if branch.sends:  # the router names nodes, and may fan out by Send to them
                edges.append(DEdge(branch.source, target, EdgeStyle.SEND, SEND_LABEL))
                continue
            label = route_label(graph, branch, route, target)
            edges.append(DEdge(branch.source, target, EdgeStyle.CONDITIONAL, label))
    for node in graph.nodes:
        for target in node.goto or ():
            edges.append(DEdge(node.name, target, EdgeStyle.GOTO, GOTO_LABEL))
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
