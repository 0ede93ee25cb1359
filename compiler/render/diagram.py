"""The drawable form of a compiled graph: what every renderer draws.

Input: one `ir.Graph` (with `__start__`/`__end__` implied by its edges). Output: a
`Diagram` — nodes (kind, a detail line, the middleware cluster of a hook, interrupts),
edges (static or conditional, labelled with their condition or route), clusters and
legend lines (limits, checkpointer, interrupts: what the arrows cannot show). Invariants:
the same IR always gives the same `Diagram` (IR declaration order, never set or dict-hash
order); every IR node, static edge and branch route appears; edges with one source,
target and style are merged, their labels joined.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

import agentc.ir as ir


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


def _bound_text(name: str, bound: ir.Bound, fmt: Callable[[float | int], str]) -> str:
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
