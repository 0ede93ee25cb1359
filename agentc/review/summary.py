"""What one file decides, in plain lines a newcomer reads before any seat: the summary.

Input: a `DecisionMap` (its graph, its answers, its sub-agents' maps, the program's
schemas). Output: `summary(dmap)` → `Line`s, a topic and a sentence each, with the
span of the `.agent` text that makes it so: the model(s) and who may switch them, the
prompt, tools and sub-agents, reviews, limits and budgets (and where a sub-agent's calls
count), memory, structured output, and each middleware in one sentence of what it does
(`mwtext.describe`). A hand-built graph describes its own nodes (`graphsummary.py`).
Invariant: a pure function of the map; the lines come in a fixed order.
"""

from __future__ import annotations

from collections.abc import Mapping

import agentc.ir as ir
from agentc.compiler.render import model_line, model_switchers

from .decisions import DecisionMap, SubAgentMap
from .facts import local_tools, ticks
from .graphsummary import graph_lines
from .lines import Line
from .mwtext import describe, model_text
from .parts import Origin, where
from .seats import Holder

PROMPT_SHOWN = 100  # characters of a prompt shown in the summary (the file has the rest)


def summary(dmap: DecisionMap, *, nested: bool = False) -> list[Line]:
    """The summary of `dmap`; `nested`: a sub-agent's, whose run saves into its parent's
    checkpointer (H3) when it has none of its own."""
    graph = dmap.source
    if graph is None:
        return []
    schemas = {s.name: s for s in dmap.schemas}
    lines: list[Line] = []
    if graph.agent is not None:
        lines += _models(graph) + _prompt(graph) + _tools(graph)
    else:
        lines += graph_lines(graph)
    lines += _subagents(dmap) + _reviews(dmap) + _limits(dmap) + _memory(graph, nested)
    lines += _output(graph, schemas) + _middleware(graph)
    return lines


# ---------------------------------------------------------------- what the model is


def _models(graph: ir.Graph) -> list[Line]:
    agent = graph.agent
    assert agent is not None
    home = graph.span.file
    text = str(model_line(graph, lambda span: where(span, home)))
    if not model_switchers(graph) and not any("A4" in m.seats for m in agent.middleware):
        text += ", for every call"
    if agent.model.options:
        shown = ", ".join(f"{k}: {v}" for k, v in agent.model.options.items() if k != "replies")
        text += f" ({shown})" if shown else ""
    lines = [Line("model", text, agent.model.span)]
    for mw in agent.middleware:
        for key in ("model", "models"):
            value = mw.config.get(key)
            for one in value if isinstance(value, list) else [value]:
                if one is not None:
                    lines.append(
                        Line("model", f"{model_text(one)}, called by `{mw.name}`", mw.span)
                    )
    return lines


def _prompt(graph: ir.Graph) -> list[Line]:
    agent = graph.agent
    if agent is None or agent.prompt is None:
        return [Line("prompt", "none: no system prompt is put before the calls")]
    text = " ".join(agent.prompt.split())
    shown = text if len(text) <= PROMPT_SHOWN else text[: PROMPT_SHOWN - 1] + "…"
    return [
        Line(
            "prompt",
            f'"{shown}" ({len(agent.prompt)} characters), put before every call',
            agent.prompt_span,
        )
    ]


def _tools(graph: ir.Graph) -> list[Line]:
    agent = graph.agent
    assert agent is not None
    own = [t for t in local_tools(graph) if t.agent is None]
    lines = [Line("tools", ticks([t.name for t in own]), own[0].span)] if own else []
    lines += [
        Line("tools", f"every tool the MCP server `{m.server}` lists ({m.url})", m.span)
        if m.tool == ir.MCP_ALL_TOOLS
        else Line("tools", f"`{m.tool}` from the MCP server `{m.server}`", m.span)
        for m in agent.mcp_tools
    ]
    if agent.provider_tools:
        types = ", ".join(str(t.definition.get("type", "?")) for t in agent.provider_tools)
        lines.append(Line("tools", f"run by the provider: {types}", agent.provider_tools[0].span))
    if not lines and not any(t.agent for t in local_tools(graph)):
        lines.append(Line("tools", "none: the model can only answer"))
    return lines


# ---------------------------------------------------------------- who else decides


def digest(sub: SubAgentMap) -> str:
    """A sub-agent in one line: its model, what pauses in it, its step limit."""
    graph, said = sub.map.source, []
    if graph is not None and graph.agent is not None:
        said.append("model " + str(model_line(graph, lambda span: where(span, sub.map.file))))
    held = [p.answer for p in sub.map.answer("D9").parts if p.holder is Holder.HUMAN] + [
        f"pauses {i.when.value} `{i.node}`" for i in (graph.interrupts if graph else [])
    ]
    said += held or ["nothing in it pauses for a person"]
    if graph is not None:
        where_set = "set there" if graph.limits.steps.span is not None else "its default"
        said.append(f"its own step limit, {int(graph.limits.steps.value):,} ({where_set})")
    return "; ".join(said)


