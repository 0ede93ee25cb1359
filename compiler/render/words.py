"""A diagram's words: conditions written back in the language's syntax, and the legend.

Input: an `ir.Condition`, or one `ir.Graph`. Output: `condition_text` (`approved and
draft != ""`) and `legend_lines` (the model and who may switch it, limits, budgets, the
checkpointer, the run context and the interrupt points: what the arrows cannot show).
Invariant: pure functions of the IR; the same graph always gives the same lines.
"""

from __future__ import annotations

from collections.abc import Callable

import agentc.ir as ir

from .labels import int_text, model_line, seconds_text


def condition_text(cond: ir.Condition) -> str:
    """A condition written back in the language's own syntax (`approved and draft != ""`)."""
    if isinstance(cond, ir.FieldCond):
        return ".".join([cond.name, *cond.path])
    if isinstance(cond, ir.LiteralCond):
        return _literal_text(cond.value)
    if isinstance(cond, ir.CompareCond):
        return f"{_operand(cond.left)} {cond.op} {_operand(cond.right)}"
    if isinstance(cond, ir.NotCond):
        return f"not {_operand(cond.operand)}"
    if isinstance(cond, ir.BoolCond):
        return f" {cond.kind} ".join(_operand(c) for c in cond.operands)
    return f"{cond.ref.attr}(state)"


def _operand(cond: ir.Condition) -> str:
    """Comparisons bind tighter than `not`/`and`/`or`; only a nested and/or needs parentheses."""
    text = condition_text(cond)
    return f"({text})" if isinstance(cond, ir.BoolCond) else text


def _literal_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


# ---------------------------------------------------------------- legend


def legend_lines(graph: ir.Graph) -> tuple[str, ...]:
    """Limits, checkpointer and interrupt points: what the arrows cannot show (F1, F2, F10, D7)."""
    lines = [f"{graph.kind.value} {graph.name}"]
    model = model_line(graph, lambda span: f"line {span.line}")
    if model is not None:  # A4: "unless `pick` switches it", when a middleware may
        lines.append("model: " + model.replace("`", ""))
    lines.append(_bound_text("steps", graph.limits.steps, int_text))
    if graph.limits.step_timeout_s is not None:
        lines.append(_bound_text("step timeout", graph.limits.step_timeout_s, seconds_text))
    for name, bound in graph.limits.extra.items():
        lines.append(_bound_text(name, bound, int_text))
    lines.append(_checkpoint_text(graph.checkpoint))
    if graph.context is not None:
        lines.append(f"context: {graph.context}")
    for spec in graph.interrupts:
        lines.append(f"interrupt {spec.when.value} {spec.node} (line {spec.span.line})")
    return tuple(lines)


def _bound_text(name: str, bound: ir.Bound, fmt: Callable[[float | int], str]) -> str:
    where = f"line {bound.span.line}" if bound.span is not None else "default"
    return f"{name} ≤ {fmt(bound.value)} ({where})"


def _checkpoint_text(spec: ir.CheckpointSpec) -> str:
    text = f"checkpoint: {spec.kind.value}"
    if spec.path:
        text += f" {spec.path}"
    return text + (f" (line {spec.span.line})" if spec.span is not None else " (default)")
