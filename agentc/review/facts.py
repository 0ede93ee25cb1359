"""The IR facts a seat's answer can quote: one extractor per fact named in the seat table.

Input: an `ir.Graph`. Output: `FACTS`, fact name → extractor; an extractor returns a
`FactValue` (the values its answer template formats, the span of the construct that makes it
so, and that construct's keyword) or None when the fact does not hold in this graph.
Invariants: extractors are pure functions of the graph; every fact the table names has one
(tests/review/test_seat_table.py); values are plain strings and numbers, ready for
`str.format`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import agentc.ir as ir
from agentc.compiler.defaults import AGENT_STEPS
from agentc.compiler.render import case_label, model_line, model_switchers

from .parts import where


@dataclass(frozen=True, slots=True)
class FactValue:
    values: Mapping[str, Any]
    span: ir.SourceSpan | None
    source: str  # the construct that makes it so, as written: `limits`, `model` …


Extractor = Callable[[ir.Graph], FactValue | None]


def ticks(names: list[str]) -> str:
    """`a`, `b`: names as code, comma-separated."""
    return ", ".join(f"`{n}`" for n in names)


def local_tools(graph: ir.Graph) -> list[ir.ToolSpec]:
    """The agent's own tools: its middleware's first, then its `tools [...]`."""
    if graph.agent is None:
        return []
    return [t for m in graph.agent.middleware for t in m.tools] + list(graph.agent.tools)


def _has_tools_node(graph: ir.Graph) -> bool:
    return any(n.kind is ir.NodeKind.TOOLS for n in graph.nodes)


def _hook_count(graph: ir.Graph) -> int:
    return sum(1 for n in graph.nodes if n.kind is ir.NodeKind.HOOK)


def _fact_model(graph: ir.Graph) -> FactValue | None:
    if graph.agent is None:
        return None
    m = graph.agent.model
    return FactValue({"provider": m.provider, "spec": m.spec, "name": m.name}, m.span, "model")


def _fact_one_model(graph: ir.Graph) -> FactValue | None:
    """A4: the agent's model answers every step, unless a middleware routes the calls
    (one that declares A4, as `model_router` does) — then that middleware's part says so;
    a middleware that may switch a call (`model_fallback`, a Python `wrap_model_call`) is
    named with its line: "`gpt-4.1-mini` unless the Python hook `pick` switches it (40:5)"."""
    routed = graph.agent is not None and any("A4" in mw.seats for mw in graph.agent.middleware)
    fact = None if routed else _fact_model(graph)
    if fact is None:
        return None
    if model_switchers(graph):
        answer = str(model_line(graph, lambda span: where(span, graph.span.file)))
    else:
        answer = f"always `{fact.values['spec']}`: the one model named here answers every step"
    return FactValue({**fact.values, "answer": answer}, fact.span, fact.source)


def _fact_model_inferred(graph: ir.Graph) -> FactValue | None:
    fact = _fact_model(graph)
    if fact is None or fact.values["spec"].partition(":")[0] == fact.values["provider"]:
        return None
    return fact


def _fact_model_retries(graph: ir.Graph) -> FactValue | None:
    if graph.agent is None or "max_retries" not in graph.agent.model.options:
        return None
    m = graph.agent.model
    return FactValue({"max_retries": m.options["max_retries"]}, m.span, "model")


def _fact_prompt(graph: ir.Graph) -> FactValue | None:
    if graph.agent is None or graph.agent.prompt is None:
        return None
    return FactValue({"chars": len(graph.agent.prompt)}, graph.agent.prompt_span, "prompt")


def _fact_tools(graph: ir.Graph) -> FactValue | None:
    tools = local_tools(graph)
    if not tools:
        return None
    return FactValue(
        {
            "count": len(tools),
            "names": ticks([t.name for t in tools]),
            "hooks": _hook_count(graph),
        },
        tools[0].span,
        "tools",
    )


def _fact_no_tools(graph: ir.Graph) -> FactValue | None:
    if graph.agent is None or local_tools(graph) or _has_tools_node(graph):
        return None
    return FactValue({"hooks": _hook_count(graph)}, graph.span, graph.kind.value)


def _fact_graph_shape(graph: ir.Graph) -> FactValue | None:
    if graph.kind is not ir.GraphKind.GRAPH:
        return None
    return FactValue(
        {"nodes": len(graph.nodes), "edges": len(graph.edges), "branches": len(graph.branches)},
        graph.span,
        "graph",
    )


def _branch_text(branch: ir.BranchSpec) -> str:
    if branch.kind is ir.BranchKind.WHEN:
        cases = ", ".join(f"{case_label(c)} → {c.target}" for c in branch.cases)
        return f"from `{branch.source}`: {cases}"
    router = branch.router.attr if branch.router else "router"
    if branch.sends:  # a target list: the router names nodes, and may fan out by Send
        return f"from `{branch.source}`: {router} may Send to {', '.join(branch.routes)}"
    return f"from `{branch.source}`: {router} ({', '.join(branch.routes)})"


def _fact_graph_branches(graph: ir.Graph) -> FactValue | None:
    if graph.kind is not ir.GraphKind.GRAPH or not graph.branches:
        return None
    names = "; ".join(_branch_text(b) for b in graph.branches)
    return FactValue({"names": names}, graph.branches[0].span, "edge")


def _fact_provider_tools(graph: ir.Graph) -> FactValue | None:
    tools = graph.agent.provider_tools if graph.agent else []
    if not tools:
        return None
    types = ", ".join(str(t.definition.get("type", "?")) for t in tools)
    return FactValue({"count": len(tools), "types": types}, tools[0].span, "tools")


def _fact_tool_subset(graph: ir.Graph, keep: Callable[[ir.ToolSpec], bool]) -> FactValue | None:
    tools = [t for t in local_tools(graph) if keep(t)]
    if not tools:
        return None
    return FactValue({"names": ticks([t.name for t in tools])}, tools[0].span, "tools")


def _fact_injected(graph: ir.Graph) -> FactValue | None:
    tools = [t for t in local_tools(graph) if t.injected]
    if not tools:
        return None
    names = ", ".join(f"`{t.name}.{a.param}` ({a.kind.value})" for t in tools for a in t.injected)
    return FactValue({"names": names}, tools[0].span, "tools")


_STRATEGY_TEXT = {
    ir.OutputStrategy.TOOL: "requested as a forced tool call (`via tool`)",
    ir.OutputStrategy.PROVIDER: "requested through the provider's native feature (`via provider`)",
    ir.OutputStrategy.AUTO: "picked per call from the model's profile (`via auto`)",
}


def _retry_text(output: ir.OutputSpec) -> str:
    if output.strategy is ir.OutputStrategy.PROVIDER:
        return "no: a native answer that fails the check fails the run (G6)"
    if output.handle_errors is False:
        return "no: `handle_errors: false`, so a failed check fails the run"
    if isinstance(output.handle_errors, str):
        return (
            f'yes: the model is told "{output.handle_errors}" and asked again, with no '
            "limit but the step cap"
        )
    return "yes: the error goes back to the model, with no limit but the step cap"


def _fact_output(graph: ir.Graph, *strategies: ir.OutputStrategy) -> FactValue | None:
    output = graph.agent.output if graph.agent else None
    if output is None or (strategies and output.strategy not in strategies):
        return None
    values = {
        "schemas": ticks(output.schemas),
        "strategy": output.strategy.value,
        "strategy_text": _STRATEGY_TEXT[output.strategy],
        "retry_text": _retry_text(output),
    }
    return FactValue(values, output.span, "output")


def number_text(value: object) -> str:
    """`20,000`, `0.5`; a setting the checker let through that is not a number (inside a
    free-form list of maps, say) is shown as written rather than failing the review."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return f"{int(value):,}" if float(value).is_integer() else str(value)


