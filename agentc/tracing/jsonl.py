"""A span exporter that appends each finished span to a file as one JSON object a line.

Input: finished SDK spans (`ReadableSpan`), in the batches the span processor hands over.
Output: lines of `{"name", "trace_id", "span_id", "parent_span_id", "kind", "start_ns",
"end_ns", "status", "status_description", "attributes", "events", "resource", "scope"}`
(ids in lower-case hex, as OTLP/JSON writes them). Invariants: one `write` per batch under a
lock, so lines of concurrent batches never interleave; the file is opened for appending, so
several runs may share one file; the resource and scope are encoded once per batch, as
every span of a provider shares them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

_encode = json.JSONEncoder(ensure_ascii=False).encode


class JsonlSpanExporter(SpanExporter):
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._file = self.path.open("a", encoding="utf-8")

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        text = "".join(lines(spans))
        with self._lock:
            if self._file.closed:
                return SpanExportResult.FAILURE
            self._file.write(text)
            self._file.flush()
        return SpanExportResult.SUCCESS

    def shutdown(self) -> None:
        with self._lock:
            self._file.close()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True


def lines(spans: Sequence[ReadableSpan]) -> list[str]:
    """One line per span; the resource and scope, the same for a provider's every span,
    encoded once per batch."""
    tails: dict[tuple[int, int], str] = {}
    out = []
    for span in spans:
        key = (id(span.resource), id(span.instrumentation_scope))
        tail = tails.get(key)
        if tail is None:
            tail = tails[key] = _tail(span)
        out.append(_encode(own_dict(span))[:-1] + tail)
    return out


def span_dict(span: ReadableSpan) -> dict[str, Any]:
    """What one line holds."""
    scope = span.instrumentation_scope
    resource = {"resource": dict(span.resource.attributes)}
    return {**own_dict(span), **resource, "scope": scope.name if scope else None}


def own_dict(span: ReadableSpan) -> dict[str, Any]:
    """A line but its resource and scope."""
    ctx = span.get_span_context()
    parent = span.parent
    status = span.status
    return {
        "name": span.name,
        "trace_id": f"{ctx.trace_id:032x}" if ctx is not None else None,
        "span_id": f"{ctx.span_id:016x}" if ctx is not None else None,
        "parent_span_id": f"{parent.span_id:016x}" if parent is not None else None,
        "kind": span.kind.name,
        "start_ns": span.start_time,
        "end_ns": span.end_time,
        "status": status.status_code.name,
        "status_description": status.description,
        "attributes": dict(span.attributes or {}),
        "events": [
            {"name": e.name, "time_ns": e.timestamp, "attributes": dict(e.attributes or {})}
            for e in span.events
        ],
    }


def _tail(span: ReadableSpan) -> str:
    scope = span.instrumentation_scope
    resource = _encode(dict(span.resource.attributes))
    return f', "resource": {resource}, "scope": {_encode(scope.name if scope else None)}}}\n'
