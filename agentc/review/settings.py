"""Every setting of a graph, keyed as the steering texts are: what a diff compares value by value.

Input: an `ir.Graph` and, when at hand, its `ir.Program`. Output: `settings` → `Setting`s
(a stable key such as `model`, `model.options.temperature`, `limits.steps`,
`middleware.summarization.trigger`, `interrupt.before.tools`, `edge.a->END`, the value as
compact JSON, and the span that wrote it), sub-agents' under their own name as in
`steering.py`; `fingerprint` → the graph and everything it runs with every source position
left out, so that two versions whose fingerprints agree behave alike (a comment or a blank
line changes no fingerprint). Invariants: pure reads of the IR; prose settings belong to
`steering.py` and are left out here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import agentc.ir as ir
from agentc.compiler.render.labels import model_config

from .steering import (
    all_tools,
    config_leaves,
    config_span,
    is_prose,
    output_schemas,
    reachable,
)


@dataclass(frozen=True, slots=True)
class Setting:
    key: str
    value: str  # compact JSON
    span: ir.SourceSpan | None


_POSITIONS = ("span", "config_spans", "prompt_span")


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), sort_keys=False)


def without_positions(value: Any) -> Any:
    """A dump with every source position removed (what a comment or a blank line moves)."""
    if isinstance(value, dict):
        return {k: without_positions(v) for k, v in value.items() if k not in _POSITIONS}
    if isinstance(value, list):
        return [without_positions(v) for v in value]
    return value


def settings(graph: ir.Graph, program: ir.Program | None = None) -> tuple[Setting, ...]:
    schemas = {s.name: s for s in program.schemas} if program else {}
    out: list[Setting] = []
    for prefix, g in reachable(graph, program):
        out += [Setting(prefix + s.key, s.value, s.span) for s in _graph_settings(g, schemas)]
    return tuple(out)


def fingerprint(graph: ir.Graph, program: ir.Program | None = None) -> dict[str, str]:
    """The graph, the graphs it runs and the schemas they name, positions left out, as
    path → compact JSON of each value (`graphs.0.nodes.2.config.point`)."""
    dumps = [g.model_dump(mode="json") for _, g in reachable(graph, program)]
    dumps[0]["name"] = ""  # a renamed agent is the same agent (the diff matches it by name)
    names = set(_strings(dumps))
    used = [
        s.model_dump(mode="json") for s in (program.schemas if program else []) if s.name in names
    ]
    return dict(_flat(without_positions({"graphs": dumps, "schemas": used})))


def _flat(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict) and value:
        for k, v in value.items():
            yield from _flat(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list) and value:
        for i, v in enumerate(value):
            yield from _flat(v, f"{path}.{i}")
    else:
        yield path, compact(value)


def fingerprint_diff(old: Mapping[str, str], new: Mapping[str, str]) -> tuple[str, ...]:
    """The paths whose values differ between two fingerprints, in NEW's order."""
    keys = list(new) + [k for k in old if k not in new]
    return tuple(k for k in keys if old.get(k) != new.get(k))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _s(key: str, value: Any, span: ir.SourceSpan | None) -> Setting:
    return Setting(key, compact(without_positions(value)), span)


def _graph_settings(graph: ir.Graph, schemas: Mapping[str, ir.SchemaSpec]) -> Iterator[Setting]:
    agent = graph.agent
    if agent is not None:
        yield from _model_settings("model", agent.model)
    yield from _tool_settings(graph, agent)
    for name in output_schemas(graph):
        if name in schemas:
            yield from _schema_settings(schemas[name])
    if agent is not None and agent.output is not None:
        out = agent.output
        yield _s("output", {"schemas": out.schemas, "via": out.strategy.value}, out.span)
        if not isinstance(out.handle_errors, str):
            yield _s("output.handle_errors", out.handle_errors, out.span)
        if out.strict is not None:
            yield _s("output.strict", out.strict, out.span)
    if agent is not None:
        yield from _middleware_settings(agent)
    yield from _limit_settings(graph.limits)
    for i in graph.interrupts:
        yield _s(f"interrupt.{i.when.value}.{i.node}", True, i.span)
    cp = graph.checkpoint
    yield _s("checkpoint", without_positions(cp.model_dump(mode="json")), cp.span)
    if graph.store is not None:
        yield _s("store", graph.store.model_dump(mode="json"), graph.store.span)
    if graph.context is not None:
        yield _s("context", graph.context, graph.span)
    yield from _state_settings(graph)
    if graph.kind is ir.GraphKind.GRAPH:  # an agent's nodes and edges follow from the above
        yield from _structure_settings(graph)


def _model_settings(key: str, model: ir.ModelSpec) -> Iterator[Setting]:
    shown = model.factory.key if model.factory is not None else model.spec
    yield _s(key, shown, model.span)
    for option, value in model.options.items():
        yield _s(f"{key}.options.{option}", value, model.span)


