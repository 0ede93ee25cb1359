"""OpenTelemetry traces of agentc runs, in the GenAI semantic conventions (the `otel` extra).

`agentc run --trace otlp://HOST:PORT` (or `--trace FILE.jsonl`, or the standard
`OTEL_EXPORTER_OTLP_ENDPOINT`) traces a run from the command line; from Python,
`agentc.tracing.instrument(graph, tracer_provider=…, content=…)` traces every run of a
loaded graph. Spans: `invoke_agent {name}` (or `invoke_workflow {name}`) per run, `chat
{model}` per model call, `execute_tool {tool}` per tool call, one per middleware hook node,
and sub-agents nested under the tool call that ran them (recorder.py), recorded as plain
records on the run's thread (records.py) and built into the SDK's spans on the export side
(ship.py). `agentc serve` traces its graphs through served.py. Contents only when asked
for, through the file's `pii` middleware (content.py).

Input: nothing at import. Output: `instrument`, `uninstrument` (loaded on first use, with
OpenTelemetry), `TraceSettings`, `parse_target`, `settings_from_env`, `JsonlSpanExporter`;
`ring.SpanRing`, the span processor that keeps recent runs' spans in memory for the studio.
Invariants: importing this package imports nothing of OpenTelemetry nor the runtime.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .config import SinkKind, TraceSettings, TraceTargetError, parse_target, settings_from_env

if TYPE_CHECKING:
    from .jsonl import JsonlSpanExporter
    from .traced import instrument, uninstrument

__all__ = [
    "JsonlSpanExporter",
    "SinkKind",
    "TraceSettings",
    "TraceTargetError",
    "instrument",
    "parse_target",
    "settings_from_env",
    "uninstrument",
]

_LAZY = {
    "instrument": "agentc.tracing.traced",
    "uninstrument": "agentc.tracing.traced",
    "JsonlSpanExporter": "agentc.tracing.jsonl",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'agentc.tracing' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