_num = number_text


def _fact_steps(graph: ir.Graph) -> FactValue | None:
    bound = graph.limits.steps
    return FactValue({"value": _num(bound.value)}, bound.span, "limits") if bound.span else None


def _fact_steps_default(graph: ir.Graph) -> FactValue | None:
    bound = graph.limits.steps
    if bound.span is not None or bound.value == AGENT_STEPS:
        return None
    return FactValue({"value": _num(bound.value)}, graph.span, graph.kind.value)


def _fact_step_timeout(graph: ir.Graph) -> FactValue | None:
    bound = graph.limits.step_timeout_s
    if bound is None:
        return None
    return FactValue({"value": _num(bound.value)}, bound.span, "limits")


def _fact_nodes(graph: ir.Graph, attr: str, describe: Callable[[Any], str]) -> FactValue | None:
    nodes = [n for n in graph.nodes if getattr(n, attr) is not None]
    if not nodes:
        return None
    names = ", ".join(f"`{n.name}` ({describe(getattr(n, attr))})" for n in nodes)
    return FactValue({"names": names}, nodes[0].span, "node")


def _fact_checkpoint(graph: ir.Graph) -> FactValue | None:
    spec = graph.checkpoint
    if spec.kind is ir.CheckpointKind.NONE:
        return None
    return FactValue({"kind": spec.kind.value}, spec.span, "checkpoint")


