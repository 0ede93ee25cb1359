"""The studio page's own endpoints, beside the Agent Server API: an assistant's decision
map and a run's spans.

Input: requests from the studio page. Output: `routes(ctx)`, Starlette routes under
`/studio/api/` (the page's, not the Agent Server API's: they are not in `/openapi.json`):

- `GET /studio/api/assistants/{assistant_id}/decisions`: the decision map, as
  `agentc explain --format json` prints it;
- `GET /studio/api/runs/{run_id}/trace`: the run's spans, with time, tokens and cost;
- `GET /studio/api/tracing`: whether this server keeps spans, and what it cannot show.

Invariants: spans are kept in memory, in a bounded ring (`agentc.tracing.ring`), only of
runs this process makes, from the first request to `/studio/api/` on (a server nobody
watches with the studio traces nothing and loads nothing of OpenTelemetry); without the
`otel` extra the trace answers say how to install it; file paths are shown as the
assistants' own are (`shown_path`: never absolute).
"""

from __future__ import annotations

import importlib.util
import threading
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from agentc import review

from .assistants import Registry, shown_path
from .errors import ApiError
from .routing import Context, ok

if TYPE_CHECKING:
    from agentc.tracing.ring import SpanRing

PREFIX = "/studio/api"
INSTALL = "pip install 'agentc[otel]'"
LIMITS = (
    "spans are kept in this server's memory: only of runs made in this process since a "
    "studio page first opened (not of runs in worker processes, nor of runs without a "
    "thread), of the last 200 runs at most"
)


class StudioTraces:
    """The spans of this process's runs, collected once a studio page asks for them."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.ring: SpanRing | None = None
        self.missing = importlib.util.find_spec("opentelemetry.sdk") is None
        self._lock = threading.Lock()

    def start(self) -> SpanRing | None:
        """Trace every served graph's runs into the ring from now on (None: no `otel`)."""
        if self.ring is not None or self.missing:
            return self.ring
        with self._lock:
            if self.ring is None:
                self.ring = self._instrument()
        return self.ring

    def _instrument(self) -> SpanRing:
        from opentelemetry.sdk.trace import TracerProvider

        from agentc.tracing import instrument
        from agentc.tracing.ring import SpanRing
        from agentc.tracing.served import providers

        ring, provider = SpanRing(), TracerProvider()
        provider.add_span_processor(ring)
        for served in providers():  # graphs traced to a backend keep sending there, and show
            served.add_span_processor(ring)
        for assistant in self.registry.all():
            graph = self.registry.graph(assistant)
            if graph.observer is None:
                instrument(graph, tracer_provider=provider)
        return ring


def routes(ctx: Context) -> list[Route]:
    traces = StudioTraces(ctx.registry)
    maps: dict[str, dict[str, Any]] = {}  # assistant id → its decision map (files do not change)

    async def tracing(request: Request) -> Response:
        ring = traces.start()
        note = f"traces need the otel extra: {INSTALL}" if ring is None else LIMITS
        return ok({"available": ring is not None, "note": note})

    async def decisions(request: Request) -> Response:
        traces.start()
        a = ctx.registry.find(request.path_params["assistant_id"])
        if a.assistant_id not in maps:
            dmap = review.decision_map(a.program.graph(a.graph_id), program=a.program)
            maps[a.assistant_id] = _shown(review.to_json(dmap))
        return ok(maps[a.assistant_id])

    async def run_trace(request: Request) -> Response:
        ring = traces.start()
        run_id = request.path_params["run_id"]
        if ring is None:
            raise ApiError(404, f"no spans of run {run_id!r}: {INSTALL}", expected=INSTALL)
        found = ring.run(run_id)
        if found is None:
            raise ApiError(404, f"no spans of run {run_id!r} in this server", expected=LIMITS)
        for span in found["spans"]:
            span["attributes"] = _shown(span["attributes"])
        return ok(found)

    return [
        Route(f"{PREFIX}/tracing", tracing, methods=["GET"]),
        Route(f"{PREFIX}/assistants/{{assistant_id}}/decisions", decisions, methods=["GET"]),
        Route(f"{PREFIX}/runs/{{run_id}}/trace", run_trace, methods=["GET"]),
    ]


def _shown(value: Any) -> Any:
    """File names (a `file` value, a `file:line` source) as `shown_path` shows them."""
    if isinstance(value, dict):
        return {k: _shown_field(k, v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shown(v) for v in value]
    return value


def _shown_field(key: str, value: Any) -> Any:
    if key == "file" and isinstance(value, str):
        return shown_path(value)
    if key == "agentc.source" and isinstance(value, str) and ":" in value:
        path, _, line = value.rpartition(":")
        return f"{shown_path(path)}:{line}"
    return _shown(value)
