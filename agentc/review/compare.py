"""The difference between two versions of one agent: seats, texts that steer the model, settings.

Input: two `DecisionMap`s (`diff` → the `SeatChange`s in seat-table order, shown by
`render_diff` and `diff_json`), or two compiled graphs with their programs (`review_diff` →
a `ReviewDiff`: the seat changes, `TextChange`s with a word diff of every text that steers
the model, `SettingChange`s, and whether the two behave differently; shown by
`render_review` and `review_json`, the `agentc explain --diff` output).

Invariants: a seat counts as changed when its (holder, answer) parts differ; it `moved`
when its sequence of holders differs (a review split counts); seats missing from either
map are skipped. Two versions whose graphs agree once source positions are left out
(`settings.fingerprint`) have no change at all — a comment, a blank line or a new layout
changes nothing; any other difference changes behaviour, named in a section when one
covers it, else reported as `other`.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import agentc.ir as ir

from .decisions import DecisionMap, SeatAnswer, decision_map
from .render import because, part_json, where
from .seats import seat_table
from .settings import Setting, fingerprint, fingerprint_diff, settings
from .steering import SteeringText, steering_texts
from .textdiff import OpKind, WordOp, inline, ops_json, word_diff


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
    lines = [
        f"decision map diff of `{new.graph}`: {Path(old.file).name} → {Path(new.file).name}",
        "",
    ]
    return "\n".join(lines + seat_lines(old, new, changes)) + "\n"


def seat_lines(old: DecisionMap, new: DecisionMap, changes: tuple[SeatChange, ...]) -> list[str]:
    """The seats that moved holder, then those whose answer changed (or `no seat changed`)."""
    if not changes:
        return ["no seat changed"]
    moved = [c for c in changes if c.moved]
    reworded = [c for c in changes if not c.moved]
    lines = [f"holder moved ({len(moved)}):" if moved else "holder moved: none"]
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
    return lines


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


# ---------------------------------------------------------------- texts, settings, the whole


class ChangeKind(str, enum.Enum):
    CHANGED = "changed"
    ADDED = "added"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class TextChange:
    key: str
    kind: ChangeKind
    old: SteeringText | None
    new: SteeringText | None
    ops: tuple[WordOp, ...]  # the word diff, old → new (all insert when added, …)

    @property
    def label(self) -> str:
        shown = self.new or self.old
        assert shown is not None
        return shown.label


@dataclass(frozen=True, slots=True)
class SettingChange:
    key: str
    kind: ChangeKind
    old: Setting | None
    new: Setting | None


def _kind(a: object | None, b: object | None) -> ChangeKind:
    return (
        ChangeKind.ADDED if a is None else ChangeKind.REMOVED if b is None else ChangeKind.CHANGED
    )


def _keys(olds: Mapping[str, object], news: Mapping[str, object]) -> list[str]:
    """NEW's order, with keys only OLD has after the NEW key they followed."""
    order = list(news)
    for i, key in enumerate(olds):
        if key not in news:
            before = list(olds)[:i]
            at = max((order.index(k) + 1 for k in before if k in order), default=0)
            order.insert(at, key)
    return order


def diff_texts(old: Sequence[SteeringText], new: Sequence[SteeringText]) -> tuple[TextChange, ...]:
    """Texts whose words differ, or that one version has and the other lacks, by key."""
    olds, news = {t.key: t for t in old}, {t.key: t for t in new}
    out = []
    for key in _keys(olds, news):
        a, b = olds.get(key), news.get(key)
        if a is not None and b is not None and a.text == b.text:
            continue
        ops = word_diff(a.text if a else "", b.text if b else "")
        out.append(TextChange(key, _kind(a, b), a, b, ops))
    return tuple(out)


def diff_settings(old: Sequence[Setting], new: Sequence[Setting]) -> tuple[SettingChange, ...]:
    olds, news = {s.key: s for s in old}, {s.key: s for s in new}
    out = []
    for key in _keys(olds, news):
        a, b = olds.get(key), news.get(key)
        if a is None or b is None or a.value != b.value:
            out.append(SettingChange(key, _kind(a, b), a, b))
    return tuple(out)


_LINE_REF = re.compile(r"\(line \d+\)")


def _same_but_positions(change: SeatChange) -> bool:
    """D7 names its breakpoints' lines: a blank line above them is no change of behaviour."""

    def shown(a: SeatAnswer) -> list[tuple[object, str]]:
        return [(p.holder, _LINE_REF.sub("(line …)", p.answer)) for p in a.parts]

    return shown(change.old) == shown(change.new)


@dataclass(frozen=True, slots=True)
class ReviewDiff:
    """Everything that differs between two versions of one agent, and whether it acts
    differently: `other` holds the compiled paths that differ when no section names a
    difference (a detail such as a hook's position) — still a change of behaviour."""

    old: DecisionMap
    new: DecisionMap
    seats: tuple[SeatChange, ...]
    texts: tuple[TextChange, ...]
    settings: tuple[SettingChange, ...]
    other: tuple[str, ...]

    @property
    def behaviour_changed(self) -> bool:
        return bool(self.seats or self.texts or self.settings or self.other)