def _fact_store(graph: ir.Graph) -> FactValue | None:
    spec = graph.store  # I1: the long-term store the file gives its tools and middleware
    if spec is None or spec.kind is ir.StoreKind.NONE:
        return None
    return FactValue({"kind": spec.kind.value}, spec.span, "store")


def _fact_interrupts(graph: ir.Graph) -> FactValue | None:
    if not graph.interrupts:
        return None
    names = ", ".join(f"{i.when.value} `{i.node}` (line {i.span.line})" for i in graph.interrupts)
    return FactValue({"names": names}, graph.interrupts[0].span, "interrupt")


def _fact_interrupts_unsaved(graph: ir.Graph) -> FactValue | None:
    if graph.checkpoint.kind is not ir.CheckpointKind.NONE:
        return None
    return _fact_interrupts(graph)


def _middleware_of(graph: ir.Graph, declared: str) -> list[ir.MiddlewareSpec]:
    return [m for m in graph.agent.middleware if m.declared == declared] if graph.agent else []


_PII_DONE = {
    "redact": "replaced by a `[REDACTED_…]` marker",
    "mask": "masked but for its last characters",
    "hash": "replaced by a hash",
    "block": "not sent: the run stops with an error",
}


def _fact_pii(graph: ir.Graph, say: Callable[[ir.MiddlewareSpec], str]) -> FactValue | None:
    """D13, D15: each `pii` entry's kind of data and what it does with a match."""
    found = _middleware_of(graph, "pii")
    if not found:
        return None
    return FactValue({"names": "; ".join(say(m) for m in found)}, found[0].span, "middleware")


def _pii_detect(mw: ir.MiddlewareSpec) -> str:
    kind, detector = mw.config.get("pii_type"), mw.config.get("detector")
    if detector is None:
        return f"{kind}: agentc's built-in pattern"
    text = detector if isinstance(detector, str) else "a function of the file"
    return f"{kind}: `{text}`" if isinstance(detector, str) else f"{kind}: {text}"


def _pii_strategy(mw: ir.MiddlewareSpec) -> str:
    strategy = str(mw.config.get("strategy"))
    return f"{mw.config.get('pii_type')}: {_PII_DONE.get(strategy, strategy)}"


def _fact_shell_limits(graph: ir.Graph) -> FactValue | None:
    """D19: how long a command may run and how much of its output is read."""
    found = _middleware_of(graph, "shell_tool")
    if not found:
        return None
    c = found[0].config
    names = (
        f"each command may run {_num(c.get('timeout', 30))} s and print "
        f"{_num(c.get('max_output_chars', 20000))} characters; past either it is stopped"
    )
    return FactValue({"names": names}, found[0].span, "middleware")


# The IR facts the seat table's `facts` entries may name: one extractor each.
FACTS: Mapping[str, Extractor] = MappingProxyType(
    {
        "model": _fact_model,
        "one_model": _fact_one_model,
        "model_inferred": _fact_model_inferred,
        "model_retries": _fact_model_retries,
        "prompt": _fact_prompt,
        "tools": _fact_tools,
        "no_tools": _fact_no_tools,
        "graph_shape": _fact_graph_shape,
        "graph_branches": _fact_graph_branches,
        "provider_tools": _fact_provider_tools,
        "return_direct": lambda g: _fact_tool_subset(g, lambda t: t.return_direct),
        "agent_tools": lambda g: _fact_tool_subset(g, lambda t: t.agent is not None),
        "injected": _fact_injected,
        "output": _fact_output,
        "output_tool": lambda g: _fact_output(g, ir.OutputStrategy.TOOL),
        "output_provider": lambda g: _fact_output(g, ir.OutputStrategy.PROVIDER),
        "steps": _fact_steps,
        "steps_default": _fact_steps_default,
        "step_timeout": _fact_step_timeout,
        "node_timeout": lambda g: _fact_nodes(g, "timeout_s", lambda s: f"{_num(s)} s"),
        "node_retry": lambda g: _fact_nodes(g, "retry", lambda r: f"{r.max_attempts} attempts"),
        "checkpoint": _fact_checkpoint,
        "store": _fact_store,
        "interrupts": _fact_interrupts,
        "interrupts_unsaved": _fact_interrupts_unsaved,
        "pii_detect": lambda g: _fact_pii(g, _pii_detect),
        "pii_strategy": lambda g: _fact_pii(g, _pii_strategy),
        "shell_limits": _fact_shell_limits,
    }
)
