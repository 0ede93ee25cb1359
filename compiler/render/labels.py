"""What a drawn node says about itself: its detail line and its notes.

Input: one `ir.NodeSpec` and its `ir.Graph`. Output: `node_detail` (the model string and the
channel a model node writes, `openai:gpt-4o-mini → joke`; the tool names; the Python
function; `subgraph child`) and `node_notes` (what the arrows cannot show: the tools a model
node binds, its structured output, a subgraph's input/output maps, `defer`, retry, cache,
timeout, the schema of a Send's payload). Also the typed configs read back from
`NodeSpec.config` (`model_config`, `subgraph_config`), None when a config is not in the typed
form (an agent template's nodes, or IR from before the typed configs). What a reviewer must
see beyond the node itself: `model_switchers` / `model_line` (the middleware that may send
a call to another model, A4), `agent_tools` (the agents a tools node runs, H1),
`reviewed_tools` (D9), `child_notes` (a sub-agent's model, reviews and limits) and
`graph_notes` (those notes for one drawn node), `cluster_title` (a middleware's cluster,
with the model it calls).
Invariant: pure functions of the IR; the same node always says the same thing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

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
    if node.kind is ir.NodeKind.TOOLS:  # sub-agents are drawn as nodes of their own
        agents = {t.name for t in agent_tools(graph, node)}
        return ", ".join(n for n in tool_names(graph, node) if n not in agents) or None
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


STDLIB_MODULE = "agentc.stdlib"


def model_switchers(graph: ir.Graph) -> list[tuple[ir.MiddlewareSpec, str]]:
    """The middleware that may send a model call to another model than the agent's own
    (A4), each with the words that say so: `model_router` routes every call of a run,
    `model_fallback` takes over a failed call, and a Python `wrap_model_call` may switch
    any call (it sees the request and may override its model)."""
    found = []
    for mw in graph.agent.middleware if graph.agent else []:
        stdlib = mw.impl.module.startswith(STDLIB_MODULE)
        if stdlib and mw.declared == "model_router":
            found.append((mw, f"`{mw.name}` routes it"))
        elif stdlib and mw.declared == "model_fallback":
            found.append((mw, f"it fails and `{mw.name}` falls back"))
        elif not stdlib and ir.HookPoint.WRAP_MODEL_CALL in mw.hooks:
            found.append((mw, f"the Python hook `{mw.impl.attr}` switches it"))
    return found


def model_line(graph: ir.Graph, at: Callable[[ir.SourceSpan], str]) -> str | None:
    """The agent's model as a reader should take it: `openai:gpt-4.1-mini`, or
    `openai:gpt-4.1-mini unless the Python hook `pick` switches it (40:5)`; `at` writes
    a span (`line 40` in a legend, `40:5` in a decision map)."""
    if graph.agent is None:
        return None
    switches = [f"{why} ({at(mw.span)})" for mw, why in model_switchers(graph)]
    unless = f" unless {' or '.join(switches)}" if switches else ""
    return f"`{graph.agent.model.spec}`{unless}"


def agent_tools(graph: ir.Graph, node: ir.NodeSpec) -> list[ir.ToolSpec]:
    """The tools of a tools node that run another agent (H1): drawn as sub-agents."""
    if node.kind is not ir.NodeKind.TOOLS:
        return []
    if graph.agent is not None and node.name == "tools":
        tools = [t for m in graph.agent.middleware for t in m.tools] + list(graph.agent.tools)
    else:
        typed = tool_config(node)
        tools = list(typed.tools) if typed is not None else []
    return [t for t in tools if t.agent is not None]


def reviewed_tools(graph: ir.Graph) -> list[str]:
    """The tools a `human_review` middleware of this agent holds for a person (D9)."""
    names: list[str] = []
    for mw in graph.agent.middleware if graph.agent else []:
        setting = mw.config.get("interrupt_on") if mw.declared == "human_review" else None
        if isinstance(setting, dict):
            names += [n for n, v in setting.items() if v not in (False, None)]
    return names


def child_notes(child: ir.Graph) -> tuple[str, ...]:
    """What a collapsed sub-agent or subgraph node says of the graph it runs: its model
    (and who may switch it), the calls it holds for review, its breakpoints, its steps."""
    notes = []
    model = model_line(child, lambda span: f"line {span.line}")
    if model is not None:
        notes.append("model: " + model.replace("`", ""))
    reviewed = reviewed_tools(child)
    if reviewed:
        notes.append("pauses for review: " + ", ".join(reviewed))
    notes += [f"pause {i.when.value} {i.node}" for i in child.interrupts]
    if child.limits.steps.span is not None:
        notes.append(f"steps ≤ {int_text(child.limits.steps.value)}")
    return tuple(notes)


def graph_notes(
    graph: ir.Graph, node: ir.NodeSpec, graphs: Mapping[str, ir.Graph]
) -> tuple[str, ...]:
    """The agent's model node: who may switch its model (A4); an agent or subgraph node:
    what the graph it runs does (its model, reviews, limits)."""
    if graph.agent is not None and node.kind is ir.NodeKind.MODEL and node.name == "model":
        return tuple(
            f"unless {why} (line {mw.span.line})".replace("`", "")
            for mw, why in model_switchers(graph)
        )
    if graph.agent is not None and node.kind is ir.NodeKind.TOOLS and reviewed_tools(graph):
        return ("pauses for review: " + ", ".join(reviewed_tools(graph)),)
    hooks = node.config.get("wrap") if node.kind is ir.NodeKind.MODEL else None
    if isinstance(hooks, list) and hooks:  # a wrap_model_call hook may switch its model
        names = [
            str(h.get("$import", "?")).rpartition(":")[2] for h in hooks if isinstance(h, dict)
        ]
        return (f"unless {', '.join(names)} switches the model",)
    typed = subgraph_config(node)
    child = graphs.get(typed.graph) if typed is not None else None
    return child_notes(child) if child is not None else ()


def cluster_title(name: str, declared: str | None, model: object = None) -> str:
    """`middleware summarization`, with the declaration it instantiates when renamed and
    the model it calls when it has one of its own (a summarization model steers too)."""
    title = f"middleware {name}"
    if declared is not None and declared != name:
        title += f" ({declared})"
    if isinstance(model, str):
        title += f": model {model}"
    return title
