"""Answering human-review interrupts in a terminal, or from a decisions file (D10).

Input: the interrupts a run paused with, and either a terminal (questions on stdout,
answers from `input`) or a decisions file. Output: the value to resume with —
`{"decisions": {tool_call_id: decision}}` for a batched review (matched by id, our D10
divergence), `{interrupt_id: decision}` for per-call reviews, or for any other interrupt the
typed answer (JSON when it parses). A decisions file holds one resume value, or a list of
them used in turn for successive pauses. Invariants: a decision is asked again until it is
one the tool allows; `NO_ANSWER` (nobody can answer: no file, no terminal) is distinct from
every resume value.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

if TYPE_CHECKING:
    from agentc.runtime import Interrupt

KEYS = {"a": "approve", "e": "edit", "r": "reject", "s": "respond"}
APPROVAL_DECISIONS = ["approve", "edit", "reject", "respond"]
Read = Callable[[str], str]


class _NoAnswer:
    """The type of `NO_ANSWER`: the run stays paused on its thread."""


NO_ANSWER: Final = _NoAnswer()


class DecisionsFile:
    """Resume values read from a file, handed out one per pause."""

    def __init__(self, path: str) -> None:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read decisions file {path!r}: {exc}") from None
        self.answers = list(data) if isinstance(data, list) else [data]

    def next(self) -> Any:
        if not self.answers:
            raise ValueError("the decisions file has no answer left for this pause")
        return self.answers.pop(0)


def is_review(value: Any) -> bool:
    return isinstance(value, dict) and "action_requests" in value


def is_approval(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") == "tool_approval"


def show_call(name: str, args: dict[str, Any]) -> str:
    return f"{name}({', '.join(f'{k}={json.dumps(v)}' for k, v in args.items())})"


def ask_decision(
    name: str, args: dict[str, Any], allowed: list[str], out: TextIO, read: Read
) -> dict[str, Any]:
    """One call's decision, asked until it is one the tool allows."""
    choices = "/".join(f"{d}[{k}]" for k, d in KEYS.items() if d in allowed)
    while True:
        text = read(f"  {choices}> ").strip().lower()
        kind = KEYS.get(text[:1]) if text else None
        kind = text if text in allowed else kind
        if kind not in allowed:
            print(f"  please answer one of: {', '.join(allowed)}", file=out)
            continue
        decision = _decision(kind, name, args, out, read)
        if decision is not None:
            return decision


def _decision(
    kind: str, name: str, args: dict[str, Any], out: TextIO, read: Read
) -> dict[str, Any] | None:
    """The decision of `kind`, with what it needs asked; None to ask again."""
    if kind == "approve":
        return {"type": "approve"}
    if kind == "edit":
        raw = read(f"  new arguments as JSON [{json.dumps(args)}]> ").strip()
        try:
            new_args = json.loads(raw) if raw else args
        except json.JSONDecodeError as exc:
            print(f"  not JSON ({exc}); try again", file=out)
            return None
        return {"type": "edit", "edited_action": {"name": name, "args": new_args}}
    if kind == "reject":
        reason = read("  reason (optional)> ").strip()
        return {"type": "reject", **({"message": reason} if reason else {})}
    return {"type": "respond", "message": read("  answer for the model> ")}


def _review_decisions(value: dict[str, Any], out: TextIO, read: Read) -> dict[str, Any]:
    """Each call of a batched review, shown and decided in turn (keyed by its call id)."""
    requests = value["action_requests"]
    decisions = {}
    for i, (req, cfg) in enumerate(zip(requests, value["review_configs"], strict=False), 1):
        print(f"review {i}/{len(requests)}: {show_call(req['name'], req['args'])}", file=out)
        if req.get("description"):
            for line in str(req["description"]).splitlines():
                print(f"  | {line}", file=out)
        decisions[req.get("tool_call_id") or str(i)] = ask_decision(
            req["name"], req["args"], cfg["allowed_decisions"], out, read
        )
    return decisions


def _answer_one(value: Any, out: TextIO, read: Read) -> Any:
    """The resume value of one interrupt among several (or of a non-review one)."""
    if is_review(value):
        return {"decisions": _review_decisions(value, out, read)}
    if is_approval(value):
        print(f"review: {show_call(value['name'], value['args'])}", file=out)
        return ask_decision(value["name"], value["args"], APPROVAL_DECISIONS, out, read)
    text = read(f"paused: {json.dumps(value, default=str)}\nanswer> ")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def answer(interrupts: list[Interrupt], out: TextIO, read: Read) -> Any:
    """Ask about every pending interrupt; the resume value for all of them."""
    if len(interrupts) == 1 and is_review(interrupts[0].value):
        value = interrupts[0].value
        decisions = _review_decisions(value, out, read)
        if all(r.get("tool_call_id") for r in value["action_requests"]):
            return {"decisions": decisions}
        return {"decisions": list(decisions.values())}
    per_call = {intr.id: _answer_one(intr.value, out, read) for intr in interrupts}
    return per_call or None
