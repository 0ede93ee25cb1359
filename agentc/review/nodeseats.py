"""The seats a hand-built graph's own nodes put in play, and how each node answers them.

Input: `GraphNodes` (graphnodes.py) and one `SeatRow`. Output: `node_parts(nodes, row)` →
the `Part`s of that seat in this graph — one per group of nodes that answer it alike (the
nodes named in `source`, the first one's span), then the graph-wide answers; none when no
node of the graph makes that decision (the seat is then not in play, or at its default for
a runtime seat).

The rules are tables, seat id → rule: `MODEL_RULES` (modelseats.py: a graph's `model(…)`
node is one model call), `TOOL_RULES` below (a `tools(…)` node is LangGraph's ToolNode,
stdlib/nodes.py: every call of the last AI message at once, answers in listed order, bad
arguments and unknown tools answered as error tool messages, injected arguments, tools'
Commands checked), and `GRAPH_RULES` (the graph as a whole: who ends a run — the model
where `tools_condition` leads to END —, joins, Sends and goto, agent nodes, the store).
Answers say what happens in plain words; seat ids stay in the tables.
Invariant: a pure function of the IR.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType

import agentc.ir as ir
from agentc.compiler.structure import graph_edges

from .facts import ticks
from .graphnodes import DEFAULT, TOOLS_CONDITION, GraphNodes, Said, node_tools, wraps
from .modelseats import MODEL_RULES
from .parts import Origin, Part
from .seats import Holder, SeatRow

ToolRule = Callable[[GraphNodes, ir.NodeSpec], Said | None]


# ---------------------------------------------------------------- tools node rules


def _paused_before(nodes: GraphNodes, node: ir.NodeSpec) -> bool:
    return any(
        i.node == node.name and i.when is ir.InterruptWhen.BEFORE for i in nodes.graph.interrupts
    )


def _run_unasked(nodes: GraphNodes, node: ir.NodeSpec) -> Said:
    if _paused_before(nodes, node):
        return Said(
            f"not before a person resumes: the run pauses before `{node.name}`, with every "
            "call of the batch",
            Holder.HUMAN,
        )
    return Said(f"yes, without asking anyone: every call runs when `{node.name}` runs")


def _review(nodes: GraphNodes, node: ir.NodeSpec) -> Said:
    if _paused_before(nodes, node):
        return Said(f"the whole batch is held: the run pauses before `{node.name}`", Holder.HUMAN)
    return Said("no: every call runs unreviewed (a graph has no per-call review)")


def _after_tools(nodes: GraphNodes, node: ir.NodeSpec) -> Said:
    targets = [e.target for e in graph_edges(nodes.graph) if e.source == node.name]
    if not targets:
        return Said(f"the run stops: no edge leaves `{node.name}`")
    return Said(
        f"the edges written here decide: `{node.name}` → {', '.join(dict.fromkeys(targets))}"
    )


def _injected(nodes: GraphNodes, node: ir.NodeSpec) -> Said:
    tools = [t for t in node_tools(node) if t.injected]
    if not tools:
        return DEFAULT
    names = ", ".join(f"`{t.name}.{a.param}` ({a.kind.value})" for t in tools for a in t.injected)
    return Said(f"filled in by the graph, never by the model: {names}", span=tools[0].span)


def _tool_errors(nodes: GraphNodes, node: ir.NodeSpec) -> Said:
    hooks = wraps(node.config)
    if hooks:
        return Said(f"seen first by the `wrap_tool_call` hook(s) {hooks}", Holder.EXTERNAL)
    return DEFAULT


def _parallel(nodes: GraphNodes, node: ir.NodeSpec) -> Said:
    channel = node.config.get("messages") or "messages"
    return Said(
        f"every call of the last AI message in `{channel}` runs at once in this node's one "
        "task; answers are recorded in the order the model listed them"
    )


def _signature(nodes: GraphNodes, node: ir.NodeSpec) -> Said:
    names = [t.name for t in node_tools(node) if t.agent is None]
    return Said(f"from each function's name, docstring and signature: {ticks(names)}")


_AS_DEFAULT: ToolRule = lambda nodes, node: DEFAULT  # noqa: E731

TOOL_RULES: Mapping[str, ToolRule] = MappingProxyType(
    {
        "A7": _AS_DEFAULT,
        "B8": _AS_DEFAULT,
        "B11": _signature,
        "C5": _after_tools,
        "C7": _AS_DEFAULT,
        "D1": _run_unasked,
        "D3": _AS_DEFAULT,
        "D9": _review,
        "E1": _AS_DEFAULT,
        "E2": _AS_DEFAULT,
        "E3": _tool_errors,
        "E4": _injected,
        "E5": _parallel,
        "E9": _AS_DEFAULT,
        "E11": _AS_DEFAULT,
        "E13": _AS_DEFAULT,
        "F9": lambda nodes, node: Said(
            "no cap of its own: only the step limit bounds how often it runs"
        ),
    }
)


# ---------------------------------------------------------------- graph-wide rules


def _who_ends(nodes: GraphNodes) -> Iterator[Part]:
    """The model, where `tools_condition` sends a reply without tool calls to END; else
    the edges: a run ends when control reaches END."""
    graph = nodes.graph
    for b in graph.branches:
        if b.router is not None and b.router.key == TOOLS_CONDITION and ir.END in b.routes.values():
            yield Part(
                Holder.LLM,
                f"the model at `{b.source}`, by replying without tool calls (`tools_condition` "
                "goes to END)",
                Origin.FACT,
                "`route`",
                b.span,
            )
    yield Part(
        Holder.CODE,
        "the edges written here: a run ends when control reaches END",
        Origin.FACT,
        "`graph`",
        graph.span,
    )


def _store(nodes: GraphNodes) -> Iterator[Part]:
    spec = nodes.graph.store
    if spec is None or spec.kind is ir.StoreKind.NONE:
        yield Part(
            Holder.CODE,
            "nothing: with no store, nothing outlives the run's state",
            Origin.DEFAULT,
        )
        return
    yield Part(
        Holder.EXTERNAL,
        f"a {spec.kind.value} store: the graph's Python nodes and tools decide what is kept",
        Origin.FACT,
        "`store`",
        spec.span,
    )


def _agent_nodes(nodes: GraphNodes) -> Iterator[Part]:
    for n in nodes.graph.nodes:
        if n.kind is ir.NodeKind.AGENT:
            target = n.config.get("graph") or n.impl.attr
            yield Part(
                Holder.CODE,
                f"the edges written here hand control to `{n.name}`, which runs agent `{target}`",
                Origin.FACT,
                f"node `{n.name}`",
                n.span,
            )


def _flow(nodes: GraphNodes) -> Iterator[Part]:
    """What the edge counts leave out: joins, Send fan-out, declared goto, deferred nodes."""
    graph = nodes.graph
    said = [f"`{j.target}` waits for all of {ticks(j.sources)}" for j in graph.joins]
    said += [f"`{b.source}` may Send to {ticks(list(b.routes))}" for b in graph.branches if b.sends]
    said += [f"`{n.name}` may go to {_targets(n.goto)}" for n in graph.nodes if n.goto]
    said += [f"`{n.name}` waits until nothing else is pending" for n in graph.nodes if n.defer]
    if said:
        yield Part(Holder.CODE, "; ".join(said), Origin.FACT, "`graph`", graph.span)


def _intake(nodes: GraphNodes) -> Iterator[Part]:
    """`input [topic]`: only the listed channels are taken from the caller."""
    state = nodes.graph.state
    if all(c.input for c in state):
        return
    taken = [c.name for c in state if c.input]
    text = f"the caller may set only {ticks(taken)}" if taken else "the caller may set nothing"
    yield Part(
        Holder.CODE,
        text + " (`input [...]`); other keys are dropped silently",
        Origin.FACT,
        "`graph`",
        nodes.graph.span,
    )


def _targets(names: list[str]) -> str:
    return ", ".join("END" if n == ir.END else f"`{n}`" for n in names)


GRAPH_RULES: Mapping[str, Callable[[GraphNodes], Iterable[Part]]] = MappingProxyType(
    {"A5": _intake, "A11": _flow, "G1": _who_ends, "H1": _agent_nodes, "I1": _store}
)


# ---------------------------------------------------------------- grouping


def node_parts(nodes: GraphNodes, row: SeatRow) -> list[Part]:
    """The seat's parts in this graph: model nodes, tools nodes, then graph-wide rules."""
    said: list[tuple[ir.NodeSpec, Said]] = []
    model_rule, tool_rule = MODEL_RULES.get(row.id), TOOL_RULES.get(row.id)
    if model_rule is not None:
        said += [(m.spec, s) for m in nodes.models if (s := model_rule(m)) is not None]
    if tool_rule is not None:
        said += [(t, s) for t in nodes.tools if (s := tool_rule(nodes, t)) is not None]
    parts = _grouped(row, said)
    rule = GRAPH_RULES.get(row.id)
    return parts + (list(rule(nodes)) if rule is not None else [])


def _grouped(row: SeatRow, said: list[tuple[ir.NodeSpec, Said]]) -> list[Part]:
    """Nodes that answer alike share one part: `nodes `a`, `b``, at the first one."""
    groups: dict[tuple[Holder, str, Origin], list[tuple[ir.NodeSpec, Said]]] = {}
    for node, s in said:
        answer = s.answer or row.default
        groups.setdefault((s.holder or row.holder, answer, s.origin), []).append((node, s))
    parts = []
    for (holder, answer, origin), members in groups.items():
        names = ticks(list(dict.fromkeys(n.name for n, _ in members)))
        source = ("node " if len(members) == 1 else "nodes ") + names
        first, s = members[0]
        parts.append(Part(holder, answer, origin, source, s.span or first.span))
    return parts
