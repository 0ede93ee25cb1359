"""A minimal real OTLP/HTTP trace receiver on 127.0.0.1: it decodes each protobuf
`ExportTraceServiceRequest` with opentelemetry-proto and keeps the spans it got."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


@dataclass
class Received:
    name: str
    span_id: str
    parent_id: str
    attributes: dict[str, Any]
    resource: dict[str, Any]


def _value(v: Any) -> Any:
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_value(x) for x in v.array_value.values]
    return getattr(v, kind) if kind else None


@dataclass
class OtlpReceiver:
    spans: list[Received] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)

    def __enter__(self) -> OtlpReceiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                request = ExportTraceServiceRequest.FromString(body)
                receiver.take(self.path, request)
                reply = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def take(self, path: str, request: ExportTraceServiceRequest) -> None:
        self.paths.append(path)
        for rs in request.resource_spans:
            resource = {a.key: _value(a.value) for a in rs.resource.attributes}
            for ss in rs.scope_spans:
                for s in ss.spans:
                    attrs = {a.key: _value(a.value) for a in s.attributes}
                    self.spans.append(
                        Received(s.name, s.span_id.hex(), s.parent_span_id.hex(), attrs, resource)
                    )

    def wait_for(self, count: int, timeout_s: float = 30.0) -> list[Received]:
        deadline = time.monotonic() + timeout_s
        while len(self.spans) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.spans
