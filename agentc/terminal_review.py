"""Answering human-review interrupts in a terminal, or from a decisions file (D10).

Input: the interrupts a run paused with, and either a terminal (questions on stdout,
answers from `input`) or a decisions file. Output: the value to resume with —
`{"decisions": {tool_call_id: decision}}` for a batched review (matched by id, our D10
divergence), `{interrupt_id: decision}` for per-call reviews, or for any other interrupt the
typed answer (JSON when it parses). A decisions file holds one resume value, or a list of
them used in turn for successive pauses.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

KEYS = {"a": "approve", "e": "edit", "r": "reject", "s": "respond"}


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
    name: str, args: dict[str, Any], allowed: list[str], out: TextIO, read: Callable[[str], str]
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
        if kind == "approve":
            return {"type": "approve"}
        if kind == "edit":
            raw = read(f"  new arguments as JSON [{json.dumps(args)}]> ").strip()
            try:
                new_args = json.loads(raw) if raw else args
            except json.JSONDecodeError as exc:
                print(f"  not JSON ({exc}); try again", file=out)
                continue
            return {"type": "edit", "edited_action": {"name": name, "args": new_args}}
        if kind == "reject":
            reason = read("  reason (optional)> ").strip()
            return {"type": "reject", **({"message": reason} if reason else {})}
        return {"type": "respond", "message": read("  answer for the model> ")}


def answer(interrupts: list[Any], out: TextIO, read: Callable[[str], str]) -> Any:
    """Ask about every pending interrupt; the resume value for all of them."""
    per_call: dict[str, Any] = {}
    for intr in interrupts:
        value = intr.value
        if is_review(value):
            decisions = {}
            for i, (req, cfg) in enumerate(
                zip(value["action_requests"], value["review_configs"]), 1
            ):
                print(
                    f"review {i}/{len(value['action_requests'])}: "
                    f"{show_call(req['name'], req['args'])}",
                    file=out,
                )
                if req.get("description"):
                    for line in str(req["description"]).splitlines():
                        print(f"  | {line}", file=out)
                decisions[req.get("tool_call_id") or str(i)] = ask_decision(
                    req["name"], req["args"], cfg["allowed_decisions"], out, read
                )
            if len(interrupts) == 1:
                return (
                    {"decisions": decisions}
                    if all(r.get("tool_call_id") for r in value["action_requests"])
                    else {"decisions": list(decisions.values())}
                )
            per_call[intr.id] = {"decisions": decisions}
        elif is_approval(value):
            print(f"review: {show_call(value['name'], value['args'])}", file=out)
            per_call[intr.id] = ask_decision(
                value["name"], value["args"], ["approve", "edit", "reject", "respond"], out, read
            )
        else:
            text = read(f"paused: {json.dumps(value, default=str)}\nanswer> ")
            try:
                per_call[intr.id] = json.loads(text)
            except json.JSONDecodeError:
                per_call[intr.id] = text
    return per_call if len(interrupts) > 1 or per_call else None
