"""`decide …`: a test's answers to a pause, as the value the run resumes with.

Input: the interrupts a run is paused on and the decisions written (`approve`,
`edit(a: 1)`, `reject`, `reject("why")`, `respond("text")`, `resume(value)`). Output: the
resume value `agentc run` would send for the same answers at the terminal
(agentc/runner/pauses.py): a batched human review gets `{"decisions": {call id: …}}`, one
decision per reviewed call in order (a single decision answers every call); per-call
reviews and other interrupts get `{interrupt id: answer}`. `DecisionError` says what does
not fit.
"""

from __future__ import annotations

from typing import Any

from agentc.compiler.typecheck import to_json
from agentc.dsl import ast

from .expect import reviewed_calls


class DecisionError(Exception):
    """Decisions that do not fit the pause."""


def resume_value(pending: list[Any], decisions: list[ast.Expr]) -> Any:
    values = [i.value for i in pending]
    if len(pending) == 1 and isinstance(values[0], dict) and "action_requests" in values[0]:
        return _batched(values[0], decisions)
    if len(decisions) not in (1, len(pending)):
        raise DecisionError(
            f"the run is paused on {len(pending)} interrupts, and {len(decisions)} decisions "
            "answer them: give one for all, or one each"
        )
    answers = decisions * len(pending) if len(decisions) == 1 else decisions
    out = {}
    for intr, decision in zip(pending, answers, strict=True):
        calls = reviewed_calls(intr.value)
        out[intr.id] = one(decision, calls[0]["name"] if calls else None)
    return out


def _batched(value: dict[str, Any], decisions: list[ast.Expr]) -> dict[str, Any]:
    requests = value["action_requests"]
    if len(decisions) not in (1, len(requests)):
        raise DecisionError(
            f"the review asks about {len(requests)} tool calls, and {len(decisions)} "
            "decisions answer it: give one for all, or one per call in order"
        )
    answers = decisions * len(requests) if len(decisions) == 1 else decisions
    made = [one(d, r["name"]) for d, r in zip(answers, requests, strict=True)]
    if all(r.get("tool_call_id") for r in requests):
        return {"decisions": {r["tool_call_id"]: m for r, m in zip(requests, made, strict=True)}}
    return {"decisions": made}


def one(decision: ast.Expr, tool: str | None) -> Any:
    """One decision as the review middleware reads it (`resume(v)`: v as it is)."""
    word = decision.dotted if isinstance(decision, ast.Ref) else None
    args: list[ast.Arg] = []
    if isinstance(decision, ast.Call):
        word, args = decision.callee.dotted, list(decision.args)
    positional = [to_json(a.value) for a in args if a.name is None]
    if word == "approve":
        return {"type": "approve"}
    if word == "reject":
        return {"type": "reject", **({"message": positional[0]} if positional else {})}
    if word == "respond":
        return {"type": "respond", "message": positional[0] if positional else ""}
    if word == "resume":
        return positional[0] if positional else None
    if word == "edit":
        new_args = {a.name.text: to_json(a.value) for a in args if a.name is not None}
        if positional and isinstance(positional[0], dict):
            new_args = positional[0]
        return {"type": "edit", "edited_action": {"name": tool, "args": new_args}}
    raise DecisionError(f"`{word}` is not a decision")
