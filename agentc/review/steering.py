"""The texts that steer the model, read from the IR: what a reviewer must see word for word.

Input: an `ir.Graph` and, when at hand, its `ir.Program` (for the structured-output schemas
and the graphs of sub-agents). Output: `steering_texts` → `SteeringText`s, each with a
stable key (`agent.prompt`, `tool.add.description`, `schema.Answer.field.city.description`,
`middleware.summarization.summary_prompt`), words saying what it is, the text as the model
receives it and the span that wrote it. Sub-agents (an agent used as a tool, H1, or run as
a node) follow, keyed under their own name (`helper.agent.prompt`).

Invariants: pure reads of the IR — a tool's description is the docstring the compiler read
statically (B11), never an import of the user's Python; a middleware setting is a text when
its value is prose (a string with a space in it), otherwise it is a setting (`settings.py`);
order is declaration order, so two versions of one file line up key by key.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import agentc.ir as ir
from agentc.compiler.render.labels import model_config, tool_config


@dataclass(frozen=True, slots=True)
class SteeringText:
    key: str
    label: str  # what it is, in words: "system prompt of `sql`"
    text: str
    span: ir.SourceSpan | None


def is_prose(value: object) -> bool:
    """A middleware value the model reads as words (a prompt, a notice), not a setting."""
    return isinstance(value, str) and any(c.isspace() for c in value)


def reachable(graph: ir.Graph, program: ir.Program | None) -> list[tuple[str, ir.Graph]]:
    """The graph (key prefix ``) and every graph it runs as a tool or a node, each once,
    prefixed by its own name (`helper.`), in the order they are first named."""
    out: list[tuple[str, ir.Graph]] = [("", graph)]
    if program is None:
        return out
    seen = {graph.name}
    i = 0
    while i < len(out):
        for name in _children(out[i][1]):
            if name in seen:
                continue
            seen.add(name)
            try:
                out.append((f"{name}.", program.graph(name)))
            except KeyError:
                continue
        i += 1
    return out


def _children(graph: ir.Graph) -> Iterator[str]:
    for tool in all_tools(graph):
        if tool.agent:
            yield tool.agent
    for node in graph.nodes:
        child = node.config.get("graph")
        if node.kind in (ir.NodeKind.AGENT, ir.NodeKind.SUBGRAPH) and isinstance(child, str):
            yield child


def all_tools(graph: ir.Graph) -> list[ir.ToolSpec]:
    """Every local tool the graph binds: the agent's, its middleware's, its nodes'."""
    tools: list[ir.ToolSpec] = []
    if graph.agent is not None:
        tools += graph.agent.tools
        tools += [t for mw in graph.agent.middleware for t in mw.tools]
    for node in graph.nodes:
        model, act = model_config(node), tool_config(node)
        tools += model.tools if model else []
        tools += act.tools if act else []
    return list({t.name: t for t in tools}.values())


def output_schemas(graph: ir.Graph) -> list[str]:
    """The structured-output schemas the graph asks its model(s) for, in order."""
    names = list(graph.agent.output.schemas) if graph.agent and graph.agent.output else []
    for node in graph.nodes:
        model = model_config(node)
        if model is not None and model.output is not None:
            names += model.output.schemas
    return list(dict.fromkeys(names))


def template_text(template: ir.Template) -> str:
    """A prompt template as written: literal text, `{channel.path}` for each field."""
    return "".join(
        p if isinstance(p, str) else "{" + ".".join([p.name, *p.path]) + "}" for p in template.parts
    )


def steering_texts(graph: ir.Graph, program: ir.Program | None = None) -> tuple[SteeringText, ...]:
    schemas = {s.name: s for s in program.schemas} if program else {}
    out: list[SteeringText] = []
    if graph.doc:  # read by a supervisor's model when this agent is used as its tool (H1)
        label = f"description of `{graph.name}` (what a model reads when it is used as a tool)"
        out.append(SteeringText("agent.description", label, graph.doc, graph.span))
    for prefix, g in reachable(graph, program):
        out += [
            SteeringText(prefix + t.key, t.label, t.text, t.span) for t in _graph_texts(g, schemas)
        ]
    return tuple(out)


