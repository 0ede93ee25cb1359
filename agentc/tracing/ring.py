"""Spans kept in memory, a bounded ring of runs, for a page that shows a run's trace (the
studio) without a tracing backend.

Input: the spans of instrumented runs, as an SDK span processor sees them start and end,
and, while a run runs, its records (`begin_run`: the recorder's `RunTrace`, read as it
grows, so a page shows the run's spans live); a run's span names its run in
`agentc.run_id` (the id `agentc serve` gives the run).
Output: `SpanRing.run(run_id)` → the run's spans as JSON-ready dicts (open spans too, with
no end yet), each with its time, tokens and, where the model's list prices are known, its
cost in USD. Invariants: at most `max_runs` runs and `max_total` spans are kept (the oldest
run is dropped first), and at most `max_spans` spans of one run (more are counted, not
kept); a span is copied when it starts and when it ends (its ids, name, times, status and
attributes), so nothing here holds the SDK's span objects, and its tokens and cost are
worked out only when a run is read; one lock guards the ring (spans end on worker threads
too).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor

from agentc.stdlib.providers.profiles import profile_for

from . import attrs as a
from .records import Rec, RunTrace

_TOKENS = (
    ("input", a.INPUT_TOKENS),
    ("output", a.OUTPUT_TOKENS),
    ("cache_read", "gen_ai.usage.cache_read.input_tokens"),
    ("cache_creation", "gen_ai.usage.cache_creation.input_tokens"),
    ("reasoning", "gen_ai.usage.reasoning.output_tokens"),
)


@dataclass(slots=True)
class _Run:
    trace_id: int
    spans: dict[int, dict[str, Any]] = field(default_factory=dict)  # span id → its dict
    dropped: int = 0
    live: RunTrace | None = None  # the running run's records, until its spans arrive


class SpanRing(SpanProcessor):
    def __init__(self, max_runs: int = 200, max_spans: int = 2000, max_total: int = 20_000):
        self.max_runs, self.max_spans, self.max_total = max_runs, max_spans, max_total
        self.total = 0  # spans kept, over every run
        self._lock = threading.Lock()
        self._runs: OrderedDict[str, _Run] = OrderedDict()  # run id → its spans
        self._traces: dict[int, str] = {}  # trace id → run id

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        ctx = span.get_span_context()
        attributes = span.attributes or {}
        run_id = attributes.get(a.RUN_ID)
        with self._lock:
            if isinstance(run_id, str):
                self._begin(run_id, ctx.trace_id)
            self._put(ctx.trace_id, span, started=True)

    def on_end(self, span: ReadableSpan) -> None:
        ctx = span.get_span_context()
        if ctx is not None:
            with self._lock:
                self._put(ctx.trace_id, span, started=False)

    def begin_run(self, run: RunTrace) -> None:
        """A traced run started (`ship.Shipper` tells): its spans show while it runs."""
        if run.run_id is None:
            return
        with self._lock:
            self._begin(run.run_id, run.trace_id)
            self._runs[run.run_id].live = run

    def run(self, run_id: str) -> dict[str, Any] | None:
        """The run's spans in the order they started (None: no run of that id is kept)."""
        with self._lock:
            found = self._runs.get(run_id)
            if found is None:
                return None
            copied = list(found.spans.values())
            if found.live is not None:  # still running: its records, read as they are now
                running = list(found.live.started)[: self.max_spans]
                copied += [_rec(r) for r in running if r.span_id not in found.spans]
            spans = sorted(copied, key=lambda s: s["start_ns"])
            dropped = found.dropped
        return {
            "run_id": run_id,
            "trace_id": f"{found.trace_id:032x}",
            "spans": [span_json(s) for s in spans],
            "dropped": dropped,
        }

    def _begin(self, run_id: str, trace_id: int) -> None:
        found = self._runs.get(run_id)
        if found is not None and found.trace_id == trace_id:
            return  # shown live since it started: its spans now arrive
        self._runs[run_id] = _Run(trace_id)
        self._traces[trace_id] = run_id
        while len(self._runs) > self.max_runs:
            self._drop_oldest()

    def _drop_oldest(self) -> None:
        _, old = self._runs.popitem(last=False)
        self._traces.pop(old.trace_id, None)
        self.total -= len(old.spans)

    def _put(self, trace_id: int, span: ReadableSpan, started: bool) -> None:
        run_id = self._traces.get(trace_id)
        found = self._runs.get(run_id) if run_id is not None else None
        ctx = span.get_span_context()
        if found is None or ctx is None:
            return
        if ctx.span_id not in found.spans:
            if len(found.spans) >= self.max_spans:
                found.dropped += started  # counted once, when it starts
                return
            self.total += 1
            while self.total > self.max_total and next(iter(self._runs.values())) is not found:
                self._drop_oldest()
        found.spans[ctx.span_id] = _copy(span)
        live = found.live
        if not started and live is not None and live.started[0].span_id == ctx.span_id:
            found.live = None  # the run's own span ended: every span of the run is here

    def shutdown(self) -> None:
        with self._lock:
            self._runs.clear()
            self._traces.clear()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True


