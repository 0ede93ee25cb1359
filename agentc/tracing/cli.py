"""`agentc run --trace WHERE [--trace-content]`: the flags, their checks, and the run's
tracing switched on and flushed. Imports nothing of OpenTelemetry until a run is traced.

Input: the parsed command line and the environment (`.env` files already loaded).
Output: `trace_settings(args)` → `TraceSettings` or None (a bad value is a `UsageError`,
exit 2, before anything runs); `traced(compiled, settings)` instruments the graph for the
run and, when it ends however it ends, shuts the provider down, which sends every span
still queued. Invariants: `--trace` needs the `otel` extra (said how to install it);
tracing turned on only by the OTLP variables, without the extra, is a note, not a failure.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from agentc.runner.errors import UsageError

from .config import (
    ENDPOINT_ENV,
    SinkKind,
    TraceSettings,
    TraceTargetError,
    content_wanted,
    parse_target,
    settings_from_env,
)

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.runtime.compiled import CompiledGraph

INSTALL = "pip install 'agentc[otel]'"


def add_trace_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--trace",
        metavar="WHERE",
        help="send the run's OpenTelemetry spans to WHERE: otlp://HOST:PORT (OTLP over "
        "HTTP: Phoenix, Langfuse, LangSmith, a collector) or FILE.jsonl (one span a line)",
    )
    parser.add_argument(
        "--trace-content",
        action="store_true",
        help="put messages, prompts, tool arguments and results on the spans (passed "
        "through the file's pii middleware; keys never)",
    )


def check_trace_arguments(args: argparse.Namespace) -> None:
    """A bad `--trace` is a usage error before the file is even compiled."""
    if args.trace:
        trace_settings(args)


def trace_settings(
    args: argparse.Namespace, line: ir.TraceSpec | None = None
) -> TraceSettings | None:
    """Where this run's spans go (None: not traced), or a `UsageError` saying why not.

    `--trace` first, then the file's `trace` line (`line`: `trace none` turns tracing off,
    the OTEL_* variables too), then the variables."""
    try:
        if args.trace:
            settings = parse_target(args.trace, content_wanted(args.trace_content))
        elif line is not None:
            settings = _from_file(line, Path(args.file).parent)
        else:
            settings = settings_from_env()
    except TraceTargetError as exc:
        raise UsageError(str(exc)) from None
    if settings is None:
        if args.trace_content:
            raise UsageError(
                f"--trace-content puts contents on the run's spans, but nothing says where "
                f"to send them: add --trace WHERE (or set {ENDPOINT_ENV})"
            )
        return None
    if settings.kind is SinkKind.JSONL and settings.where is not None:
        _check_writable(Path(settings.where))
    if importlib.util.find_spec("opentelemetry.sdk") is None:
        if settings.from_env:
            print(f"note: {ENDPOINT_ENV} is set, but tracing needs {INSTALL}", file=sys.stderr)
            return None
        raise UsageError(f"--trace needs the OpenTelemetry packages: {INSTALL}")
    return replace(settings, content=True) if args.trace_content else settings


def _from_file(line: ir.TraceSpec, base: Path) -> TraceSettings | None:
    """The file's `trace` line (checked by the compiler); a `.jsonl` path is relative to the
    `.agent` file's folder, as a checkpoint's file is."""
    if line.target is None:
        return None
    settings = parse_target(line.target, line.content or content_wanted(False))
    if settings.kind is SinkKind.JSONL and settings.where is not None:
        return replace(settings, where=str(base / settings.where))
    return settings


def _check_writable(path: Path) -> None:
    """A trace file that cannot be written is refused before the run, not lost after it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UsageError(f"--trace {path}: cannot write the file ({exc.strerror})") from None


@contextmanager
def traced(compiled: CompiledGraph, settings: TraceSettings | None) -> Iterator[None]:
    """The run's spans sent as `settings` say (nothing at all when None)."""
    if settings is None:
        yield
        return
    from .setup import pipeline_for  # OpenTelemetry loads only for a traced run
    from .traced import instrument, uninstrument

    # the exporter's own retry warnings are library log lines; one note says it all
    logging.getLogger("opentelemetry.exporter.otlp").setLevel(logging.CRITICAL)
    pipeline = pipeline_for(settings)
    instrument(compiled, tracer_provider=pipeline.provider, content=settings.content)
    try:
        yield
    finally:
        uninstrument(compiled)
        pipeline.provider.shutdown()
        if pipeline.exporter.lost:
            print(
                f"note: {pipeline.exporter.lost} spans of this run could not be sent to "
                f"{pipeline.where} (is the collector running?)",
                file=sys.stderr,
            )
