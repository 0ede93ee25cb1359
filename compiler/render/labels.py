"""What a drawn node says about itself: its detail line and its notes.

Input: one `ir.NodeSpec` and its `ir.Graph`. Output: `node_detail` (the model string and the
channel a model node writes, `openai:gpt-4o-mini → joke`; the tool names; the Python
function; `subgraph child`) and `node_notes` (what the arrows cannot show: the tools a model
node binds, its structured output, a subgraph's input/output maps, `defer`, retry, cache,
timeout, the schema of a Send's payload). Also the typed configs read back from
`NodeSpec.config` (`model_config`, `subgraph_config`), None when a config is not in the typed
form (an agent template's nodes, or IR from before the typed configs).
Invariant: pure functions of the IR; the same node always says the same thing.
"""

from __future__ import annotations

from pydantic import ValidationError

import agentc.ir as ir


def model_config(node: ir.NodeSpec) -> ir.ModelNodeConfig | None:
    """A graph's `model(…)` node config, or None (the agent template's model node)."""
    if node.kind is not ir.NodeKind.MODEL or "into" not in node.config:
        return None
    try:
        return ir.ModelNodeConfig.model_validate(node.config)
    except ValidationError:
        return None


def tool_config(node: ir.NodeSpec) -> ir.ToolNodeConfig | None:
    if node.kind is not ir.NodeKind.TOOLS or "span" not in node.config:
        return None
    try:
        return ir.ToolNodeConfig.model_validate(node.config)
    except ValidationError:
        return None


def subgraph_config(node: ir.NodeSpec) -> ir.SubgraphNodeConfig | None:
    if node.kind not in (ir.NodeKind.SUBGRAPH, ir.NodeKind.AGENT):
        return None
    try:
        return ir.SubgraphNodeConfig.model_validate(node.config)
    except ValidationError:
        return None


def tool_names(graph: ir.Graph, node: ir.NodeSpec) -> list[str]:
    if graph.agent is not None and node.name == "tools":
        middleware_tools = [t.name for m in graph.agent.middleware for t in m.tools]
        return middleware_tools + [t.name for t in graph.agent.tools]
    listed = node.config.get("tools")  # a graph's tools node: ToolSpec dumps
    if not isinstance(listed, list):
        return []
    return [str(t.get("name")) if isinstance(t, dict) else str(t) for t in listed]


def node_detail(graph: ir.Graph, node: ir.NodeSpec) -> str | None:
    """A short second line: the model string (and where a graph's model node writes), the
    tool names, the Python function, the graph a subgraph node runs."""
    agent = graph.agent
    if node.kind is ir.NodeKind.MODEL:
        if agent is not None and node.name == "model":
            return agent.model.spec
        typed = model_config(node)
        if typed is not None:
            return f"{typed.model.spec} → {typed.into}"
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


def node_notes(node: ir.NodeSpec) -> tuple[str, ...]:
    """The lines under the detail: how the node calls, maps and runs."""
    return _model_notes(node) + map_notes(node) + run_notes(node)


def _model_notes(node: ir.NodeSpec) -> tuple[str, ...]:
    typed = model_config(node)
    if typed is None:
        return ()
    notes = [] if typed.input is None else [f"input: {template_text(typed.input)}"]
    if typed.tools:
        notes.append("tools: " + ", ".join(t.name for t in typed.tools))
    if typed.output is not None:
        schemas = " | ".join(typed.output.schemas)
        notes.append(f"output: {schemas} via {typed.output.strategy.value}")
    return tuple(notes)


def map_notes(node: ir.NodeSpec) -> tuple[str, ...]:
    """A subgraph node's maps: `in: text ← joke` (child ← parent), `out: feedback ← verdict`
    (parent ← child)."""
    typed = subgraph_config(node)
    if typed is None:
        return ()
    notes = []
    if typed.input is not None:
        notes.append("in: " + map_text(typed.input))
    if typed.output is not None:
        notes.append("out: " + map_text(typed.output))
    return tuple(notes)


def map_text(mapping: dict[str, str]) -> str:
    """`{text: joke}` → `text ← joke`: the written-to channel first, as the file writes it."""
    return ", ".join(f"{to} ← {source}" for to, source in mapping.items())


def run_notes(node: ir.NodeSpec) -> tuple[str, ...]:
    """How the runtime treats the node: Send payload schema, defer, retry, cache, timeout."""
    notes = []
    if node.input_schema is not None:
        notes.append(f"Send payload: {node.input_schema}")
    if node.defer:
        notes.append("deferred: runs when nothing else is pending")
    if node.retry is not None:
        notes.append(f"retry: {node.retry.max_attempts} attempts")
    if node.cache is not None:
        ttl = node.cache.ttl_s
        notes.append("cached" + (f" for {seconds_text(ttl)}" if ttl is not None else ""))
    if node.timeout_s is not None:
        notes.append(f"timeout: {seconds_text(node.timeout_s)}")
    return tuple(notes)


def template_text(template: ir.Template, limit: int = 40) -> str:
    """The template as written (`Write a joke about {topic}`), cut to `limit` characters."""
    text = "".join(
        p if isinstance(p, str) else "{" + ".".join([p.name, *p.path]) + "}" for p in template.parts
    )
    return text if len(text) <= limit else text[: limit - 1] + "…"


def int_text(value: float | int) -> str:
    return f"{int(value):,}" if float(value).is_integer() else str(value)


def seconds_text(value: float | int) -> str:
    return f"{int_text(value)} s"
