"""The tracing tests need the `otel` extra; without it they are skipped, saying so."""

import pytest

pytest.importorskip(
    "opentelemetry.sdk", reason="tracing needs the otel extra: pip install -e '.[otel]'"
)
