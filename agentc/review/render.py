"""The decision map as text (the terminal), Markdown (a review comment) and JSON (tools).

Input: a `DecisionMap`. Output: `render_text` and `render_markdown` → a string ending in a
newline; `to_json` → a JSON-ready dict. Text and Markdown lead with the plain summary of
what this file decides (summary.py) and a section per sub-agent, then only the seats this
file changes from create_agent's defaults, seat ids in a column; `full=True` (`agentc
explain --all`) lists every seat, with its kind (RULE / RULING), and the holder counts.
JSON always has every seat, the summary and the sub-agents' own maps. Invariants: output
is deterministic (the map's own order); a span in the map's own file is shown as
`line:col`, elsewhere as `file:line:col`, so no machine path appears in text or Markdown;
the golden files in tests/review pin every byte.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .decisions import DecisionMap, Part, SeatAnswer
from .lines import Line
from .parts import where
from .summary import summary

TOPIC_WIDTH = 12


def because(part: Part, home: str) -> str:
    """What decides a part, and where: "`limits` at 14:3"."""
    at = where(part.span, home)
    if part.source and at:
        return f"{part.source} at {at}"
    return part.source or at


# ---------------------------------------------------------------- text


def _summary_text(lines: list[Line], home: str, indent: str = "  ") -> list[str]:
    out, last = [], None
    for line in lines:
        topic = line.topic if line.topic != last else ""
        last = line.topic
        at = where(line.span, home)
        out.append(f"{indent}{topic:<{TOPIC_WIDTH}} {line.text}" + (f"   ({at})" if at else ""))
    return out


def _title(dmap: DecisionMap) -> str:
    return f"decision map of {dmap.kind.value} `{dmap.graph}` ({Path(dmap.file).name})"


def _subagent_sections(dmap: DecisionMap, home: str) -> list[str]:
    """One section per sub-agent, nested ones after their parent's, each with its summary."""
    out = []
    for sub in dmap.subagents:
        at = where(sub.use.span, home)
        out += [
            "",
            f"{sub.use.label[:1].upper()}{sub.use.label[1:]}, run by `{dmap.graph}` "
            f"({at}): what {sub.map.kind.value} `{sub.map.graph}` decides",
        ]
        out += _summary_text(summary(sub.map, nested=True), home)
        out += _subagent_sections(sub.map, home)
    return out


def _text_seat(answer: SeatAnswer, home: str, kind: bool) -> list[str]:
    seat = answer.seat
    head = f"{seat.kind.value:<7} " if kind else ""
    lines = [f"{seat.id:<4} {head}{seat.question}"]
    for part in answer.parts:
        why = because(part, home)
        tail = f"   ← {why}" if why else ""
        lines.append(f"     {part.holder.value:<9} {part.answer}{tail}")
    return lines


def render_text(dmap: DecisionMap, *, full: bool = False) -> str:
    changed = [a for a in dmap.answers if a.changed]
    rest = [a for a in dmap.answers if not a.changed]
    lines = [_title(dmap), "", "What this file decides"]
    lines += _summary_text(summary(dmap), dmap.file)
    lines += _subagent_sections(dmap, dmap.file)
    lines += [
        "",
        f"Seats this file changes from create_agent's defaults ({len(changed)} of "
        f"{len(dmap.answers)}; `--all` lists every seat)",
        "(each seat: its id and question, then who decides, what happens here, and the line "
        "that decides it)",
        "",
    ]
    for answer in changed:
        lines += _text_seat(answer, dmap.file, full)
    if full:
        lines += ["", "── at their defaults ──"]
        for answer in rest:
            lines += _text_seat(answer, dmap.file, full)
        lines += ["", "holders (kind · holder → seats)"]
        lines += [f"  {k.value} · {h.value:<10} {n:>3}" for k, h, n in dmap.counts]
        lines.append(f"  {'total':<19} {sum(n for *_, n in dmap.counts):>3}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- Markdown


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _summary_md(lines: list[Line], home: str) -> list[str]:
    out = ["| what | here | line |", "| --- | --- | --- |"]
    last = None
    for line in lines:
        topic = line.topic if line.topic != last else ""
        last = line.topic
        out.append(f"| {topic} | {_md(line.text)} | {where(line.span, home)} |")
    return out


def render_markdown(dmap: DecisionMap, *, full: bool = False) -> str:
    lines = [f"# Decision map of {dmap.kind.value} `{dmap.graph}`", ""]
    lines += [f"From `{Path(dmap.file).name}`.", "", "## What this file decides", ""]
    lines += _summary_md(summary(dmap), dmap.file)
    for sub in _all_subagents(dmap):
        lines += ["", f"## {sub.use.label[:1].upper()}{sub.use.label[1:]}", ""]
        lines += _summary_md(summary(sub.map, nested=True), dmap.file)
    shown = dmap.answers if full else tuple(a for a in dmap.answers if a.changed)
    title = "Every seat" if full else "Seats this file changes from create_agent's defaults"
    kind = " kind |" if full else ""
    lines += [
        "",
        f"## {title}",
        "",
        f"| seat |{kind} question | holder | answer here | decided by |",
    ]
    lines.append("| --- | " + ("--- | " if full else "") + "--- | --- | --- | --- |")
    for answer in shown:
        for i, part in enumerate(answer.parts):
            seat = answer.seat
            head = (
                f"{seat.id} |{f' {seat.kind.value} |' if full else ''} {_md(seat.question)}"
                if i == 0
                else " |" + (" |" if full else "")
            )
            lines.append(
                f"| {head} | {part.holder.value} | {_md(part.answer)} | "
                f"{_md(because(part, dmap.file)) or 'default'} |"
            )
    if full:
        lines += ["", "| kind · holder | seats |", "| --- | ---: |"]
        lines += [f"| {k.value} · {h.value} | {n} |" for k, h, n in dmap.counts]
    return "\n".join(lines) + "\n"


def _all_subagents(dmap: DecisionMap) -> list[Any]:
    out = []
    for sub in dmap.subagents:
        out += [sub, *_all_subagents(sub.map)]
    return out


# ---------------------------------------------------------------- JSON


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


def _line_json(line: Line, home: str) -> dict[str, Any]:
    return {
        "topic": line.topic,
        "text": line.text,
        "at": where(line.span, home) or None,
        "span": line.span.model_dump() if line.span is not None else None,
    }


def to_json(dmap: DecisionMap) -> dict[str, Any]:
    return {
        "graph": dmap.graph,
        "kind": dmap.kind.value,
        "file": dmap.file,
        "summary": [_line_json(line, dmap.file) for line in summary(dmap)],
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
        "subagents": [
            {
                "name": s.use.name,
                "via": s.use.via.value,
                "at": where(s.use.span, dmap.file) or None,
                "map": to_json(s.map),
            }
            for s in dmap.subagents
        ],
    }
