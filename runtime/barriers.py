"""Joins and deferred nodes: the two ways a node waits before it is planned.

Input: the graph's `JoinSpec`s and deferred nodes (bound once), the barrier state and the
waiting deferred nodes after the last step, the tasks that just ran and the targets their
edges, branches and gotos named. Output: the targets of the next step, and the new state.
Pure and deterministic, like `algo`; the state is plain data (join key → sources seen,
waiting node names) so a checkpoint saves it as JSON.

What LangGraph 1.2.24 does, and so what this does:
- `edge [a, b] -> c` is a `NamedBarrierValue` channel `join:a+b:c`: each source that
  finishes (as a pulled or a pushed task) adds its name; once every source is in, `c` runs
  in the next step, however many steps apart the sources finished. The barrier is
  consumed (emptied) by the step in which `c` runs as a pulled task, *before* that step's
  own sources are added, so a loop through the join fills it afresh each round.
- `defer: true` makes a node's triggers `*AfterFinish` channels: a deferred node named by an
  edge, branch, goto or a full join waits until a step plans no other pulled task (`Send`s
  do not count: in LangGraph they are pushed, not triggered); then every waiting deferred
  node runs in the next step, beside any pushed tasks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import agentc.ir as ir
from agentc.runtime.algo import PULL, Task
from agentc.runtime.records import dataclass
from agentc.runtime.types import Send

Seen = Mapping[str, frozenset[str]]  # join key → the sources that finished since it fired


@dataclass(frozen=True, slots=True)
class Join:
    key: str  # LangGraph's channel name, `join:a+b:c`: stable across runs and processes
    sources: frozenset[str]
    target: str


@dataclass(frozen=True, slots=True)
class Flow:
    """A graph's joins and deferred nodes, bound once (None on the BoundGraph: neither)."""

    joins: tuple[Join, ...]
    by_source: Mapping[str, tuple[Join, ...]]
    by_key: Mapping[str, Join]
    deferred: frozenset[str]

    @classmethod
    def of(cls, graph: ir.Graph) -> Flow | None:
        deferred = frozenset(n.name for n in graph.nodes if n.defer)
        if not graph.joins and not deferred:
            return None
        joins = tuple(
            Join(f"join:{'+'.join(j.sources)}:{j.target}", frozenset(j.sources), j.target)
            for j in graph.joins
            if j.target != ir.END
        )
        by_source: dict[str, list[Join]] = {}
        for j in joins:
            for s in sorted(j.sources):
                by_source.setdefault(s, []).append(j)
        by_key = {j.key: j for j in joins}
        return cls(joins, {k: tuple(v) for k, v in by_source.items()}, by_key, deferred)


@dataclass(frozen=True, slots=True)
class Waits:
    """What waits between steps: partly filled barriers and deferred nodes not yet run."""

    seen: Seen
    waiting: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, Any]:
        return {
            "seen": {k: sorted(v) for k, v in self.seen.items()},
            "waiting": sorted(self.waiting),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Waits:
        if not data:
            return NO_WAITS
        seen = {k: frozenset(v) for k, v in (data.get("seen") or {}).items()}
        return cls(seen, frozenset(data.get("waiting") or ()))


NO_WAITS = Waits({})


def advance(
    flow: Flow, waits: Waits, ran: Sequence[Task], targets: list[str | Send]
) -> tuple[list[str | Send], Waits]:
    """After a step: consume the barriers whose target ran, add the sources that ran, fire
    full barriers, and hold deferred targets back until no other pulled task is planned."""
    seen = _joins_after(flow, waits.seen, ran) if flow.joins else waits.seen
    for j in flow.joins:
        if seen.get(j.key) == j.sources:
            targets.append(j.target)
    if not flow.deferred:
        return targets, Waits(seen)
    return _settle(flow.deferred, targets, waits.waiting, seen)


def _joins_after(flow: Flow, before: Seen, ran: Sequence[Task]) -> dict[str, frozenset[str]]:
    pulled = {t.node for t in ran if t.path[0] == PULL}
    # consumed first: the sources of the step that ran the target count for the next round
    seen = {k: v for k, v in before.items() if not _consumed(flow.by_key.get(k), v, pulled)}
    for t in ran:
        for j in flow.by_source.get(t.node, ()):
            seen[j.key] = seen.get(j.key, frozenset()) | {t.node}
    return seen


def _consumed(join: Join | None, seen: frozenset[str], pulled: set[str]) -> bool:
    if join is None:
        return True  # a join the graph no longer has (a checkpoint of an older version)
    return seen == join.sources and join.target in pulled


def _settle(
    deferred: frozenset[str], targets: list[str | Send], waiting: frozenset[str], seen: Seen
) -> tuple[list[str | Send], Waits]:
    held = set(waiting)
    out: list[str | Send] = []
    others = False  # a non-deferred pulled task is planned
    for t in targets:
        if type(t) is str and t in deferred:
            held.add(t)
            continue
        if type(t) is str and t != ir.END:
            others = True
        out.append(t)
    if held and not others:  # LangGraph's `finish()`: nothing else is triggered
        out.extend(sorted(held))
        held = set()
    return out, Waits(seen, frozenset(held))
