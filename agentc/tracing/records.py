"""A run's spans as plain records, made on the run's own thread: what a span is, with none
of OpenTelemetry's span machinery (no sampler call, no processor call, no attribute
validation per span).

Input: what the recorder knows when a span starts (its name, kind, parent and opening
attributes) and ends. Output: `Rec`s, gathered per run in a `RunTrace` that lists them in
the order they started and in the order they ended; `ship.py` turns them into the SDK's
`ReadableSpan`s on the export side. Invariants: ids are made when a span starts, by the
provider's own id generator (W3C: a random 128-bit trace id, random 64-bit span ids), so
the run's span can be the parent of spans the run's code makes through OpenTelemetry
while the run is still going; times are `time.time_ns()`, as the SDK's; a record is
written only by the thread that runs the recorder's handlers (under its lock), and read by
the export side only after it ended (or, for a live view, copied field by field).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from opentelemetry import context, trace
from opentelemetry.trace import SpanContext, SpanKind, TraceFlags, TraceState

INTERNAL, CLIENT = SpanKind.INTERNAL, SpanKind.CLIENT
CHUNK = 512  # a run's ended spans are handed on at its end, or every CHUNK of them
now = time.time_ns


class Rec:
    """One span: set when it starts, `end` (and perhaps `error`) when it ends."""

    __slots__ = ("attrs", "end", "error", "kind", "name", "parent", "span_id", "start")

    def __init__(
        self, name: str, span_id: int, parent: int | None, attrs: dict[str, Any], kind: SpanKind
    ) -> None:
        self.name, self.span_id, self.parent, self.attrs, self.kind = (
            name,
            span_id,
            parent,
            attrs,
            kind,
        )
        self.start = now()
        self.end: int | None = None
        self.error: str | None = None  # set: the span failed (its status description, or "")


class RunTrace:
    """One run's records, and where its trace hangs (the caller's span, if any)."""

    __slots__ = ("ended", "flags", "parent", "run_id", "started", "state", "trace_id")

    def __init__(
        self,
        trace_id: int,
        parent: SpanContext | None,
        flags: TraceFlags,
        state: TraceState | None,
        run_id: str | None,
    ) -> None:
        self.trace_id, self.parent, self.flags, self.state = trace_id, parent, flags, state
        self.run_id = run_id
        self.started: list[Rec] = []
        self.ended: list[Rec] = []

    def split(self) -> RunTrace:
        """The records that ended so far, as a part of their own; this keeps the others."""
        part = RunTrace(self.trace_id, self.parent, self.flags, self.state, self.run_id)
        part.ended, self.ended = self.ended, []
        part.started = [r for r in self.started if r.end is not None]
        self.started = [r for r in self.started if r.end is None]
        return part

    def context_of(self, span_id: int) -> SpanContext:
        return SpanContext(self.trace_id, span_id, False, self.flags, self.state)


try:
    from opentelemetry.sdk.trace.sampling import DEFAULT_ON as _DEFAULT_ON
except ImportError:  # pragma: no cover - the otel extra brings the SDK
    _DEFAULT_ON = None

_SAMPLED = TraceFlags(TraceFlags.SAMPLED)
_RANDOM = getattr(TraceFlags, "RANDOM_TRACE_ID", 0)  # W3C level 2 (newer SDKs set it)


class Ids:
    """The ids and the sampling decision of a tracer's runs: the SDK tracer's own id
    generator and sampler, or random W3C ids, every run sampled, for another tracer."""

    def __init__(self, tracer: Any) -> None:
        generator = getattr(tracer, "id_generator", None)
        self.sampler = getattr(tracer, "sampler", None)
        if self.sampler is not None and self.sampler is _DEFAULT_ON:
            self.sampler = None  # the SDK's default decides as the parent did (below)
        if generator is None:
            self.span_id: Callable[[], int] = _random_span_id
            self.trace_id: Callable[[], int] = _random_trace_id
            self.random = True
        else:
            self.span_id, self.trace_id = generator.generate_span_id, generator.generate_trace_id
            is_random = getattr(generator, "is_trace_id_random", None)
            self.random = bool(is_random()) if is_random is not None else False

    def open(self, name: str, attrs: dict[str, Any], run_id: str | None) -> tuple[RunTrace, bool]:
        """A run's trace under the caller's current span (if any), and whether it records."""
        ctx = context.get_current()
        found = trace.get_current_span(ctx).get_span_context()
        parent = found if found.is_valid else None
        trace_id = parent.trace_id if parent is not None else self.trace_id()
        if self.sampler is None:
            flags = parent.trace_flags if parent is not None else _SAMPLED
            state, recording = parent.trace_state if parent is not None else None, flags.sampled
        else:
            result = self.sampler.should_sample(ctx, trace_id, name, INTERNAL, attrs)
            recording = result.decision.is_recording()
            flags = _SAMPLED if result.decision.is_sampled() else TraceFlags(0)
            state = result.trace_state
            if result.attributes:
                attrs.update(result.attributes)
        random = parent.trace_flags & _RANDOM if parent is not None else self.random and _RANDOM
        if random:
            flags = TraceFlags(flags | _RANDOM)
        return RunTrace(trace_id, parent, flags, state, run_id), recording


def _random_span_id() -> int:
    return random.getrandbits(64) or 1


def _random_trace_id() -> int:
    return random.getrandbits(128) or 1
