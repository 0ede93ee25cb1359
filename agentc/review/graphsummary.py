"""A hand-built graph's own nodes, in plain lines: what each node does and where runs go.

Input: an `ir.Graph` of kind GRAPH. Output: `graph_lines(graph)` → summary `Line`s: each
model node (the model it calls, what it reads and writes, its tools and output), each
tools node (the tools it runs), each Python node and hook, then the flow — where a run
starts, where each node leads (conditional routes named), which edges loop back, and
where it ends. Agent and subgraph nodes are the summary's sub-agents. Invariant: a pure
function of the IR, in the graph's declaration order.
"""

from __future__ import annotations

import agentc.ir as ir
from agentc.compiler.render import case_label, route_label, run_notes, template_text

from .facts import ticks
from .graphnodes import GraphNodes, ModelNode, conversation, node_tools, wraps
from .lines import Line


def graph_lines(graph: ir.Graph) -> list[Line]:
    nodes = GraphNodes.of(graph)
    lines = [_model_node(m) for m in nodes.models]
    lines += [_tools_node(n) for n in nodes.tools]
    lines += [_python_node(n) for n in graph.nodes if n.kind is ir.NodeKind.PYTHON]
    return lines + _flow(graph)


def _model_node(m: ModelNode) -> Line:
    c = m.config
    hooks = wraps(m.spec.config)
    unless = f" unless the `wrap_model_call` hook(s) {hooks} switch it" if hooks else ""
    said = [f"`{m.spec.name}` calls `{c.model.spec}`{unless}"]
    if c.prompt is not None:
        said.append(f'with the prompt "{template_text(c.prompt, 60)}"')
    read = conversation(m)
    said.append(
        f"reads the `{read}` conversation"
        if read
        else f'sends "{template_text(c.input, 60)}"'
        if c.input is not None
        else "reads nothing"
    )
    if c.tools:
        said.append(f"may call {ticks([t.name for t in c.tools])}")
    if c.output is not None:
        said.append(f"answers as {ticks(c.output.schemas)} (via {c.output.strategy.value})")
    said.append(f"writes `{c.into}`")
    return Line("model node", ", ".join(said), m.spec.span)


def _tools_node(node: ir.NodeSpec) -> Line:
    tools = node_tools(node)
    channel = node.config.get("messages") or "messages"
    text = (
        f"`{node.name}` runs {ticks([t.name for t in tools]) or 'no tool'}: every call of the "
        f"last AI message in `{channel}`, at once"
    )
    return Line("tools node", text, node.span)


def _python_node(node: ir.NodeSpec) -> Line:
    notes = "; ".join(run_notes(node))
    if node.hook is not None:
        at = (
            f"`{node.hook.node}`"
            if node.hook.node
            else str(node.hook.point.value if node.hook.point else "")
        )
        text = f"`{node.impl.attr}` runs {node.hook.when.value} {at} (a hook)"
    else:
        text = f"`{node.name}` runs the Python function `{node.impl.attr}`"
    return Line("python node", text + (f" ({notes})" if notes else ""), node.span)


def _names(graph: ir.Graph) -> dict[str, str]:
    """How the flow names each node: `write`; a graph hook as "the hook `log` before
    `write`"; the end."""
    names = {n.name: f"`{n.name}`" for n in graph.nodes}
    for n in graph.nodes:
        if n.hook is not None:
            at = f"`{n.hook.node}`" if n.hook.node else (n.hook.point.value if n.hook.point else "")
            names[n.name] = f"the hook `{n.impl.attr}` {n.hook.when.value} {at}"
    return {**names, ir.END: "the end"}


def _ways(graph: ir.Graph) -> dict[str, list[tuple[str, str]]]:
    """Node → where it leads, each target with how: "" (an edge), "when approved",
    "otherwise", "on tool calls", "by Send", "by goto", "once all of … have run"."""
    ways: dict[str, list[tuple[str, str]]] = {}

    def add(source: str, target: str, how: str) -> None:
        if (target, how) not in ways.setdefault(source, []):
            ways[source].append((target, how))

    for edge in graph.edges:
        add(edge.source, edge.target, "")
    for join in graph.joins:
        for source in join.sources:
            add(source, join.target, f"once all of {ticks(join.sources)} have run")
    for b in graph.branches:
        if b.kind is ir.BranchKind.WHEN:
            for case in b.cases:
                add(b.source, case.target, case_label(case))
            continue
        for route, target in b.routes.items():
            label = "by Send" if b.sends else route_label(graph, b, route, target)
            add(b.source, target, f"on {label}" if label and not b.sends else label or "")
    for node in graph.nodes:
        for target in node.goto or ():
            add(node.name, target, "by goto")
    return ways


def _flow(graph: ir.Graph) -> list[Line]:
    name = _names(graph).get
    order = {n.name: i for i, n in enumerate(graph.nodes)}
    ways = _ways(graph)
    starts = [t for t, _ in ways.pop(ir.START, [])]
    ways = dict(sorted(ways.items(), key=lambda kv: order.get(kv[0], len(order))))
    begins = " and ".join(str(name(s, s)) for s in starts)
    lines = [Line("flow", "a run starts at " + begins, graph.span)]
    for source, targets in ways.items():
        said = ", ".join(f"{name(t, t)} {how}".rstrip() for t, how in targets)
        lines.append(Line("flow", f"after {name(source, source)}: {said}"))
    out = {source: [t for t, _ in targets] for source, targets in ways.items()}
    back = [f"{name(u, u)} → {name(v, v)}" for u, v in _loop_edges(out, starts)]
    if back:
        lines.append(Line("flow", "loops back: " + ", ".join(back)))
    enders = [s for s, targets in out.items() if ir.END in targets]
    if enders:
        lines.append(
            Line("flow", "a run ends after " + " or ".join(str(name(s, s)) for s in enders))
        )
    return lines


def _loop_edges(out: dict[str, list[str]], starts: list[str]) -> list[tuple[str, str]]:
    """The back edges of a depth-first walk from START, in edge order: each closes a loop
    (`act` → `write` in a model ⇄ tools loop), reported once."""
    back: list[tuple[str, str]] = []
    done: set[str] = set()

    def walk(node: str, path: tuple[str, ...]) -> None:
        done.add(node)
        for nxt in out.get(node, []):
            if nxt in path or nxt == node:
                back.append((node, nxt))
            elif nxt not in done and nxt != ir.END:
                walk(nxt, (*path, nxt))

    for start in starts + list(out):
        if start not in done and start != ir.END:
            walk(start, (start,))
    return back