def review_diff(
    old_graph: ir.Graph,
    new_graph: ir.Graph,
    old_program: ir.Program | None = None,
    new_program: ir.Program | None = None,
) -> ReviewDiff:
    old = decision_map(old_graph, program=old_program)
    new = decision_map(new_graph, program=new_program)
    compiled = fingerprint_diff(
        fingerprint(old_graph, old_program), fingerprint(new_graph, new_program)
    )
    if not compiled:  # only positions differ: comments, blank lines, layout
        return ReviewDiff(old, new, (), (), (), ())
    seats = tuple(c for c in diff(old, new) if not _same_but_positions(c))
    texts = diff_texts(
        steering_texts(old_graph, old_program), steering_texts(new_graph, new_program)
    )
    found = diff_settings(settings(old_graph, old_program), settings(new_graph, new_program))
    return ReviewDiff(old, new, seats, texts, found, () if seats or texts or found else compiled)


# ---------------------------------------------------------------- rendering the whole


def _at(span: ir.SourceSpan | None, home: str) -> str:
    return where(span, home) or "?"


def _moved_to(old: ir.SourceSpan | None, new: ir.SourceSpan | None, rd: ReviewDiff) -> str:
    if old is None:
        return f"new at {_at(new, rd.new.file)}"
    if new is None:
        return f"was at {_at(old, rd.old.file)}"
    return f"at {_at(old, rd.old.file)} → {_at(new, rd.new.file)}"


def _indented(text: str, pad: str = "      ") -> list[str]:
    return [(pad + line).rstrip() for line in text.split("\n")]


def first_changed_line(ops: tuple[WordOp, ...]) -> int:
    """The line of the text (1-based, the same in OLD and NEW: only equal runs come before
    it) where the first change falls, so a long prompt's change is found at a glance."""
    line = 1
    for op in ops:
        if op.kind is not OpKind.EQUAL:
            break
        line += op.text.count("\n")
    return line


def text_lines(rd: ReviewDiff) -> list[str]:
    if not rd.texts:
        return ["texts that steer the model: no change"]
    lines = [f"texts that steer the model ({len(rd.texts)}):"]
    for c in rd.texts:
        where_ = _moved_to(c.old.span if c.old else None, c.new.span if c.new else None, rd)
        head = {
            ChangeKind.CHANGED: "",
            ChangeKind.ADDED: "added: ",
            ChangeKind.REMOVED: "removed: ",
        }
        if c.kind is ChangeKind.CHANGED and first_changed_line(c.ops) > 1:
            where_ += f" (first change on line {first_changed_line(c.ops)} of the text)"
        lines.append(f"  {c.key}   {head[c.kind]}{c.label}   {where_}")
        lines += _indented(inline(c.ops))
    return lines


def setting_lines(rd: ReviewDiff) -> list[str]:
    if not rd.settings:
        return ["settings: no change"]
    lines = [f"settings ({len(rd.settings)}):"]
    for c in rd.settings:
        where_ = _moved_to(c.old.span if c.old else None, c.new.span if c.new else None, rd)
        was = c.old.value if c.old else "(not set)"
        now = c.new.value if c.new else "(not set)"
        lines.append(f"  {c.key}   {was} → {now}   {where_}")
    return lines


def render_review(rd: ReviewDiff) -> str:
    """The seats, then the texts that steer the model, then the settings, then the verdict."""
    old, new = rd.old, rd.new
    head = [f"diff of `{new.graph}`: {Path(old.file).name} → {Path(new.file).name}", ""]
    if not rd.behaviour_changed:
        said = [
            "no change: both versions compile to the same agent "
            "(only comments, blank lines or layout differ, if anything)",
            "no seat changed, no text that steers the model changed, no setting changed",
        ]
        return "\n".join(head + said) + "\n"
    lines = head + seat_lines(old, new, rd.seats) + [""] + text_lines(rd) + [""] + setting_lines(rd)
    if rd.other:
        shown = ", ".join(rd.other[:8]) + (", …" if len(rd.other) > 8 else "")
        lines += ["", f"other: the compiled agent differs where no section above looks: {shown}"]
    counts = [
        f"{len(rd.seats)} seat(s)",
        f"{len(rd.texts)} text(s)",
        f"{len(rd.settings)} setting(s)",
    ]
    if rd.other:
        counts.append(f"{len(rd.other)} other compiled difference(s)")
    lines += ["", "behaviour changed: " + ", ".join(counts)]
    return "\n".join(lines) + "\n"


def _span_json(span: ir.SourceSpan | None, home: str) -> str | None:
    return where(span, home) or None


def review_json(rd: ReviewDiff) -> dict[str, Any]:
    """diff_json's seats, plus `texts` (with word-diff `ops`), `settings` and the verdict."""
    out = diff_json(rd.old, rd.new, rd.seats)
    out["texts"] = [
        {
            "key": c.key,
            "change": c.kind.value,
            "what": c.label,
            "old_at": _span_json(c.old.span, rd.old.file) if c.old else None,
            "new_at": _span_json(c.new.span, rd.new.file) if c.new else None,
            "old": c.old.text if c.old else None,
            "new": c.new.text if c.new else None,
            "ops": ops_json(c.ops),
            "first_changed_line": first_changed_line(c.ops)
            if c.kind is ChangeKind.CHANGED
            else None,
        }
        for c in rd.texts
    ]
    out["settings"] = [
        {
            "key": c.key,
            "change": c.kind.value,
            "old": json.loads(c.old.value) if c.old else None,
            "new": json.loads(c.new.value) if c.new else None,
            "old_at": _span_json(c.old.span, rd.old.file) if c.old else None,
            "new_at": _span_json(c.new.span, rd.new.file) if c.new else None,
        }
        for c in rd.settings
    ]
    out["other"] = list(rd.other)
    out["behaviour_changed"] = rd.behaviour_changed
    return out
