"""How a graph block's `model(…)` node answers the seats of a model call: one rule per seat.

Input: a `ModelNode` (the node and its typed config). Output: `MODEL_RULES`, seat id → rule;
a rule returns what the node says (`Said`), `DEFAULT` (the table's default answer holds for
this call) or None (the node does not make that decision). What the node does is
stdlib/graph_model.py: the rendered prompt in front (never saved), the rendered `input`
template as one user message or else the conversation as it stands (no repair of
unanswered calls), the node's tools offered every call, structured output read as
`with_structured_output` reads it (no tool message joins the conversation, no retry).
Answers say what happens in plain words; seat ids stay in this table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

import agentc.ir as ir
from agentc.compiler.render import template_text

from .facts import ticks
from .graphnodes import DEFAULT, ModelNode, Said, conversation, wraps
from .seats import Holder

ModelRule = Callable[[ModelNode], Said | None]


def _provider(m: ModelNode) -> Said:
    spec = m.config.model
    return Said(f'the `{spec.provider}` API, from the model string "{spec.spec}"')


def _inferred(m: ModelNode) -> Said:
    spec = m.config.model
    if spec.spec.partition(":")[0] == spec.provider:
        return DEFAULT
    return Said(f'`{spec.provider}`, inferred from the bare name "{spec.name}"')


def _same_model(m: ModelNode) -> Said:
    hooks = wraps(m.spec.config)
    if hooks:  # a wrap_model_call hook sees the request and may override its model (A4)
        return Said(
            f"`{m.config.model.spec}` unless the `wrap_model_call` hook(s) {hooks} switch it",
            Holder.EXTERNAL,
        )
    return Said(f"no: always `{m.config.model.spec}`, the one model the node names")


def _prompt(m: ModelNode) -> Said:
    prompt = m.config.prompt
    if prompt is None:
        return Said("none: this node sends no system prompt")
    filled = ", ".join(f"`{f.name}`" for f in prompt.fields)
    how = f", filled from {filled}" if filled else ""
    return Said(
        f'"{template_text(prompt)}"{how}: put before every call, never stored', span=prompt.span
    )


def _history(m: ModelNode) -> Said:
    if m.config.input is None:
        return Said(
            f"the whole `{conversation(m)}` channel as it stands, every call; nothing trims it"
        )
    return Said(
        f'only the `input` template ("{template_text(m.config.input)}") as one user message; '
        "no conversation is read",
        span=m.config.input.span,
    )


def _no_repair(m: ModelNode) -> Said | None:
    if conversation(m) is None:
        return None
    return Said(
        f"nothing: the `{conversation(m)}` channel goes to the model as it stands "
        "(a graph's model node repairs no unanswered call)"
    )


def _toolbox(m: ModelNode) -> Said:
    tools = [t.name for t in m.config.tools]
    if not tools and not m.config.provider_tools:
        return Said("none: this node binds no tools")
    names = ticks(tools) + (" and provider tools" if m.config.provider_tools else "")
    return Said(f"all of them, every call: {names.removeprefix(' and ')}")


def _provider_tools(m: ModelNode) -> Said | None:
    tools = m.config.provider_tools
    if not tools:
        return None
    types = ", ".join(str(t.get("type", "?")) for t in tools)
    return Said(f"{len(tools)} provider tool(s) ({types}) run at the provider")


def _strategy(m: ModelNode) -> ir.OutputStrategy | None:
    return m.config.output.strategy if m.config.output is not None else None


def _forced(m: ModelNode) -> Said:
    strategy = _strategy(m)
    if strategy is ir.OutputStrategy.TOOL:
        return Said(f"forced: some tool call every call (tool-based output for {_schemas(m)})")
    if strategy is ir.OutputStrategy.AUTO:
        return Said(f"forced only if the model's profile picks tool-based output for {_schemas(m)}")
    return Said("free: no tool choice is forced")


def _schemas(m: ModelNode) -> str:
    return ticks(m.config.output.schemas) if m.config.output is not None else ""


_STRATEGY_WORDS = {
    ir.OutputStrategy.TOOL: "as a forced tool call (`via: tool`)",
    ir.OutputStrategy.PROVIDER: "through the provider's native feature (`via: provider`)",
    ir.OutputStrategy.AUTO: "as the model's profile allows, per call (`via: auto`)",
}


def _output(m: ModelNode, text: Callable[[ir.OutputSpec, str], str]) -> Said | None:
    output = m.config.output
    if output is None:
        return None
    return Said(text(output, _schemas(m)), span=output.span)


def _first_answer(m: ModelNode) -> Said | None:
    """Tool-based output reads the first schema tool call, as `with_structured_output`."""
    strategy = _strategy(m)
    if strategy is None or strategy is ir.OutputStrategy.PROVIDER:
        return None
    when = "with tool-based output, " if strategy is ir.OutputStrategy.AUTO else ""
    return _output(
        m, lambda o, s: when + "the first call to a schema tool is read; any others are ignored"
    )


def _answer_with_calls(m: ModelNode) -> Said | None:
    """Only the parsed answer is written, so the reply's other tool calls never run."""
    strategy = _strategy(m)
    if not m.config.tools or strategy is None or strategy is ir.OutputStrategy.PROVIDER:
        return None
    return _output(
        m,
        lambda o, s: (
            f"they never run: only the answer is written to {_into_text(m)}; "
            "the reply and its other calls are not kept"
        ),
    )


