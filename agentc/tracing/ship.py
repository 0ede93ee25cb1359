"""From a run's records to the SDK's span processors: `ReadableSpan`s built on the export
side, so the run's thread never makes an SDK span.

Input: finished `RunTrace`s (one append per run, or per `CHUNK` ended spans of a long run)
and an SDK tracer. Output: each record as a `ReadableSpan` (the tracer's resource and
scope, its ids, times, attributes and status) handed to the provider's span processors —
`on_start` then `on_end`, so the `BatchSpanProcessor` in front of the OTLP/HTTP or JSONL
exporter, the in-memory exporter of a test and the studio's ring all see real spans.

Invariants: when every processor of the provider is a `BatchSpanProcessor` (which exports
later on its own thread anyway) the spans are built on this module's thread, woken every
`DELAY_S` or when `WAKE_AT` runs wait, and a `Flusher` placed first among the provider's
processors builds what still waits whenever the provider is flushed or shut down (so
`provider.force_flush()` and the exit hook still send every span); with any other
processor (one that exports at once, as `SimpleSpanProcessor`, or reads spans as they end)
they are built and handed over on the run's thread when the run ends, before it returns.
One `Shipper` per provider's processor chain; a lock keeps two builders from interleaving.
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import NonRecordingSpan, Status, StatusCode

from .records import RunTrace

DELAY_S = 0.5
WAKE_AT = 64
_UNSET, _ERROR = Status(StatusCode.UNSET), StatusCode.ERROR


class Flusher(SpanProcessor):
    """First among the provider's processors: a flush or a shutdown builds what waits."""

    def __init__(self, shipper: Shipper) -> None:
        self.shipper = weakref.ref(shipper)

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        shipper = self.shipper()
        if shipper is not None:
            shipper.drain()
        return True

    def shutdown(self) -> None:
        shipper = self.shipper()
        if shipper is not None:
            shipper.stop()


class Shipper:
    def __init__(self, tracer: Any) -> None:
        self.multi = tracer.span_processor  # the provider's chain (SynchronousMulti…)
        self.resource = tracer.resource
        self.scope = tracer._instrumentation_scope  # noqa: SLF001 (the SDK keeps it there)
        self.info = tracer.instrumentation_info
        self.pending: deque[RunTrace] = deque()
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.thread: threading.Thread | None = None
        self.stopped = False
        self._seen: tuple[Any, ...] | None = None
        self._later = False
        self._watchers: list[Any] = []

    # ---- the run's side

    def begin(self, run: RunTrace) -> None:
        """A run started: processors that show runs live (the studio's ring) get it now."""
        self._refresh()
        for watcher in self._watchers:
            watcher.begin_run(run)

    def ship(self, run: RunTrace) -> None:
        """A run's ended records (all of them, or a long run's first ones)."""
        if self._refresh() and not self.stopped:
            self.pending.append(run)
            if self.thread is None or not self.thread.is_alive():  # none yet, or forked
                self._start_thread()
            elif len(self.pending) >= WAKE_AT:
                self.wake.set()
            return
        with self.lock:
            self._deliver(run, True)

    def _refresh(self) -> bool:
        """Whether spans may be built later (the processors are all batch ones)."""
        processors = getattr(self.multi, "_span_processors", None)
        if processors is self._seen:
            return self._later
        own = [p for p in processors or () if not isinstance(p, Flusher)]
        self._watchers = [p for p in own if hasattr(p, "begin_run")]
        self._later = bool(own) and all(isinstance(p, BatchSpanProcessor) for p in own)
        if self._later and not any(isinstance(p, Flusher) for p in processors or ()):
            with self.multi._lock:  # noqa: SLF001 (first, so a flush builds what waits)
                self.multi._span_processors = (Flusher(self), *self.multi._span_processors)  # noqa: SLF001
        self._seen = self.multi._span_processors  # noqa: SLF001
        return self._later

    # ---- the export side

    def _start_thread(self) -> None:
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._loop, name="agentc-spans", daemon=True)
                self.thread.start()

    def _loop(self) -> None:
        while not self.stopped:
            self.wake.wait(DELAY_S)
            self.wake.clear()
            self.drain()

    def drain(self) -> None:
        with self.lock:
            while self.pending:
                self._deliver(self.pending.popleft(), False)

    def stop(self) -> None:
        self.drain()
        self.stopped = True
        self.wake.set()

    def _deliver(self, run: RunTrace, starts: bool) -> None:
        multi = self.multi
        contexts: dict[int, Any] = {}
        spans = {rec.span_id: self._readable(run, rec, contexts) for rec in run.ended}
        if starts:  # processors that read spans as they start (the batch ones do not)
            for rec in run.started:
                span = spans.get(rec.span_id)
                if span is not None:
                    multi.on_start(span, None)
        for span in spans.values():
            multi.on_end(span)

    def _readable(self, run: RunTrace, rec: Any, contexts: dict[int, Any]) -> ReadableSpan:
        attrs = rec.attrs
        for key, value in attrs.items():
            if type(value) is list:  # the SDK keeps sequences as tuples
                attrs[key] = tuple(value)
        own = contexts.get(rec.span_id)
        if own is None:
            own = contexts[rec.span_id] = run.context_of(rec.span_id)
        if rec.parent is None:
            parent = run.parent
        else:
            parent = contexts.get(rec.parent)
            if parent is None:
                parent = contexts[rec.parent] = run.context_of(rec.parent)
        status = _UNSET if rec.error is None else Status(_ERROR, rec.error or None)
        return ReadableSpan(
            rec.name,
            own,
            parent,
            self.resource,
            attrs,
            (),
            (),
            rec.kind,
            self.info,
            status,
            rec.start,
            rec.end,
            self.scope,
        )


_SHIPPERS: weakref.WeakKeyDictionary[Any, Shipper] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def shipper_for(tracer: Any) -> Shipper:
    """The one shipper of the tracer's provider (shared by every graph traced into it)."""
    with _LOCK:
        found = _SHIPPERS.get(tracer.span_processor)
        if found is None:
            found = _SHIPPERS[tracer.span_processor] = Shipper(tracer)
        return found


class Replay:
    """For a tracer that is not the SDK's: each ended run's records started and ended
    through the tracer itself, at their own times (a span the run's code made under the
    run's span keeps the run's ids, which this tracer does not know)."""

    def __init__(self, tracer: Any) -> None:
        self.tracer = tracer

    def begin(self, run: RunTrace) -> None:
        pass

    def ship(self, run: RunTrace) -> None:
        made: dict[int, Any] = {}
        ended = {rec.span_id for rec in run.ended}
        root = trace.set_span_in_context(NonRecordingSpan(run.parent)) if run.parent else None
        for rec in run.started:
            if rec.span_id not in ended:
                continue
            parent = made.get(rec.parent) if rec.parent is not None else None
            ctx = trace.set_span_in_context(parent) if parent is not None else root
            made[rec.span_id] = self.tracer.start_span(
                rec.name, ctx, rec.kind, rec.attrs, start_time=rec.start
            )
        for rec in run.ended:
            span = made[rec.span_id]
            if rec.error is not None:
                span.set_status(Status(_ERROR, rec.error or None))
            span.end(rec.end)


def outlet_for(tracer: Any) -> Shipper | Replay:
    return shipper_for(tracer) if hasattr(tracer, "span_processor") else Replay(tracer)