def _subagents(dmap: DecisionMap) -> list[Line]:
    return [
        Line(
            "sub-agents",
            f"`{s.use.name}` ({s.use.via.value}, runs {s.map.kind.value} `{s.map.graph}`): "
            f"{digest(s)}",
            s.use.span,
        )
        for s in dmap.subagents
    ]


def _reviews(dmap: DecisionMap) -> list[Line]:
    """Every point where a person (or a classifier) holds a call: D9, D24, D7, folded."""
    lines = []
    for seat in ("D9", "D24"):  # a graph's own breakpoints are the interrupts below
        for part in dmap.answer(seat).parts:
            if part.holder in (Holder.HUMAN, Holder.MODEL) and part.origin is not Origin.FACT:
                lines.append(Line("reviews", part.answer, part.span))
    graph = dmap.source
    for spec in graph.interrupts if graph is not None else []:
        lines.append(
            Line(
                "reviews",
                f"the run pauses {spec.when.value} `{spec.node}` (a breakpoint)",
                spec.span,
            )
        )
    if not lines:
        lines.append(Line("reviews", "none: every call runs as the model wrote it, unasked"))
    return lines


def _limits(dmap: DecisionMap) -> list[Line]:
    graph = dmap.source
    assert graph is not None
    steps = graph.limits.steps
    set_here = "set here" if steps.span is not None else "the default"
    lines = [Line("limits", f"at most {int(steps.value):,} steps per run ({set_here})", steps.span)]
    timeout = graph.limits.step_timeout_s
    if timeout is not None:
        lines.append(Line("limits", f"each step may take {timeout.value:g} s", timeout.span))
    counted = [m for m in graph.agent.middleware if m.declared in _COUNTERS] if graph.agent else []
    for mw in counted:
        where_ = next(iter(mw.config_spans.values()), mw.span)  # `limits` budgets: the key
        lines.append(Line("limits", f"`{mw.name}` {describe(mw, graph)}", where_))
    if counted and dmap.subagents:
        names = ticks([s.use.name for s in dmap.subagents])
        lines.append(
            Line(
                "limits",
                f"a sub-agent's model calls ({names}) are not counted here: each runs its own "
                "loop, bounded only by its own limits and budgets",
            )
        )
    return lines


_COUNTERS = ("budgets", "model_call_limit", "tool_call_limit")


def _memory(graph: ir.Graph, nested: bool) -> list[Line]:
    spec = graph.checkpoint
    if spec.kind is ir.CheckpointKind.NONE and nested:
        lines = [
            Line(
                "memory",
                "no checkpointer of its own: it saves into the one of the run that runs it",
            )
        ]
    elif spec.kind is ir.CheckpointKind.NONE:
        lines = [
            Line("memory", "no checkpointer: nothing is saved between runs, and a run cannot pause")
        ]
    else:
        kept = (
            "while this process lives"
            if spec.kind is ir.CheckpointKind.MEMORY
            else f"in `{spec.path}`"
            if spec.path
            else "across processes"
        )
        lines = [
            Line(
                "memory",
                f"a {spec.kind.value} checkpointer saves every step; a thread's conversation is "
                f"kept {kept}",
                spec.span,
            )
        ]
    store = graph.store
    if store is not None and store.kind is not ir.StoreKind.NONE:
        lines.append(
            Line(
                "memory",
                f"a {store.kind.value} store that tools and middleware may use",
                store.span,
            )
        )
    return lines


def _fields(schema: ir.SchemaSpec) -> str:
    props = schema.json_schema.get("properties")
    if not isinstance(props, dict):
        return ""
    return ", ".join(f"{name}: {_type(prop)}" for name, prop in props.items())


def _type(prop: object) -> str:
    if not isinstance(prop, dict):
        return "any"
    if "enum" in prop and isinstance(prop["enum"], list):
        return " | ".join(f'"{v}"' for v in prop["enum"])
    kind = prop.get("type")
    if kind == "array":
        return f"list[{_type(prop.get('items'))}]"
    names = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
    if isinstance(kind, str):
        return names.get(kind, kind)
    ref = prop.get("$ref") or prop.get("title")
    return str(ref).rpartition("/")[2] if ref else "any"


def _output(graph: ir.Graph, schemas: Mapping[str, ir.SchemaSpec]) -> list[Line]:
    output = graph.agent.output if graph.agent else None
    if output is None:
        return []
    how = {
        ir.OutputStrategy.TOOL: "asked for as a forced tool call",
        ir.OutputStrategy.PROVIDER: "asked for through the provider's own feature",
        ir.OutputStrategy.AUTO: "asked for as the model's profile allows",
    }[output.strategy]
    lines = []
    for name in output.schemas:
        fields = _fields(schemas[name]) if name in schemas else ""
        text = f"`{name}`" + (f" {{ {fields} }}" if fields else "") + f", {how}"
        lines.append(Line("output", text, output.span))
    return lines


def _middleware(graph: ir.Graph) -> list[Line]:
    agent = graph.agent
    if agent is None:
        return []
    return [
        Line("middleware", f"`{mw.name}`: {describe(mw, graph)}", mw.span)
        for mw in agent.middleware
        if mw.origin is ir.MiddlewareOrigin.MIDDLEWARE and mw.declared not in _COUNTERS
    ]