def _copy(span: ReadableSpan) -> dict[str, Any]:
    ctx = span.get_span_context()
    return {
        "span_id": f"{ctx.span_id:016x}" if ctx is not None else None,
        "parent_id": f"{span.parent.span_id:016x}" if span.parent is not None else None,
        "name": span.name,
        "start_ns": span.start_time or 0,
        "end_ns": span.end_time,
        "status": span.status.status_code.name.lower(),
        "attributes": dict(span.attributes or {}),
    }


def _rec(rec: Rec) -> dict[str, Any]:
    """A running run's record as `_copy` copies a span (one that has not ended: no end)."""
    return {
        "span_id": f"{rec.span_id:016x}",
        "parent_id": f"{rec.parent:016x}" if rec.parent is not None else None,
        "name": rec.name,
        "start_ns": rec.start,
        "end_ns": rec.end,
        "status": "error" if rec.error is not None else "unset",
        "attributes": dict(rec.attrs),
    }


def span_json(copied: dict[str, Any]) -> dict[str, Any]:
    """One span as the page reads it: ids, name, what it is, when, tokens, cost."""
    attributes = dict(copied["attributes"])
    start, end = copied["start_ns"], copied["end_ns"]
    tokens = {k: attributes[name] for k, name in _TOKENS if isinstance(attributes.get(name), int)}
    return {
        "span_id": copied["span_id"],
        "parent_id": copied["parent_id"],
        "name": copied["name"],
        "operation": attributes.get(a.OPERATION) or "node",
        "start_ns": start,
        "duration_ms": (end - start) / 1e6 if end is not None else None,
        "status": copied["status"],
        "error": attributes.get(a.ERROR_TYPE),
        "tokens": tokens or None,
        "cost_usd": cost(attributes),
        "attributes": attributes,
    }


def cost(attributes: dict[str, Any]) -> float | None:
    """A model call's cost at its model's list prices (None: not a model call, or the
    prices are not known: agentc's model profiles list them for the popular models)."""
    if attributes.get(a.OPERATION) != "chat":
        return None
    provider = str(attributes.get(a.PROVIDER, ""))
    model = attributes.get("gen_ai.response.model") or attributes.get(a.REQUEST_MODEL)
    profile = profile_for(a.provider_key(provider), str(model or ""))
    pin, pout = profile.input_price_per_mtok, profile.output_price_per_mtok
    if pin is None or pout is None:
        return None
    inp, out = attributes.get(a.INPUT_TOKENS, 0), attributes.get(a.OUTPUT_TOKENS, 0)
    if not isinstance(inp, int) or not isinstance(out, int):
        return None
    return (inp * pin + out * pout) / 1e6
