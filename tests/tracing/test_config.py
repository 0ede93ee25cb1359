"""Where spans go: `--trace` values and the standard OpenTelemetry variables."""

from __future__ import annotations

import pytest

from agentc.tracing.config import (
    SinkKind,
    TraceSettings,
    TraceTargetError,
    content_wanted,
    parse_target,
    settings_from_env,
)


@pytest.mark.parametrize(
    ("text", "kind", "where"),
    [
        ("otlp://localhost:6006", SinkKind.OTLP, "http://localhost:6006/v1/traces"),
        ("http://collector:4318", SinkKind.OTLP, "http://collector:4318/v1/traces"),
        (
            "https://x.example/api/public/otel/",
            SinkKind.OTLP,
            "https://x.example/api/public/otel/v1/traces",
        ),
        ("https://x.example/v1/traces", SinkKind.OTLP, "https://x.example/v1/traces"),
        ("runs/today.jsonl", SinkKind.JSONL, "runs/today.jsonl"),
    ],
)
def test_trace_targets(text, kind, where):
    assert parse_target(text) == TraceSettings(kind, where)


@pytest.mark.parametrize("text", ["localhost:6006", "otlp://localhost", "spans.json", "ftp://x:1"])
def test_what_is_not_a_trace_target(text):
    with pytest.raises(TraceTargetError, match="otlp://HOST:PORT"):
        parse_target(text)


def test_the_standard_variables():
    assert settings_from_env({}) is None
    on = settings_from_env({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"})
    assert on == TraceSettings(SinkKind.OTLP, None, False, from_env=True)
    assert settings_from_env({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"})
    off = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "true"}
    assert settings_from_env(off) is None
    none = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"}
    assert settings_from_env(none) is None
    grpc = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}
    with pytest.raises(TraceTargetError, match="http/protobuf"):
        settings_from_env(grpc)


def test_contents_are_asked_for_by_flag_or_variable():
    name = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
    assert not content_wanted(False, {})
    assert content_wanted(True, {})
    assert content_wanted(False, {name: "True"})
    assert not content_wanted(False, {name: "false"})
