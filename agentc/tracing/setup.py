"""The tracer provider a `--trace` target (or the OTLP variables) asks for.

Input: `TraceSettings`. Output: a `Pipeline`: an SDK `TracerProvider` with a
`BatchSpanProcessor` in front of the OTLP/HTTP exporter or the JSONL file exporter, and the
count of spans that could not be sent; the caller shuts the provider down when the run
ends (which sends what is still queued) and tells the user if spans were lost. Invariants:
the resource is the SDK's (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES` apply) with
`service.name` `agentc` when none is set; with `where` None the OTLP exporter reads its
endpoint and headers from the standard variables itself; an unreachable collector costs
at most `EXPORT_TIMEOUT_S` at the end of a run unless `OTEL_EXPORTER_OTLP_*TIMEOUT` says
otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

from agentc.version import __version__

from .config import TRACES_PATH, SinkKind, TraceSettings
from .jsonl import JsonlSpanExporter

EXPORT_TIMEOUT_S = 3.0  # the SDK's 10 s is long to wait for a collector that is not there
_TIMEOUT_ENV = ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT")


class CountingExporter(SpanExporter):
    """Passes spans on, counting the ones that could not be delivered."""

    def __init__(self, inner: SpanExporter) -> None:
        self.inner = inner
        self.lost = 0

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        result = self.inner.export(spans)
        if result is not SpanExportResult.SUCCESS:
            self.lost += len(spans)
        return result

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self.inner.force_flush(timeout_millis)


@dataclass(frozen=True, slots=True)
class Pipeline:
    provider: TracerProvider
    exporter: CountingExporter
    where: str  # what the user is told when spans were lost


def exporter_for(settings: TraceSettings) -> tuple[SpanExporter, str]:
    if settings.kind is SinkKind.JSONL:
        assert settings.where is not None, "a JSONL target always names its file"
        return JsonlSpanExporter(settings.where), settings.where
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    timeout = None if any(os.environ.get(v) for v in _TIMEOUT_ENV) else EXPORT_TIMEOUT_S
    exporter = OTLPSpanExporter(endpoint=settings.where, timeout=timeout)
    return exporter, settings.where or _env_endpoint()


def _env_endpoint() -> str:
    traces = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    base = os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT", "")
    return traces or f"{base.rstrip('/')}{TRACES_PATH}"


def pipeline_for(settings: TraceSettings) -> Pipeline:
    own = {"service.version": __version__}
    named = os.environ.get("OTEL_SERVICE_NAME") or "service.name=" in os.environ.get(
        "OTEL_RESOURCE_ATTRIBUTES", ""
    )
    if not named:
        own["service.name"] = "agentc"
    provider = TracerProvider(resource=Resource.create(own))
    inner, where = exporter_for(settings)
    exporter = CountingExporter(inner)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    return Pipeline(provider, exporter, where)
