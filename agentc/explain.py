"""The decision map of one compiled graph: who holds each seat of seed 000, and why.

Input: an `ir.Graph` (and the seat table `stdlib/data/seats.json`). Output: a
`DecisionMap`: one `SeatAnswer` per seat (92), each with one or more `Part`s (a holder,
the answer in this agent, and the span of the `.agent` text that makes it so), seats this
file decides listed first, and the holder counts (kind · holder → seats) as the seed's own
summary table. Nothing here is written per agent: the table gives defaults, each
middleware's declared `seats` (from `stdlib/prelude.agent`, via `ir.MiddlewareSpec.seats`)
moves those seats to it, and a fixed set of IR facts (`Fact`) fills the answer templates the
table attaches to seats. Renderers: `render_text`, `render_markdown`, `to_json`; `diff`
compares two maps.
"""

from __future__ import annotations

import enum
import functools
import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from . import ir

SEATS_JSON = Path(__file__).resolve().parent.parent / "stdlib" / "data" / "seats.json"
STDLIB_PREFIX = "agentc.stdlib"


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


# ---------------------------------------------------------------- the seat table


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
    stages: Mapping[str, str]
    seats: tuple[SeatRow, ...]
    hook_seats: Mapping[str, tuple[str, ...]]
    published_counts: tuple[tuple[Kind, Holder, int], ...]

    def seat(self, seat_id: str) -> SeatRow:
        for row in self.seats:
            if row.id == seat_id:
                return row
        raise KeyError(seat_id)


def _row(raw: dict[str, Any]) -> SeatRow:
    taken = raw.get("taken") or {}
    split = taken.get("split")
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
        split=Split(
            split["config"],
            Holder(split["holder"]),
            split["answer"],
            Holder(split["rest_holder"]),
            split["rest_answer"],
        )
        if split
        else None,
        facts=tuple(
            FactRule(f["fact"], Holder(f["holder"]) if f["holder"] else None, f["answer"])
            for f in raw.get("facts", ())
        ),
        hint=raw.get("hint"),
    )


@functools.cache
def seat_table(path: str = str(SEATS_JSON)) -> SeatTable:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    return SeatTable(
        stages=MappingProxyType(dict(raw["stages"])),
        seats=tuple(_row(r) for r in raw["seats"]),
        hook_seats=MappingProxyType({k: tuple(v) for k, v in raw["hook_seats"].items()}),
        published_counts=tuple(
            (Kind(c["kind"]), Holder(c["holder"]), c["count"]) for c in raw["published_counts"]
        ),
    )


# ---------------------------------------------------------------- IR facts


@dataclass(frozen=True, slots=True)
class FactValue:
    values: Mapping[str, Any]
    span: ir.SourceSpan | None
    source: str  # the construct that makes it so, as written: `limits`, `model` …


Extractor = Callable[[ir.Graph], FactValue | None]


