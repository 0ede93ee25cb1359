"""Tracing the graphs a server serves (`agentc serve`, `agentc worker`): a served file's
`trace` line, or the standard `OTEL_EXPORTER_OTLP_*` variables, send every run's spans as
`agentc run` sends one run's.

Input: a bound graph, its `trace` line (None: the file has none) and the served file's
folder. Output: `trace_served` instruments the graph (or leaves it alone: nothing turns
tracing on, `trace none`, or the `otel` extra is missing, which is said once on stderr).
Invariants: one pipeline (provider, batch processor, exporter) per distinct target in the
process, shared by every graph that sends there, so a stateless run's fresh graph costs no
new exporter; the SDK's exit hook shuts the providers down, which sends what is queued;
nothing of OpenTelemetry is imported unless a graph is traced; the file's `trace` line
wins over the variables, as it does for `agentc run`.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import ENDPOINT_ENV, SinkKind, TraceSettings, parse_target, settings_from_env

if TYPE_CHECKING:
    import agentc.ir as ir

INSTALL = "pip install 'agentc[otel]'"
_PIPELINES: dict[TraceSettings, Any] = {}
_LOCK = threading.Lock()
_WARNED: list[bool] = []


def served_settings(line: ir.TraceSpec | None, base_dir: str) -> TraceSettings | None:
    """Where a served graph's spans go (None: not traced)."""
    if line is None:
        return settings_from_env()
    if line.target is None:  # `trace none`: off, whatever the variables say
        return None
    settings = parse_target(line.target, line.content)
    if settings.kind is SinkKind.JSONL and settings.where is not None:
        return TraceSettings(SinkKind.JSONL, str(Path(base_dir) / settings.where), line.content)
    return settings


def trace_served(graph: Any, line: ir.TraceSpec | None, base_dir: str) -> None:
    """Trace every run of a served graph when its file or the environment asks."""
    settings = served_settings(line, base_dir)
    if settings is None:
        return
    if importlib.util.find_spec("opentelemetry.sdk") is None:
        if not _WARNED:
            _WARNED.append(True)
            what = ENDPOINT_ENV if settings.from_env else "a served file's `trace` line"
            print(f"note: {what} asks for traces, but tracing needs {INSTALL}", file=sys.stderr)
        return
    from .traced import instrument

    instrument(graph, tracer_provider=_pipeline(settings).provider, content=settings.content)


def _pipeline(settings: TraceSettings) -> Any:
    with _LOCK:
        found = _PIPELINES.get(settings)
        if found is None:
            from .setup import pipeline_for

            # the exporter's own retry warnings are library log lines, not the server's
            logging.getLogger("opentelemetry.exporter.otlp").setLevel(logging.CRITICAL)
            found = _PIPELINES[settings] = pipeline_for(settings)
        return found


def providers() -> list[Any]:
    """The providers of the served graphs' pipelines so far (the studio adds its ring)."""
    with _LOCK:
        return [p.provider for p in _PIPELINES.values()]