def _graph_texts(graph: ir.Graph, schemas: Mapping[str, ir.SchemaSpec]) -> Iterator[SteeringText]:
    who = f"`{graph.name}`"
    agent = graph.agent
    if agent is not None and agent.prompt is not None:
        yield SteeringText(
            "agent.prompt", f"system prompt of {who}", agent.prompt, agent.prompt_span
        )
    for node in graph.nodes:
        model = model_config(node)
        if model is None:
            continue
        for part, template in (("prompt", model.prompt), ("input", model.input)):
            if template is not None:
                words = "system prompt" if part == "prompt" else "input template"
                yield SteeringText(
                    f"node.{node.name}.{part}",
                    f"{words} of model node `{node.name}`",
                    template_text(template),
                    template.span,
                )
    for tool in all_tools(graph):
        yield from _tool_texts(tool)
    for name in output_schemas(graph):
        if name in schemas:
            yield from _schema_texts(schemas[name])
    if agent is not None and agent.output is not None:
        out = agent.output
        if isinstance(out.handle_errors, str):
            yield SteeringText(
                "output.handle_errors",
                "reply to the model when its structured answer is invalid",
                out.handle_errors,
                out.span,
            )
        if out.tool_message_content is not None:
            yield SteeringText(
                "output.tool_message_content",
                "tool message after a structured answer",
                out.tool_message_content,
                out.span,
            )
    for mw in agent.middleware if agent else []:
        for path, value in _leaves(mw.config):
            if is_prose(value):
                yield SteeringText(
                    f"middleware.{mw.name}.{path}",
                    f"`{path}` of middleware `{mw.name}`",
                    str(value),
                    config_span(mw, path),
                )


def _tool_texts(tool: ir.ToolSpec) -> Iterator[SteeringText]:
    if tool.agent:
        source = f"the description of agent `{tool.agent}`"
    elif tool.ref is not None:
        source = f"the docstring of `{tool.ref.attr}` in {tool.ref.module}"
    else:
        source = "its description"
    yield SteeringText(
        f"tool.{tool.name}.description",
        f"description of tool `{tool.name}` ({source})",
        tool.description,
        tool.span,
    )
    for param, schema in _properties(tool.parameters).items():
        doc = schema.get("description")
        if isinstance(doc, str):
            yield SteeringText(
                f"tool.{tool.name}.param.{param}.description",
                f"description of argument `{param}` of tool `{tool.name}`",
                doc,
                tool.span,
            )


def _schema_texts(schema: ir.SchemaSpec) -> Iterator[SteeringText]:
    yield from _object_texts(f"schema.{schema.name}", schema.name, schema.json_schema, schema.span)
    defs = schema.json_schema.get("$defs")
    for name, sub in defs.items() if isinstance(defs, dict) else ():
        if isinstance(sub, dict):
            yield from _object_texts(f"schema.{schema.name}.defs.{name}", name, sub, schema.span)


def _object_texts(
    key: str, name: str, schema: Mapping[str, Any], span: ir.SourceSpan
) -> Iterator[SteeringText]:
    doc = schema.get("description")
    if isinstance(doc, str):
        yield SteeringText(f"{key}.description", f"description of schema `{name}`", doc, span)
    for field, sub in _properties(schema).items():
        fdoc = sub.get("description")
        if isinstance(fdoc, str):
            yield SteeringText(
                f"{key}.field.{field}.description",
                f"description of field `{field}` of schema `{name}`",
                fdoc,
                span,
            )


def _properties(schema: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return {}
    return {k: v for k, v in props.items() if isinstance(v, dict)}


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """A config's values by dotted path; maps are walked, and lists when an item is a map
    or prose (`edits.0.placeholder`); any other list is one value (`trigger`)."""
    if isinstance(value, dict) and (value or not path):
        for k, v in value.items():
            yield from _leaves(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list) and any(isinstance(v, dict) or is_prose(v) for v in value):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{path}.{i}")
    else:
        yield path, value


def config_leaves(config: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    return _leaves(dict(config))


def config_span(mw: ir.MiddlewareSpec, path: str) -> ir.SourceSpan:
    """Where a setting was written: its own key, else the nearest enclosing one, else the
    middleware entry (a setting left at its default)."""
    parts = path.split(".")
    for n in range(len(parts), 0, -1):
        span = mw.config_spans.get(".".join(parts[:n]))
        if span is not None:
            return span
    return mw.span