def _ticks(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def _local_tools(graph: ir.Graph) -> list[ir.ToolSpec]:
    if graph.agent is None:
        return []
    return [t for m in graph.agent.middleware for t in m.tools] + list(graph.agent.tools)


def _has_tools_node(graph: ir.Graph) -> bool:
    return any(n.kind is ir.NodeKind.TOOLS for n in graph.nodes)


def _hook_count(graph: ir.Graph) -> int:
    return sum(1 for n in graph.nodes if n.kind is ir.NodeKind.HOOK)


def _fact_model(graph: ir.Graph) -> FactValue | None:
    if graph.agent is None:
        return None
    m = graph.agent.model
    return FactValue({"provider": m.provider, "spec": m.spec, "name": m.name}, m.span, "model")


def _fact_model_inferred(graph: ir.Graph) -> FactValue | None:
    fact = _fact_model(graph)
    if fact is None or fact.values["spec"].partition(":")[0] == fact.values["provider"]:
        return None
    return fact


def _fact_model_retries(graph: ir.Graph) -> FactValue | None:
    if graph.agent is None or "max_retries" not in graph.agent.model.options:
        return None
    m = graph.agent.model
    return FactValue({"max_retries": m.options["max_retries"]}, m.span, "model")


def _fact_prompt(graph: ir.Graph) -> FactValue | None:
    if graph.agent is None or graph.agent.prompt is None:
        return None
    return FactValue({"chars": len(graph.agent.prompt)}, graph.agent.prompt_span, "prompt")


def _fact_tools(graph: ir.Graph) -> FactValue | None:
    tools = _local_tools(graph)
    if not tools:
        return None
    return FactValue(
        {
            "count": len(tools),
            "names": _ticks([t.name for t in tools]),
            "hooks": _hook_count(graph),
        },
        tools[0].span,
        "tools",
    )


def _fact_no_tools(graph: ir.Graph) -> FactValue | None:
    if graph.agent is None or _local_tools(graph) or _has_tools_node(graph):
        return None
    return FactValue({"hooks": _hook_count(graph)}, graph.span, graph.kind.value)


def _fact_graph_shape(graph: ir.Graph) -> FactValue | None:
    if graph.kind is not ir.GraphKind.GRAPH:
        return None
    return FactValue(
        {"nodes": len(graph.nodes), "edges": len(graph.edges), "branches": len(graph.branches)},
        graph.span,
        "graph",
    )


def _branch_text(branch: ir.BranchSpec) -> str:
    from .compiler.render import case_label

    if branch.kind is ir.BranchKind.WHEN:
        cases = ", ".join(f"{case_label(c)} → {c.target}" for c in branch.cases)
        return f"from `{branch.source}`: {cases}"
    router = branch.router.attr if branch.router else "router"
    return f"from `{branch.source}`: {router} ({', '.join(branch.routes)})"


def _fact_graph_branches(graph: ir.Graph) -> FactValue | None:
    if graph.kind is not ir.GraphKind.GRAPH or not graph.branches:
        return None
    names = "; ".join(_branch_text(b) for b in graph.branches)
    return FactValue({"names": names}, graph.branches[0].span, "edge")


def _fact_provider_tools(graph: ir.Graph) -> FactValue | None:
    tools = graph.agent.provider_tools if graph.agent else []
    if not tools:
        return None
    types = ", ".join(str(t.definition.get("type", "?")) for t in tools)
    return FactValue({"count": len(tools), "types": types}, tools[0].span, "tools")


def _fact_tool_subset(graph: ir.Graph, keep: Callable[[ir.ToolSpec], bool]) -> FactValue | None:
    tools = [t for t in _local_tools(graph) if keep(t)]
    if not tools:
        return None
    return FactValue({"names": _ticks([t.name for t in tools])}, tools[0].span, "tools")


def _fact_injected(graph: ir.Graph) -> FactValue | None:
    tools = [t for t in _local_tools(graph) if t.injected]
    if not tools:
        return None
    names = ", ".join(f"`{t.name}.{a.param}` ({a.kind.value})" for t in tools for a in t.injected)
    return FactValue({"names": names}, tools[0].span, "tools")


_STRATEGY_TEXT = {
    ir.OutputStrategy.TOOL: "requested as a forced tool call (`via tool`)",
    ir.OutputStrategy.PROVIDER: "requested through the provider's native feature (`via provider`)",
    ir.OutputStrategy.AUTO: "picked per call from the model's profile (`via auto`)",
}


def _retry_text(output: ir.OutputSpec) -> str:
    if output.strategy is ir.OutputStrategy.PROVIDER:
        return "no: a native answer that fails the check fails the run (G6)"
    if output.handle_errors is False:
        return "no: `handle_errors: false`, so a failed check fails the run"
    if isinstance(output.handle_errors, str):
        return (
            f'yes: the model is told "{output.handle_errors}" and asked again, with no '
            "limit but the step cap"
        )
    return "yes: the error goes back to the model, with no limit but the step cap"


def _fact_output(graph: ir.Graph, *strategies: ir.OutputStrategy) -> FactValue | None:
    output = graph.agent.output if graph.agent else None
    if output is None or (strategies and output.strategy not in strategies):
        return None
    values = {
        "schemas": _ticks(output.schemas),
        "strategy": output.strategy.value,
        "strategy_text": _STRATEGY_TEXT[output.strategy],
        "retry_text": _retry_text(output),
    }
    return FactValue(values, output.span, "output")


def _num(value: float | int) -> str:
    return f"{int(value):,}" if float(value).is_integer() else str(value)


def _fact_steps(graph: ir.Graph) -> FactValue | None:
    bound = graph.limits.steps
    return FactValue({"value": _num(bound.value)}, bound.span, "limits") if bound.span else None


def _fact_steps_default(graph: ir.Graph) -> FactValue | None:
    bound = graph.limits.steps
    if bound.span is not None or bound.value == 9999:
        return None
    return FactValue({"value": _num(bound.value)}, graph.span, graph.kind.value)


def _fact_step_timeout(graph: ir.Graph) -> FactValue | None:
    bound = graph.limits.step_timeout_s
    if bound is None:
        return None
    return FactValue({"value": _num(bound.value)}, bound.span, "limits")


def _fact_nodes(graph: ir.Graph, attr: str, describe: Callable[[Any], str]) -> FactValue | None:
    nodes = [n for n in graph.nodes if getattr(n, attr) is not None]
    if not nodes:
        return None
    names = ", ".join(f"`{n.name}` ({describe(getattr(n, attr))})" for n in nodes)
    return FactValue({"names": names}, nodes[0].span, "node")


def _fact_checkpoint(graph: ir.Graph) -> FactValue | None:
    spec = graph.checkpoint
    if spec.kind is ir.CheckpointKind.NONE:
        return None
    return FactValue({"kind": spec.kind.value}, spec.span, "checkpoint")


def _fact_store(graph: ir.Graph) -> FactValue | None:
    spec = graph.store  # I1: the long-term store the file gives its tools and middleware
    if spec is None or spec.kind is ir.StoreKind.NONE:
        return None
    return FactValue({"kind": spec.kind.value}, spec.span, "store")


def _fact_interrupts(graph: ir.Graph) -> FactValue | None:
    if not graph.interrupts:
        return None
    names = ", ".join(f"{i.when.value} `{i.node}` (line {i.span.line})" for i in graph.interrupts)
    return FactValue({"names": names}, graph.interrupts[0].span, "interrupt")


def _fact_interrupts_unsaved(graph: ir.Graph) -> FactValue | None:
    if graph.checkpoint.kind is not ir.CheckpointKind.NONE:
        return None
    return _fact_interrupts(graph)


# The IR facts the seat table's `facts` entries may name: one extractor each.
FACTS: Mapping[str, Extractor] = MappingProxyType(
    {
        "model": _fact_model,
        "model_inferred": _fact_model_inferred,
        "model_retries": _fact_model_retries,
        "prompt": _fact_prompt,
        "tools": _fact_tools,
        "no_tools": _fact_no_tools,
        "graph_shape": _fact_graph_shape,
        "graph_branches": _fact_graph_branches,
        "provider_tools": _fact_provider_tools,
        "return_direct": lambda g: _fact_tool_subset(g, lambda t: t.return_direct),
        "agent_tools": lambda g: _fact_tool_subset(g, lambda t: t.agent is not None),
        "injected": _fact_injected,
        "output": _fact_output,
        "output_tool": lambda g: _fact_output(g, ir.OutputStrategy.TOOL),
        "output_provider": lambda g: _fact_output(g, ir.OutputStrategy.PROVIDER),
        "steps": _fact_steps,
        "steps_default": _fact_steps_default,
        "step_timeout": _fact_step_timeout,
        "node_timeout": lambda g: _fact_nodes(g, "timeout_s", lambda s: f"{_num(s)} s"),
        "node_retry": lambda g: _fact_nodes(g, "retry", lambda r: f"{r.max_attempts} attempts"),
        "checkpoint": _fact_checkpoint,
        "store": _fact_store,
        "interrupts": _fact_interrupts,
        "interrupts_unsaved": _fact_interrupts_unsaved,
    }
)


# ---------------------------------------------------------------- the map


class Origin(str, enum.Enum):
    DEFAULT = "default"  # the table's default answer
    FACT = "fact"  # a line of this file fills the answer
    MIDDLEWARE = "middleware"  # a middleware of this agent took the seat
    NOT_IN_PLAY = "not_in_play"


@dataclass(frozen=True, slots=True)
class Part:
    holder: Holder
    answer: str
    origin: Origin
    source: str | None = None  # `limits`, middleware `human_review` …
    span: ir.SourceSpan | None = None


@dataclass(frozen=True, slots=True)
class SeatAnswer:
    seat: SeatRow
    parts: tuple[Part, ...]

    @property
    def holder(self) -> Holder:
        """The seat's holder for the counts: the first part's (a review split puts human first)."""
        return self.parts[0].holder

    @property
    def changed(self) -> bool:
        return any(p.origin in (Origin.FACT, Origin.MIDDLEWARE) for p in self.parts)


@dataclass(frozen=True, slots=True)
class DecisionMap:
    graph: str
    kind: ir.GraphKind
    file: str
    answers: tuple[SeatAnswer, ...]  # changed first, then seat order
    counts: tuple[tuple[Kind, Holder, int], ...] = field(default=())

    def answer(self, seat_id: str) -> SeatAnswer:
        for a in self.answers:
            if a.seat.id == seat_id:
                return a
        raise KeyError(seat_id)


def decision_map(graph: ir.Graph, table: SeatTable | None = None) -> DecisionMap:
    table = table or seat_table()
    facts = {name: extract(graph) for name, extract in FACTS.items()}
    claims = _middleware_claims(graph, table)
    answers = [
        SeatAnswer(row, _parts(graph, row, facts, claims.get(row.id, []))) for row in table.seats
    ]
    ordered = [a for a in answers if a.changed] + [a for a in answers if not a.changed]
    return DecisionMap(
        graph.name, graph.kind, graph.span.file, tuple(ordered), _counts(answers, table)
    )


def _middleware_claims(graph: ir.Graph, table: SeatTable) -> dict[str, list[ir.MiddlewareSpec]]:
    """Seat id → the middleware that take it, in declaration order."""
    claims: dict[str, list[ir.MiddlewareSpec]] = {}
    for mw in graph.agent.middleware if graph.agent else []:
        seats = list(mw.seats) or [
            s for point in mw.hooks for s in table.hook_seats.get(point.value, ())
        ]
        for seat_id in dict.fromkeys(seats):
            claims.setdefault(seat_id, []).append(mw)
    return claims


def _parts(
    graph: ir.Graph,
    row: SeatRow,
    facts: Mapping[str, FactValue | None],
    claims: list[ir.MiddlewareSpec],
) -> tuple[Part, ...]:
    if graph.kind is ir.GraphKind.GRAPH and row.scope is Scope.AGENT:
        return (
            Part(
                Holder.NONE,
                "not in play: a hand-built graph has no create_agent step for it",
                Origin.NOT_IN_PLAY,
            ),
        )
    parts = [p for mw in claims for p in _middleware_parts(graph, row, mw)]
    for rule in row.facts:
        fact = facts.get(rule.fact)
        if fact is not None:
            parts.append(
                Part(
                    rule.holder or row.holder,
                    rule.answer.format(**fact.values),
                    Origin.FACT,
                    f"`{fact.source}`",
                    fact.span,
                )
            )
    if parts:
        return tuple(parts)
    return (Part(row.holder, _default_answer(graph, row), Origin.DEFAULT),)


def _default_answer(graph: ir.Graph, row: SeatRow) -> str:
    if row.hint and graph.agent is not None:
        return f"{row.default} (add the `{row.hint}` middleware to change this)"
    return row.default


def _middleware_parts(graph: ir.Graph, row: SeatRow, mw: ir.MiddlewareSpec) -> list[Part]:
    holder = row.taken_holder or row.holder
    if not mw.impl.module.startswith(STDLIB_PREFIX) and holder is Holder.CODE:
        holder = Holder.EXTERNAL  # the integrator's own Python, outside agentc (as C7, I1)
    if (
        mw.origin is ir.MiddlewareOrigin.LIMITS
    ):  # budgets written in `limits` (lowered to this middleware)
        source, span = "`limits` (budgets)", _first_span(mw) or mw.span
    else:
        source, span = f"middleware `{mw.name}`", mw.span
    if row.split is not None and isinstance(mw.config.get(row.split.config), dict):
        return _split_parts(graph, row.split, mw, source)
    answer = (
        f"taken over by `{mw.name}`"
        + (f" ({mw.declared})" if mw.declared != mw.name else "")
        + _config_text(mw.config)
    )
    return [Part(holder, answer, Origin.MIDDLEWARE, source, span)]


def _first_span(mw: ir.MiddlewareSpec) -> ir.SourceSpan | None:
    return next(iter(mw.config_spans.values()), None)


def _split_parts(graph: ir.Graph, split: Split, mw: ir.MiddlewareSpec, source: str) -> list[Part]:
    """D9: one part per gated tool, at its own key (`delete_file: true` at 12:5), then
    the tools waved through, at the setting (`interrupt_on`)."""
    setting = mw.config[split.config]
    gated = [name for name, value in setting.items() if value not in (False, None)]
    rest = [t.name for t in _local_tools(graph) if t.name not in gated]
    spans = mw.config_spans
    parts = [
        Part(
            split.holder,
            f"{split.answer}: {_ticks([name])}",
            Origin.MIDDLEWARE,
            f"`{name}` in `{split.config}` of {source}",
            spans.get(f"{split.config}.{name}") or mw.span,
        )
        for name in gated
    ]
    if rest or not gated:
        who = _ticks(rest) if rest else "every tool"
        parts.append(
            Part(
                split.rest_holder,
                f"{split.rest_answer}: {who}",
                Origin.MIDDLEWARE,
                f"`{split.config}` of {source}",
                spans.get(split.config) or mw.span,
            )
        )
    return parts


def _config_text(config: Mapping[str, Any], limit: int = 70) -> str:
    # Short settings only: the IR fills every default, and long prose (prompts, notices)
    # belongs to the file, not to a one-line answer.
    shown = {
        k: v
        for k, v in config.items()
        if v is not None
        and not (isinstance(v, str) and len(v) > 16)
        and len(json.dumps(v, ensure_ascii=False)) <= 48
    }
    if not shown:
        return ""
    text = ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in shown.items())
    return " { " + (text if len(text) <= limit else text[: limit - 1] + "…") + " }"


def _counts(answers: list[SeatAnswer], table: SeatTable) -> tuple[tuple[Kind, Holder, int], ...]:
    """kind · holder → seats, in the seed's order first, then any other pair by size."""
    counter = Counter((a.seat.kind, a.holder) for a in answers)
    order = [(k, h) for k, h, _ in table.published_counts]
    rest = sorted(
        (pair for pair in counter if pair not in order),
        key=lambda pair: (-counter[pair], pair[0].value, pair[1].value),
    )
    return tuple((k, h, counter[(k, h)]) for k, h in order + rest if counter[(k, h)])


# ---------------------------------------------------------------- rendering


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


def _part_json(part: Part, home: str) -> dict[str, Any]:
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
                "parts": [_part_json(p, dmap.file) for p in a.parts],
            }
            for a in dmap.answers
        ],
        "counts": [{"kind": k.value, "holder": h.value, "count": n} for k, h, n in dmap.counts],
    }


# ---------------------------------------------------------------- diff


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
                "old": [_part_json(p, old.file) for p in c.old.parts],
                "new": [_part_json(p, new.file) for p in c.new.parts],
            }
            for c in changes
        ],
    }
