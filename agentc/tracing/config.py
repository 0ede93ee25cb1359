"""Where a run's spans go, and whether they carry contents: read from the command line and
the standard OpenTelemetry environment variables. Imports nothing of OpenTelemetry.

Input: the `--trace` text (`otlp://HOST:PORT`, an `http(s)://` URL, or `FILE.jsonl`), the
`--trace-content` flag and the environment. Output: `TraceSettings` (None: tracing off) or
`TraceTargetError` naming what was wrong and the forms that work. Invariants: the standard
variables are read as the OpenTelemetry SDK reads them (`OTEL_SDK_DISABLED`,
`OTEL_TRACES_EXPORTER=none`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` used as given,
`OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces` added); only OTLP over HTTP is spoken.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
TRACES_ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_ENDPOINT"
TRACES_PATH = "/v1/traces"
FORMS = "otlp://HOST:PORT, an http(s):// collector URL, or a FILE.jsonl"


class TraceTargetError(ValueError):
    """A `--trace` value or an OpenTelemetry variable that names no place to send spans."""


class SinkKind(str, enum.Enum):
    OTLP = "otlp"  # OTLP/HTTP (protobuf) to a collector, Phoenix, Langfuse, LangSmith …
    JSONL = "jsonl"  # one span per line in a local file


@dataclass(frozen=True, slots=True)
class TraceSettings:
    kind: SinkKind
    where: str | None  # the traces URL, the file path; None: the exporter reads the env
    content: bool = False  # messages, prompts, tool arguments and results on the spans
    from_env: bool = False  # turned on by the environment, not by `--trace`


def parse_target(text: str, content: bool = False) -> TraceSettings:
    """`--trace TEXT` as settings, or `TraceTargetError`."""
    if text.endswith(".jsonl"):
        return TraceSettings(SinkKind.JSONL, text, content)
    parts = urlsplit(text)
    if parts.scheme == "otlp" and parts.hostname and parts.port:
        return TraceSettings(SinkKind.OTLP, f"http://{parts.netloc}{TRACES_PATH}", content)
    if parts.scheme in ("http", "https") and parts.hostname:
        path = parts.path.rstrip("/")
        url = text if path.endswith(TRACES_PATH) else f"{text.rstrip('/')}{TRACES_PATH}"
        return TraceSettings(SinkKind.OTLP, url, content)
    raise TraceTargetError(f"--trace {text!r} names no place to send traces; give {FORMS}")


def content_wanted(flag: bool, env: Mapping[str, str] | None = None) -> bool:
    """`--trace-content`, or the GenAI instrumentations' content variable set to true."""
    env = os.environ if env is None else env
    return flag or env.get(CONTENT_ENV, "").strip().lower() == "true"


def settings_from_env(env: Mapping[str, str] | None = None) -> TraceSettings | None:
    """Tracing turned on by the standard variables alone (None: they turn nothing on)."""
    env = os.environ if env is None else env
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return None
    if env.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "none":
        return None
    if not (env.get(TRACES_ENDPOINT_ENV) or env.get(ENDPOINT_ENV)):
        return None
    protocol = env.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or env.get(
        "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"
    )
    if protocol.strip() != "http/protobuf":
        raise TraceTargetError(
            f"OTEL_EXPORTER_OTLP_PROTOCOL is {protocol!r}, but agentc sends traces over "
            "OTLP/HTTP only; set it to http/protobuf (or unset it) and point the endpoint "
            "at the collector's HTTP port (4318 by default)"
        )
    return TraceSettings(SinkKind.OTLP, None, content_wanted(False, env), from_env=True)
