"""The decision map as text (the terminal), Markdown (a review comment) and JSON (tools).

Input: a `DecisionMap`. Output: `render_text` and `render_markdown` → a string ending in a
newline; `to_json` → a JSON-ready dict. Invariants: output is deterministic (the map's own
order); a span in the map's own file is shown as `line:col`, elsewhere as `file:line:col`,
so no machine path appears in text or Markdown; the golden files in tests/review pin every
byte.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import agentc.ir as ir

from .decisions import DecisionMap, Part, SeatAnswer


def where(span: ir.SourceSpan | None, home: str) -> str:
    """`12:5` in the map's own file, `prelude.agent:40:1` elsewhere, `` without a span."""
    if span is None:
        return ""
    if span.file == home:
        return f"{span.line}:{span.col}"
    return f"{Path(span.file).name}:{span.line}:{span.col}"


def because(part: Part, home: str) -> str:
    """What decides a part, and where: "`limits` at 14:3"."""
    at = where(part.span, home)
    if part.source and at:
        return f"{part.source} at {at}"
    return part.source or at


def _text_seat(answer: SeatAnswer, home: str) -> list[str]:
    seat = answer.seat
    lines = [f"{seat.id:<4} {seat.kind.value:<7} {seat.question}"]
    for part in answer.parts:
        why = because(part, home)
        tail = f"   ← {why}" if why else ""
        lines.append(f"     {part.holder.value:<9} {part.answer}{tail}")
    return lines


def render_text(dmap: DecisionMap) -> str:
    changed = [a for a in dmap.answers if a.changed]
    rest = [a for a in dmap.answers if not a.changed]
    lines = [
        f"decision map of {dmap.kind.value} `{dmap.graph}` ({Path(dmap.file).name})",
        f"{len(dmap.answers)} seats: {len(changed)} decided by this file (first), "
        f"{len(rest)} at their defaults",
        "",
    ]
    for answer in changed:
        lines += _text_seat(answer, dmap.file)
    lines += ["", "── at their defaults ──"]
    for answer in rest:
        lines += _text_seat(answer, dmap.file)
    lines += ["", "holders (kind · holder → seats)"]
    lines += [f"  {k.value} · {h.value:<10} {n:>3}" for k, h, n in dmap.counts]
    lines.append(f"  {'total':<19} {sum(n for *_, n in dmap.counts):>3}")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(dmap: DecisionMap) -> str:
    lines = [
        f"# Decision map of {dmap.kind.value} `{dmap.graph}`",
        "",
        f"From `{Path(dmap.file).name}`. Seats this file decides come first.",
        "",
        "| seat | kind | question | holder | answer here | decided by |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for answer in dmap.answers:
        for i, part in enumerate(answer.parts):
            head = (
                f"{answer.seat.id} | {answer.seat.kind.value} | {_md(answer.seat.question)}"
                if i == 0
                else " | | "
            )
            lines.append(
                f"| {head} | {part.holder.value} | {_md(part.answer)} | "
                f"{_md(because(part, dmap.file)) or 'default'} |"
            )
    lines += ["", "| kind · holder | seats |", "| --- | ---: |"]
    lines += [f"| {k.value} · {h.value} | {n} |" for k, h, n in dmap.counts]
    return "\n".join(lines) + "\n"


def part_json(part: Part, home: str) -> dict[str, Any]:
    span = part.span
    return {
        "holder": part.holder.value,
        "answer": part.answer,
        "origin": part.origin.value,
        "source": part.source,
        "at": where(span, home) or None,
        "span": span.model_dump() if span is not None else None,
    }


def to_json(dmap: DecisionMap) -> dict[str, Any]:
    return {
        "graph": dmap.graph,
        "kind": dmap.kind.value,
        "file": dmap.file,
        "seats": [
            {
                "id": a.seat.id,
                "stage": a.seat.stage,
                "kind": a.seat.kind.value,
                "question": a.seat.question,
                "published": a.seat.published,
                "holder": a.holder.value,
                "changed": a.changed,
                "parts": [part_json(p, dmap.file) for p in a.parts],
            }
            for a in dmap.answers
        ],
        "counts": [{"kind": k.value, "holder": h.value, "count": n} for k, h, n in dmap.counts],
    }
