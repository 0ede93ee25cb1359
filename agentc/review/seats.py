"""The seat table: every decision seat of create_agent, read from package data.

Input: `stdlib/data/seats.json` (found beside the compiler, editable or installed, by
`agentc.compiler.paths.stdlib_file`). Output: `seat_table()` → a frozen `SeatTable` — one
`SeatRow` per seat in table order, the seats each hook point takes, and the
seed's published holder counts. Invariants: read once per process (cached); rows keep the
file's order; every enum value in the file is a member of `Holder`, `Kind` or `Scope`
(a bad value is a bug in the package data and raises).
"""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from agentc.compiler.paths import stdlib_file

SEATS_FILE = "data/seats.json"  # relative to the stdlib package


class Holder(str, enum.Enum):
    CODE = "code"
    LLM = "llm"
    MODEL = "model"
    HUMAN = "human"
    EXTERNAL = "external"
    UNKNOWN = "unknown"
    NONE = "none"  # the seat is not in play in this graph (a hand-built graph's agent seats)


class Kind(str, enum.Enum):
    RULE = "RULE"
    RULING = "RULING"
    UNKNOWN = "UNKNOWN"


class Scope(str, enum.Enum):
    AGENT = "agent"  # a create_agent seat
    RUNTIME = "runtime"  # holds for any graph the runtime executes


@dataclass(frozen=True, slots=True)
class FactRule:
    fact: str
    holder: Holder | None  # None: the seat's own holder
    answer: str  # a template over the fact's values


@dataclass(frozen=True, slots=True)
class Split:
    """A middleware config map from tool name to setting that splits a seat per tool (D9)."""

    config: str
    holder: Holder
    answer: str
    rest_holder: Holder
    rest_answer: str


@dataclass(frozen=True, slots=True)
class SeatRow:
    id: str
    stage: str
    kind: Kind
    holder: Holder
    scope: Scope
    question: str
    default: str
    published: bool
    taken_holder: Holder | None = None
    split: Split | None = None
    facts: tuple[FactRule, ...] = ()
    hint: str | None = None


@dataclass(frozen=True, slots=True)
class SeatTable:
    seats: tuple[SeatRow, ...]
    hook_seats: Mapping[str, tuple[str, ...]]
    published_counts: tuple[tuple[Kind, Holder, int], ...]

    def seat(self, seat_id: str) -> SeatRow:
        for row in self.seats:
            if row.id == seat_id:
                return row
        raise KeyError(seat_id)


def _split(raw: dict[str, Any] | None) -> Split | None:
    if not raw:
        return None
    return Split(
        raw["config"],
        Holder(raw["holder"]),
        raw["answer"],
        Holder(raw["rest_holder"]),
        raw["rest_answer"],
    )


def _fact_rule(raw: dict[str, Any]) -> FactRule:
    return FactRule(raw["fact"], Holder(raw["holder"]) if raw["holder"] else None, raw["answer"])


def _row(raw: dict[str, Any]) -> SeatRow:
    taken = raw.get("taken") or {}
    return SeatRow(
        id=raw["id"],
        stage=raw["stage"],
        kind=Kind(raw["kind"]),
        holder=Holder(raw["holder"]),
        scope=Scope(raw["scope"]),
        question=raw["question"],
        default=raw["default"],
        published=raw["published"],
        taken_holder=Holder(taken["holder"]) if "holder" in taken else None,
        split=_split(taken.get("split")),
        facts=tuple(_fact_rule(f) for f in raw.get("facts", ())),
        hint=raw.get("hint"),
    )


@functools.cache
def seat_table(path: str | None = None) -> SeatTable:
    """The table in `path`, by default the one the stdlib ships."""
    where = Path(path) if path is not None else stdlib_file(SEATS_FILE)
    raw = json.loads(where.read_text(encoding="utf-8"))
    return SeatTable(
        seats=tuple(_row(r) for r in raw["seats"]),
        hook_seats=MappingProxyType({k: tuple(v) for k, v in raw["hook_seats"].items()}),
        published_counts=tuple(
            (Kind(c["kind"]), Holder(c["holder"]), c["count"]) for c in raw["published_counts"]
        ),
    )
