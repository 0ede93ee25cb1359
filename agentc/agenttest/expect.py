"""`expect …` statements checked against what a turn did.

Input: one `ast.TestExpect` and the `Turn` of the session (agentc/agenttest/session.py).
Output: None when it holds, else a `Failure` (where, what was expected, what was got).
`answer`, `state` and `output` read the state as it is now; `tools`, `tool`, `route`,
`usage` read the current turn (since the last `input`, its resumes included);
`interrupt` reads what the run is paused on. The vocabulary is compiler/testblocks.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentc.compiler.testblocks import USAGE_KEYS
from agentc.dsl import ast
from agentc.dsl.source import Span

from .session import Turn
from .values import mismatch, plain, shown, written


@dataclass(frozen=True, slots=True)
class Failure:
    span: Span  # the expectation (or the statement whose run failed)
    message: str  # the headline: which expectation
    expected: str | None = None
    got: str | None = None
    reason: str | None = None  # why they differ, when that says more than both sides


def check(stmt: ast.TestExpect, turn: Turn) -> Failure | None:
    subject = stmt.subject.text
    return _CHECKS[subject](stmt, turn)


def _compare(stmt: ast.TestExpect, got: Any, what: str) -> Failure | None:
    why = mismatch(stmt.value, got)
    if why is None:
        return None
    told = shown(got)
    reason = None if why.startswith(f"{told} is not ") else why  # both sides already say it
    return Failure(stmt.value.span, f"expected {what}", written(stmt.value), told, reason)


def _answer(stmt: ast.TestExpect, turn: Turn) -> Failure | None:
    messages = [m for m in turn.values.get("messages") or () if _is_ai(m)]
    if not messages:
        return Failure(stmt.span, "expected an answer, but the run gave none", written(stmt.value))
    return _compare(stmt, plain(messages[-1]), "answer")


def _is_ai(message: Any) -> bool:
    return getattr(message, "type", None) == "ai"


def _tools(stmt: ast.TestExpect, turn: Turn) -> Failure | None:
    return _compare(stmt, [c["name"] for c in turn.tool_calls], "tool calls")


def _tool(stmt: ast.TestExpect, turn: Turn) -> Failure | None:
    value = stmt.value
    if _found_call(value, turn.tool_calls):
        return None
    made = ", ".join(_call_text(c) for c in turn.tool_calls) or "none"
    return Failure(value.span, "expected a tool call", written(value), made)


def _found_call(value: ast.Expr, calls: list[dict[str, Any]]) -> bool:
    """Some call is the one `value` names (`add`, or `add(a: 2)`: those arguments, at least)."""
    if isinstance(value, ast.Call):
        name = value.callee.dotted
        wanted = ast.MapLit(
            entries=tuple(
                ast.MapEntry(key=a.name, value=a.value, span=a.span)
                for a in value.args
                if a.name is not None
            ),
            span=value.span,
        )
        return any(c["name"] == name and mismatch(wanted, c["args"]) is None for c in calls)
    if isinstance(value, ast.Ref):
        return any(c["name"] == value.dotted for c in calls)
    return any(mismatch(value, c["name"]) is None for c in calls)


def _call_text(call: dict[str, Any]) -> str:
    args = ", ".join(f"{k}: {shown(v)}" for k, v in call["args"].items())
    return f"{call['name']}({args})"


def _route(stmt: ast.TestExpect, turn: Turn) -> Failure | None:
    return _compare(stmt, turn.route, "route")


def _state(stmt: ast.TestExpect, turn: Turn) -> Failure | None:
    return _compare(stmt, turn.values, "state")


def _output(stmt: ast.TestExpect, turn: Turn) -> Failure | None:
    if "structured_response" not in turn.values:
        return Failure(stmt.span, "expected a structured response, but the run gave none")
    return _compare(stmt, turn.values["structured_response"], "structured response")


def _usage(stmt: ast.TestExpect, turn: Turn) -> Failure | None:
    figures = {k: turn.usage.get(k, 0) for k in USAGE_KEYS}
    return _compare(stmt, figures, "usage")


def _interrupt(stmt: ast.TestExpect, turn: Turn) -> Failure | None:
    value = stmt.value
    if isinstance(value, ast.NoneLit):
        if not turn.interrupts:
            return None
        return Failure(value.span, "expected no pause", "none", shown(turn.interrupts))
    calls = [c for i in turn.interrupts for c in reviewed_calls(i)]
    if calls and isinstance(value, (ast.Ref, ast.Call)) and _found_call(value, calls):
        return None
    if any(mismatch(value, i) is None for i in turn.interrupts):
        return None
    got = ", ".join(_call_text(c) for c in calls) if calls else shown(turn.interrupts)
    return Failure(value.span, "expected a pause", written(value), got or "no pause")


def reviewed_calls(value: Any) -> list[dict[str, Any]]:
    """The tool calls a human-review interrupt asks about ({name, args} each)."""
    if isinstance(value, dict) and "action_requests" in value:
        return [{"name": r["name"], "args": r.get("args", {})} for r in value["action_requests"]]
    if isinstance(value, dict) and value.get("type") == "tool_approval":
        return [{"name": value["name"], "args": value.get("args", {})}]
    return []


_CHECKS: dict[str, Callable[[ast.TestExpect, Turn], Failure | None]] = {
    "answer": _answer,
    "tools": _tools,
    "tool": _tool,
    "route": _route,
    "state": _state,
    "output": _output,
    "usage": _usage,
    "interrupt": _interrupt,
}
