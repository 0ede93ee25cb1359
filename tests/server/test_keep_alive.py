"""An idle keep-alive connection of `agentc serve` outlasts the clients' own.

HTTP/1.1 lets a server close an idle connection at any moment; a request the client sends
on it as it closes gets no answer ("connection closed"). A client keeps an idle connection
as long as its pool allows (httpx's default, the SDK's client: 5 s) and, when busy, sends
on it later still; so the server must keep it open longer. uvicorn's default, 5 s, closed
connections under 8 to 37 requests a run of `bench/serve_bench.py` at 1,000 threads.
"""

from __future__ import annotations

import http.client
import socket
import time
from typing import Any
from urllib.parse import urlsplit

import httpx

# as long as the SDK's pool keeps an idle connection, and then the lag of a busy client
IDLE_S = httpx.Limits().keepalive_expiry + 2.0


def ask(conn: http.client.HTTPConnection) -> int:
    conn.request("GET", "/ok")
    answer = conn.getresponse()
    answer.read()
    return answer.status


def test_an_idle_connection_stays_open_longer_than_a_client_pool_keeps_it(served: Any) -> None:
    where = urlsplit(served.url)
    conn = http.client.HTTPConnection(where.hostname or "", where.port, timeout=30)
    try:
        assert ask(conn) == 200
        sock = conn.sock
        assert sock is not None
        time.sleep(IDLE_S)
        sock.settimeout(0)
        try:  # still open: nothing to read, not the end of the stream (a close)
            peeked = sock.recv(1, socket.MSG_PEEK)
        except BlockingIOError:
            peeked = None
        sock.settimeout(30)
        assert peeked is None, f"the server closed a connection idle for {IDLE_S} s"
        assert ask(conn) == 200
        assert conn.sock is sock  # the same connection answered, not a new one
    finally:
        conn.close()
