"""The difference between two decision maps: which seats moved holder, which were reworded.

Input: two `DecisionMap`s (an old and a new version of one agent). Output: `diff` → the
`SeatChange`s in seat-table order; `render_diff` (text) and `diff_json` (a JSON-ready dict)
show them. Invariants: a seat counts as changed when its (holder, answer) parts differ; it
`moved` when its sequence of holders differs (a review split counts); seats missing from
either map are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .decisions import DecisionMap, SeatAnswer
from .render import because, part_json
from .seats import seat_table


@dataclass(frozen=True, slots=True)
class SeatChange:
    old: SeatAnswer
    new: SeatAnswer

    @property
    def moved(self) -> bool:
        """The holders differ (as a sequence: a review split counts)."""
        return [p.holder for p in self.old.parts] != [p.holder for p in self.new.parts]


def diff(old: DecisionMap, new: DecisionMap) -> tuple[SeatChange, ...]:
    """Seats whose holders or answers differ, in seat-table order."""
    table_order = [row.id for row in seat_table().seats]
    olds = {a.seat.id: a for a in old.answers}
    news = {a.seat.id: a for a in new.answers}
    changes = []
    for seat_id in table_order:
        a, b = olds.get(seat_id), news.get(seat_id)
        if a is None or b is None:
            continue
        if [(p.holder, p.answer) for p in a.parts] != [(p.holder, p.answer) for p in b.parts]:
            changes.append(SeatChange(a, b))
    return tuple(changes)


def _holders(answer: SeatAnswer) -> str:
    return " + ".join(dict.fromkeys(p.holder.value for p in answer.parts))


def _diff_parts(label: str, answer: SeatAnswer, home: str) -> list[str]:
    lines = []
    for part in answer.parts:
        why = because(part, home)
        tail = f"   ← {why}" if why else ""
        lines.append(f"       {label} {part.holder.value:<9} {part.answer}{tail}")
    return lines


def render_diff(old: DecisionMap, new: DecisionMap, changes: tuple[SeatChange, ...]) -> str:
    moved = [c for c in changes if c.moved]
    reworded = [c for c in changes if not c.moved]
    lines = [
        f"decision map diff of `{new.graph}`: {Path(old.file).name} → {Path(new.file).name}",
        "",
    ]
    if not changes:
        return "\n".join(lines + ["no seat changed"]) + "\n"
    lines.append(f"holder moved ({len(moved)}):" if moved else "holder moved: none")
    for change in moved:
        seat = change.new.seat
        lines.append(
            f"  {seat.id:<4} {_holders(change.old)} → {_holders(change.new)}   {seat.question}"
        )
        lines += _diff_parts("was", change.old, old.file) + _diff_parts("now", change.new, new.file)
    lines += ["", f"same holder, answer changed ({len(reworded)}):"]
    for change in reworded:
        seat = change.new.seat
        lines.append(f"  {seat.id:<4} {_holders(change.new)}   {seat.question}")
        lines += _diff_parts("was", change.old, old.file) + _diff_parts("now", change.new, new.file)
    return "\n".join(lines) + "\n"


def diff_json(
    old: DecisionMap, new: DecisionMap, changes: tuple[SeatChange, ...]
) -> dict[str, Any]:
    return {
        "graph": new.graph,
        "old": old.file,
        "new": new.file,
        "changes": [
            {
                "id": c.new.seat.id,
                "moved": c.moved,
                "old": [part_json(p, old.file) for p in c.old.parts],
                "new": [part_json(p, new.file) for p in c.new.parts],
            }
            for c in changes
        ],
    }
