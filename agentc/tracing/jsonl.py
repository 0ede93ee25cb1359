"""A span exporter that appends each finished span to a file as one JSON object a line.

Input: finished SDK spans (`ReadableSpan`), in the batches the span processor hands over.
Output: lines of `{"name", "trace_id", "span_id", "parent_span_id", "kind", "start_ns",
"end_ns", "status", "status_description", "attributes", "events", "resource", "scope"}`
(ids in lower-case hex, as OTLP/JSON writes them). Invariants: one `write` per batch under a
lock, so lines of concurrent batches never interleave; the file is opened for appending, so
several runs may share one file.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult


class JsonlSpanExporter(SpanExporter):
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._file = self.path.open("a", encoding="utf-8")

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        text = "".join(json.dumps(span_dict(s), ensure_ascii=False) + "\n" for s in spans)
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


def span_dict(span: ReadableSpan) -> dict[str, Any]:
    ctx = span.get_span_context()
    parent = span.parent
    return {
        "name": span.name,
        "trace_id": f"{ctx.trace_id:032x}" if ctx is not None else None,
        "span_id": f"{ctx.span_id:016x}" if ctx is not None else None,
        "parent_span_id": f"{parent.span_id:016x}" if parent is not None else None,
        "kind": span.kind.name,
        "start_ns": span.start_time,
        "end_ns": span.end_time,
        "status": span.status.status_code.name,
        "status_description": span.status.description,
        "attributes": dict(span.attributes or {}),
        "events": [
            {"name": e.name, "time_ns": e.timestamp, "attributes": dict(e.attributes or {})}
            for e in span.events
        ],
        "resource": dict(span.resource.attributes),
        "scope": span.instrumentation_scope.name if span.instrumentation_scope else None,
    }
