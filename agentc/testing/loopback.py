"""The life cycle the fake servers share: a threaded HTTP server on a loopback port.

A subclass sets `self._httpd` (a `ThreadingHTTPServer`) in its `__init__`; `start`,
`stop` and the context-manager protocol run it on a daemon thread.
"""

from __future__ import annotations

import threading
from http.server import ThreadingHTTPServer
from typing import TypeVar

S = TypeVar("S", bound="LoopbackServer")


class LoopbackServer:
    _httpd: ThreadingHTTPServer
    _thread: threading.Thread | None = None

    @property
    def origin(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self: S) -> S:
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self: S) -> S:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
