"""The agents and graphs an agent runs: sub-agents used as tools, agent and subgraph nodes.

Input: an `ir.Graph` and the program's graphs by name. Output: `uses(graph, graphs)` → one
`SubAgentUse` per sub-agent (how it is run, the name the parent knows it by, the graph it
runs, where the parent names it), in declaration order; `folded(use, part)` → a sub-agent's
answer to a seat restated in the parent's map with the sub-agent named. A sub-agent runs
its own loop with its own middleware and limits, so what it decides — its model, the calls
it holds for review, its caps — is decided inside the parent's run too; FOLDED lists the
seats whose sub-agent answers the parent's map repeats (review, models, caps).
Invariant: pure reads of the IR; a graph that is not in `graphs` is not followed.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

import agentc.ir as ir

from .facts import local_tools
from .graphnodes import node_tools
from .parts import Origin, Part


class Via(str, enum.Enum):
    TOOL = "tool"  # an agent listed in `tools [...]`: the model calls it (H1)
    NODE = "agent node"  # `node n = agent(x)`: the edges hand control to it
    SUBGRAPH = "subgraph node"  # `node n = subgraph(g)`


@dataclass(frozen=True, slots=True)
class SubAgentUse:
    name: str  # the tool or node name the parent uses
    via: Via
    graph: ir.Graph  # the agent or graph it runs
    span: ir.SourceSpan  # where the parent names it

    @property
    def label(self) -> str:
        """`sub-agent `calendar``, or `node `help` (agent `helper`)`."""
        if self.via is Via.TOOL:
            return f"sub-agent `{self.name}`"
        return f"{self.via.value} `{self.name}` ({self.graph.kind.value} `{self.graph.name}`)"


# The seats where a sub-agent's own answer is part of the parent's: who reviews a call,
# which model answers, what caps the calls (A4, A12, H4; D1, D9, D10, D24; F8, F9).
FOLDED = frozenset({"A4", "A12", "H4", "D1", "D9", "D10", "D24", "F8", "F9"})


def _tool_uses(graph: ir.Graph) -> list[ir.ToolSpec]:
    tools = list(local_tools(graph))
    for node in graph.nodes if graph.kind is ir.GraphKind.GRAPH else []:
        if node.kind is ir.NodeKind.TOOLS:
            tools += node_tools(node)
    return [t for t in tools if t.agent is not None]


def uses(graph: ir.Graph, graphs: Mapping[str, ir.Graph]) -> tuple[SubAgentUse, ...]:
    """The sub-agents `graph` runs, each once, in declaration order."""
    found: dict[tuple[Via, str], SubAgentUse] = {}
    for tool in _tool_uses(graph):
        child = graphs.get(str(tool.agent))
        if child is not None:
            found.setdefault(
                (Via.TOOL, tool.name), SubAgentUse(tool.name, Via.TOOL, child, tool.span)
            )
    for node in graph.nodes:
        if node.kind not in (ir.NodeKind.AGENT, ir.NodeKind.SUBGRAPH):
            continue
        child = graphs.get(str(node.config.get("graph") or node.impl.attr))
        via = Via.NODE if node.kind is ir.NodeKind.AGENT else Via.SUBGRAPH
        if child is not None:
            found.setdefault((via, node.name), SubAgentUse(node.name, via, child, node.span))
    return tuple(found.values())


def counts(part: Part) -> bool:
    """A sub-agent's part worth repeating: one its own file decides, not a default."""
    return part.origin not in (Origin.DEFAULT, Origin.NOT_IN_PLAY)


def folded(use: SubAgentUse, part: Part) -> Part:
    """`part` of the sub-agent's map, as a part of the parent's: the sub-agent named."""
    source = f"{use.label}: {part.source}" if part.source else use.label
    return Part(part.holder, f"in {use.label}: {part.answer}", Origin.SUBAGENT, source, part.span)