def _tool_settings(graph: ir.Graph, agent: ir.AgentSpec | None) -> Iterator[Setting]:
    tools = all_tools(graph)
    if agent is not None:
        listed = [t.name for t in agent.tools] + [f"{m.server}.{m.tool}" for m in agent.mcp_tools]
        yield _s("tools", listed, agent.tools[0].span if agent.tools else None)
        for i, p in enumerate(agent.provider_tools):
            yield _s(f"provider_tool.{i}", p.definition, p.span)
        for m in agent.mcp_tools:
            shown = {"url": m.url, "timeout": m.timeout_s, "connect_timeout": m.connect_timeout_s}
            yield _s(f"mcp.{m.server}.{m.tool}", shown, m.span)
    for tool in tools:
        runs = f"agent {tool.agent}" if tool.agent else (tool.ref.key if tool.ref else None)
        yield _s(f"tool.{tool.name}", runs, tool.span)
        props = tool.parameters.get("properties")
        required = tool.parameters.get("required") or []
        for param, schema in props.items() if isinstance(props, dict) else ():
            typed = {k: v for k, v in schema.items() if k != "description"}
            typed["required"] = param in required
            yield _s(f"tool.{tool.name}.param.{param}", typed, tool.span)
        if tool.return_direct:
            yield _s(f"tool.{tool.name}.return_direct", True, tool.span)
        if tool.response_format != "content":
            yield _s(f"tool.{tool.name}.response_format", tool.response_format, tool.span)
        if tool.injected:
            yield _s(
                f"tool.{tool.name}.injected",
                [i.model_dump(mode="json") for i in tool.injected],
                tool.span,
            )


def _schema_settings(schema: ir.SchemaSpec) -> Iterator[Setting]:
    yield from _object_settings(f"schema.{schema.name}", schema.json_schema, schema.span)
    defs = schema.json_schema.get("$defs")
    for name, sub in defs.items() if isinstance(defs, dict) else ():
        if isinstance(sub, dict):
            yield from _object_settings(f"schema.{schema.name}.defs.{name}", sub, schema.span)


def _object_settings(key: str, schema: Mapping[str, Any], span: ir.SourceSpan) -> Iterator[Setting]:
    props = schema.get("properties")
    required = schema.get("required") or []
    for field, sub in props.items() if isinstance(props, dict) else ():
        if isinstance(sub, dict):
            typed = {k: v for k, v in sub.items() if k != "description"}
            typed["required"] = field in required
            yield _s(f"{key}.field.{field}", typed, span)


def _middleware_settings(agent: ir.AgentSpec) -> Iterator[Setting]:
    if agent.middleware:
        first = agent.middleware[0].span
        yield _s("middleware", [mw.name for mw in agent.middleware], first)
    for mw in agent.middleware:
        yield _s(f"middleware.{mw.name}", mw.impl.key, mw.span)
        yield _s(f"middleware.{mw.name}.runs_at", [h.value for h in mw.hooks], mw.span)
        for path, value in config_leaves(mw.config):
            if not is_prose(value):
                yield _s(f"middleware.{mw.name}.{path}", value, config_span(mw, path))


def _limit_settings(limits: ir.Limits) -> Iterator[Setting]:
    yield _s("limits.steps", limits.steps.value, limits.steps.span)
    if limits.step_timeout_s is not None:
        yield _s("limits.step_timeout", limits.step_timeout_s.value, limits.step_timeout_s.span)
    for name, bound in limits.extra.items():
        yield _s(f"limits.{name}", bound.value, bound.span)


def _state_settings(graph: ir.Graph) -> Iterator[Setting]:
    kept = {c.name for mw in (graph.agent.middleware if graph.agent else []) for c in mw.state}
    for ch in graph.state:
        if ch.name in kept:
            continue  # a middleware's own bookkeeping: it comes and goes with the middleware
        shown: dict[str, Any] = {"type": ch.type.display}
        if ch.reducer is not None:
            shown["reduce"] = ch.reducer.key
        if ch.has_default:
            shown["default"] = ch.default
        yield _s(f"state.{ch.name}", shown, ch.span)


def _structure_settings(graph: ir.Graph) -> Iterator[Setting]:
    for node in graph.nodes:
        yield from _node_settings(node)
    for edge in graph.edges:
        yield _s(f"edge.{_end(edge.source)}->{_end(edge.target)}", True, edge.span)
    for join in graph.joins:
        yield _s(f"join.{join.target}", join.sources, join.span)
    for branch in graph.branches:
        shown = without_positions(branch.model_dump(mode="json", exclude={"source", "span"}))
        yield _s(f"route.{branch.source}", shown, branch.span)


def _end(node: str) -> str:
    return {ir.START: "START", ir.END: "END"}.get(node, node)


def _node_settings(node: ir.NodeSpec) -> Iterator[Setting]:
    key = f"node.{node.name}"
    model = model_config(node)
    if model is not None:
        yield _s(key, {"into": model.into, "answer": model.answer.value}, node.span)
        yield from _model_settings(f"{key}.model", model.model)
        rest = model.model_dump(
            mode="json", exclude={"model", "prompt", "input", "into", "answer", "tools", "span"}
        )
        yield _s(f"{key}.call", rest, node.span)
        yield _s(f"{key}.tools", [t.name for t in model.tools], node.span)
    else:
        config = {k: v for k, v in node.config.items() if k not in ("tools", "span")}
        yield _s(key, {"kind": node.kind.value, "runs": node.impl.key, "config": config}, node.span)
        if isinstance(node.config.get("tools"), list):
            names = [t.get("name") for t in node.config["tools"] if isinstance(t, dict)]
            yield _s(f"{key}.tools", names, node.span)
    extras: dict[str, Any] = {
        "retry": node.retry.model_dump(mode="json") if node.retry else None,
        "timeout": node.timeout_s,
        "cache": node.cache.model_dump(mode="json") if node.cache else None,
        "defer": node.defer or None,
        "goto": node.goto,
        "hook": node.hook.model_dump(mode="json") if node.hook else None,
        "input_schema": node.input_schema,
    }
    for name, value in extras.items():
        if value is not None:
            yield _s(f"{key}.{name}", value, node.span)
