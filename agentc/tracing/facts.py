"""What the IR says about the constructs a span stands for: where each is declared
(`file:line`), the seats a middleware decides, which graph an agent tool or subgraph node
runs, and what kind of tool a name is.

Input: an `ir.Program`. Output: `GraphFacts` per graph, built once and cached. Invariants:
pure reads of the IR; nothing is imported or run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import agentc.ir as ir


def where(span: ir.SourceSpan | None) -> str | None:
    return f"{span.file}:{span.line}" if span is not None else None


@dataclass(frozen=True, slots=True)
class ToolFacts:
    source: str | None
    kind: str  # gen_ai.tool.type: function (Python, agents) or extension (MCP)
    agent: str | None = None  # the graph an agent tool runs


@dataclass(frozen=True, slots=True)
class HookFacts:
    name: str  # `human_review.after_model`
    source: str | None
    seats: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GraphFacts:
    name: str
    is_agent: bool
    source: str | None
    model: ir.ModelSpec | None  # an agent's model (None: a graph block)
    nodes: dict[str, ir.NodeSpec] = field(default_factory=dict)
    tools: dict[str, ToolFacts] = field(default_factory=dict)
    hooks: dict[str, HookFacts] = field(default_factory=dict)
    models: dict[str, tuple[ir.ModelSpec, str | None]] = field(default_factory=dict)  # node
    children: dict[str, str] = field(default_factory=dict)  # subgraph/agent node → graph

    @property
    def operation(self) -> str:
        return "invoke_agent" if self.is_agent else "invoke_workflow"

    def model_source(self, node: str) -> str | None:
        if self.model is not None:
            return where(self.model.span)
        found = self.models.get(node)
        return found[1] if found is not None else None

    def declared_options(self, node: str, model: str, provider: str) -> dict[str, ir.JSON]:
        """The options the file gives the model a call went to (none when a middleware
        switched to another model: its options are that model's own)."""
        spec = self.model if self.model is not None else None
        if spec is None and node in self.models:
            spec = self.models[node][0]
        if spec is None or spec.provider != provider or (spec.name and spec.name != model):
            return {}
        return spec.options

    def node_source(self, node: str) -> str | None:
        spec = self.nodes.get(node)
        return where(spec.span) if spec is not None else None


def graph_facts(program: ir.Program, graph: ir.Graph) -> GraphFacts:
    tools: dict[str, ToolFacts] = {}
    models: dict[str, tuple[ir.ModelSpec, str | None]] = {}
    children: dict[str, str] = {}
    if graph.agent is not None:
        tools.update(_tools(graph.agent.tools))
        for ref in graph.agent.mcp_tools:
            if ref.tool != ir.MCP_ALL_TOOLS:
                tools.setdefault(ref.tool, ToolFacts(where(ref.span), "extension"))
        for m in graph.agent.middleware:
            tools.update(_tools(m.tools))
    for node in graph.nodes:
        if node.kind is ir.NodeKind.MODEL and "model" in node.config:
            config = ir.ModelNodeConfig.model_validate(node.config)
            models[node.name] = (config.model, where(node.span))
            tools.update(_tools(config.tools))
        elif node.kind is ir.NodeKind.TOOLS and "tools" in node.config:
            tools.update(_tools(ir.ToolNodeConfig.model_validate(node.config).tools))
        elif node.kind in (ir.NodeKind.SUBGRAPH, ir.NodeKind.AGENT) and "graph" in node.config:
            children[node.name] = ir.SubgraphNodeConfig.model_validate(node.config).graph
    return GraphFacts(
        name=graph.name,
        is_agent=graph.agent is not None,
        source=where(graph.span),
        model=graph.agent.model if graph.agent is not None else None,
        nodes={n.name: n for n in graph.nodes},
        tools=tools,
        hooks=_hooks(graph),
        models=models,
        children=children,
    )


def _tools(specs: list[ir.ToolSpec]) -> dict[str, ToolFacts]:
    return {t.name: ToolFacts(where(t.span), "function", t.agent) for t in specs}


def _hooks(graph: ir.Graph) -> dict[str, HookFacts]:
    """Each hook node of an agent (a middleware's before/after hook, run as a node)."""
    if graph.agent is None:
        return {}
    by_name = {m.name: m for m in graph.agent.middleware}
    hooks: dict[str, HookFacts] = {}
    for node in graph.nodes:
        if node.kind is not ir.NodeKind.HOOK:
            continue
        spec = by_name.get(str(node.config.get("middleware", "")))
        seats = tuple(spec.seats) if spec is not None else ()
        hooks[node.name] = HookFacts(node.name, where(node.span), seats)
    return hooks


class ProgramFacts:
    """`GraphFacts` of every graph of a program, built on first use."""

    def __init__(self, program: ir.Program) -> None:
        self.program = program
        self._facts: dict[str, GraphFacts] = {}

    def of(self, name: str) -> GraphFacts | None:
        if name not in self._facts:
            graph = next((g for g in self.program.graphs if g.name == name), None)
            if graph is None:
                return None
            self._facts[name] = graph_facts(self.program, graph)
        return self._facts[name]
