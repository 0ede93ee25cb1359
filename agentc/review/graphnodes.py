"""A hand-built graph's own model and tools nodes, read once for the decision map.

Input: an `ir.Graph` of kind GRAPH. Output: `GraphNodes` (its model nodes with their typed
`ir.ModelNodeConfig`, its tools nodes) and `Said`, one node's answer to one seat before
`nodeseats` groups the nodes that answer alike. Invariant: pure reads of the IR.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import agentc.ir as ir
from agentc.compiler.render import model_config

from .facts import ticks
from .parts import Origin
from .seats import Holder

TOOLS_CONDITION = "agentc.stdlib.routing:tools_condition"


@dataclass(frozen=True, slots=True)
class Said:
    """One node's answer to a seat, before nodes that say the same are grouped."""

    answer: str
    holder: Holder | None = None  # None: the seat's own holder
    origin: Origin = Origin.FACT  # FACT: this node's own settings decide; DEFAULT: as any
    span: ir.SourceSpan | None = None  # None: the node's own span


@dataclass(frozen=True, slots=True)
class ModelNode:
    spec: ir.NodeSpec
    config: ir.ModelNodeConfig


@dataclass(frozen=True, slots=True)
class GraphNodes:
    """The graph's model and tool nodes, read once per decision map."""

    graph: ir.Graph
    models: tuple[ModelNode, ...]
    tools: tuple[ir.NodeSpec, ...]

    @classmethod
    def of(cls, graph: ir.Graph) -> GraphNodes:
        models = tuple(ModelNode(n, c) for n in graph.nodes if (c := model_config(n)) is not None)
        tools = tuple(n for n in graph.nodes if n.kind is ir.NodeKind.TOOLS)
        return cls(graph, models, tools)


DEFAULT = Said("", origin=Origin.DEFAULT)  # the table's default answer, at the node


def node_tools(node: ir.NodeSpec) -> list[ir.ToolSpec]:
    """A tools node's tools (its config's `tools`, ToolSpec dumps)."""
    raw = node.config.get("tools")
    return [ir.ToolSpec.model_validate(t) for t in raw] if isinstance(raw, list) else []


def conversation(m: ModelNode) -> str | None:
    """The channel the node reads, or None when its `input` template stands in for it."""
    return None if m.config.input is not None else (m.config.messages or "messages")


def wraps(config: Mapping[str, object]) -> str | None:
    listed = config.get("wrap")
    if not isinstance(listed, list) or not listed:
        return None
    refs = [str(w.get("$import", "?")).rpartition(":")[2] for w in listed if isinstance(w, dict)]
    return ticks(refs)