def _into_text(m: ModelNode) -> str:
    return f"`{m.config.into}`"


MODEL_RULES: Mapping[str, ModelRule] = MappingProxyType(
    {
        "A1": _provider,
        "A2": _inferred,
        "A3": lambda m: DEFAULT,
        "A4": _same_model,
        "A8": _provider_tools,
        "B1": _prompt,
        "B2": _history,
        "B4": _no_repair,
        "B5": _toolbox,
        "B6": _forced,
        "B7": lambda m: _output(m, lambda o, s: f"{s}, {_STRATEGY_WORDS[o.strategy]}"),
        "B9": lambda m: None if conversation(m) is None else DEFAULT,
        "C1": lambda m: Said(
            f"the model chooses freely among {ticks([t.name for t in m.config.tools])}"
            if m.config.tools
            else "no tools are bound, so the model can only answer"
        ),
        "C3": lambda m: Said(
            "yes: tool-based output forces some tool call"
            if _strategy(m) is ir.OutputStrategy.TOOL
            else "no"
        ),
        "C4": lambda m: DEFAULT if m.config.tools else None,
        "D2": lambda m: (
            Said(f"seen first by the `wrap_model_call` hook(s) {w}", Holder.EXTERNAL)
            if (w := wraps(m.spec.config))
            else Said("yes: nothing inspects the request's content")
        ),
        "E8": lambda m: (
            Said(f"the provider client retries up to {m.config.model.options['max_retries']} times")
            if "max_retries" in m.config.model.options
            else DEFAULT
        ),
        "E10": _no_repair,
        "F3": lambda m: None if conversation(m) is None else DEFAULT,
        "F8": lambda m: Said("no cap of its own: only the step limit bounds how often it runs"),
        "F12": lambda m: _output(
            m, lambda o, s: f"it stays in {_into_text(m)} until this node answers again"
        ),
        "G3": lambda m: _output(m, lambda o, s: f"checked against {s}; no answer fails the run"),
        "G4": lambda m: _output(m, lambda o, s: "no: a failed check fails the run (no retry)"),
        "G7": _first_answer,
        "C6": _answer_with_calls,
        "G5": lambda m: _output(m, lambda o, s: f"{_STRATEGY_WORDS[o.strategy]} for {s}"),
        "G6": lambda m: (
            _output(m, lambda o, s: f"no: an answer for {s} that fails to parse fails the run")
            if _strategy(m) is not ir.OutputStrategy.TOOL
            else None
        ),
        "H1": lambda m: (
            Said(f"the model decides when to call {ticks(agents)}, which run other agents")
            if (agents := [t.name for t in m.config.tools if t.agent is not None])
            else None
        ),
        "H4": lambda m: (
            Said(
                f"no second model: the node's retry policy calls `{m.config.model.spec}` again "
                f"({m.spec.retry.max_attempts} attempts)"
            )
            if m.spec.retry is not None
            else Said("no: a failed model call fails the run")
        ),
        "I2": lambda m: Said(
            f"the profile of `{m.config.model.spec}` from agentc's provider table"
        ),
    }
)
