"""The lean HTTP/1.1 client that carries calls to a plain `http://` endpoint (h1.py).

Every answer comes from a real server on 127.0.0.1 that writes scripted bytes: body framings
(Content-Length, chunked with extensions and trailers, until close), interim 1xx answers,
content codings, connections kept alive or closed, a forward proxy taken from the
environment (the call then goes through httpx and the proxy, as before).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import socket
import threading
import zlib
from http.client import HTTPConnection

import pytest
from support.provider_kit import ask, collect, openai_model, run

from agentc.stdlib.providers import h1, http
from agentc.stdlib.providers.errors import ProviderConnectionError, ProviderError

REPLY = json.dumps({"choices": [{"message": {"role": "assistant", "content": "ok"}}]}).encode()


def whole(body: bytes = REPLY, *headers: bytes) -> list[bytes]:
    head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
    head += b"".join(h + b"\r\n" for h in headers)
    return [head + b"content-length: %d\r\n\r\n" % len(body) + body]


def chunked(body: bytes, size: int = 7) -> list[bytes]:
    """The body in chunks of `size`, each chunk line with an extension, then a trailer; every
    piece a write of its own."""
    out = [b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"]
    out[0] += b"transfer-encoding: chunked\r\n\r\n"
    for i in range(0, len(body), size):
        piece = body[i : i + size]
        out += [b"%x;ext=1\r\n" % len(piece), piece, b"\r\n"]
    return [*out, b"0\r\n", b"x-trailer: 1\r\n\r\n"]


class ScriptedServer:
    """Answers each request it reads with the next script (a list of writes); a script ending
    in `None` closes the connection after it. Counts the connections it accepted."""

    def __init__(self, *scripts: list[bytes | None]) -> None:
        self.scripts = list(scripts)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(60)
        self.connections = 0
        self.requests: list[bytes] = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}/v1"

    def _accept(self) -> None:
        while self.scripts:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with conn:
            data = b""
            while self.scripts:
                while b"\r\n\r\n" not in data:
                    more = conn.recv(65536)
                    if not more:
                        return
                    data += more
                head, _, data = data.partition(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                while len(data) < length:
                    data += conn.recv(65536)
                self.requests.append(head + b"\r\n\r\n" + data[:length])
                data = data[length:]
                for piece in self.scripts.pop(0):
                    if piece is None:
                        return
                    conn.sendall(piece)


def model(server: ScriptedServer, **options):
    class Url:
        openai_base_url = server.url

    return openai_model(Url, max_retries=0, **options)


def texts(server: ScriptedServer, calls: int = 1, **options) -> list[str]:
    m = model(server, **options)

    async def go():
        out = []
        for _ in range(calls):
            out.append((await m.generate(ask())).text)
            await asyncio.sleep(0.05)  # time for a closed connection's end to arrive
        return out

    return run(go())


def test_the_lean_client_runs_on_uvloop(keys):
    """`agentc serve` runs under uvicorn, whose loop is uvloop's: its transports are not
    `asyncio.Transport` subclasses, and a call must still go through (and reuse its
    connection)."""
    uvloop = pytest.importorskip("uvloop")
    server = ScriptedServer(*[whole()] * 2)
    m = model(server)

    async def go():
        try:
            return [(await m.generate(ask())).text for _ in range(2)]
        finally:
            await http.close_clients()

    assert uvloop.run(go()) == ["ok", "ok"]
    assert server.connections == 1


def test_one_kept_alive_connection_carries_every_call(keys):
    server = ScriptedServer(*[whole()] * 3)
    assert texts(server, 3) == ["ok"] * 3
    assert server.connections == 1
    head = server.requests[0].split(b"\r\n\r\n")[0].lower()
    assert head.startswith(b"post /v1/chat/completions http/1.1\r\n")
    assert b"authorization: bearer sk-test-openai" in head and b"accept-encoding: gzip" in head


@pytest.mark.parametrize("size", [1, 7, 4096])
def test_a_chunked_reply_with_extensions_and_trailers(keys, size):
    server = ScriptedServer(chunked(REPLY, size), whole())
    assert texts(server, 2) == ["ok", "ok"]
    assert server.connections == 1  # the chunked reply ended cleanly: the connection is reused


def test_a_reply_delimited_by_the_close_of_the_connection(keys):
    head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n"
    server = ScriptedServer([head, REPLY[:10], REPLY[10:], None], whole())
    assert texts(server, 2) == ["ok", "ok"]
    assert server.connections == 2


def test_interim_answers_before_the_reply(keys):
    early = b"HTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\n"
    server = ScriptedServer([early, *whole()])
    assert texts(server) == ["ok"]


def test_a_connection_the_server_closed_is_not_reused(keys):
    server = ScriptedServer([*whole(), None], whole(REPLY, b"connection: close"), whole())
    assert texts(server, 3) == ["ok"] * 3  # no retries allowed: never a dead connection
    assert server.connections == 3


def _deflate_raw(data: bytes) -> bytes:
    obj = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return obj.compress(data) + obj.flush()


CODINGS = {
    "gzip": gzip.compress,
    "deflate": zlib.compress,  # zlib-wrapped
    "deflate-raw": _deflate_raw,  # raw, as some servers send `deflate`
    "gzip-twice": lambda d: gzip.compress(gzip.compress(d)),
}


@pytest.mark.parametrize("coding", sorted(CODINGS))
def test_content_codings_are_decoded(keys, coding):
    name = {"deflate-raw": "deflate", "gzip-twice": "gzip, gzip"}.get(coding, coding)
    body = CODINGS[coding](REPLY)
    server = ScriptedServer(whole(body, b"content-encoding: " + name.encode()))
    assert texts(server) == ["ok"]


def test_zstd_is_decoded_when_zstandard_is_installed(keys):
    zstandard = pytest.importorskip("zstandard")
    body = zstandard.ZstdCompressor().compress(REPLY)
    server = ScriptedServer(whole(body, b"content-encoding: zstd"))
    assert texts(server) == ["ok"]


def test_a_chunked_gzip_stream_is_read_as_it_arrives(keys):
    events = b"".join(
        b"data: " + json.dumps(e).encode() + b"\n\n"
        for e in [
            {"choices": [{"index": 0, "delta": {"content": "he"}}]},
            {"choices": [{"index": 0, "delta": {"content": "llo"}, "finish_reason": "stop"}]},
        ]
    )
    events += b"data: [DONE]\n\n"
    script = chunked(gzip.compress(events), 5)
    script[0] = script[0].replace(b"\r\n\r\n", b"\r\ncontent-encoding: gzip\r\n\r\n")
    server = ScriptedServer(script)
    deltas = run(collect(model(server), ask()))
    assert "".join(d.text for d in deltas) == "hello"


@pytest.mark.parametrize(
    "script",
    [
        [b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{", None],  # the body breaks off
        [b"NOT HTTP\r\n\r\n"],  # no status line
        [b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n"],  # a bad chunk size
        [b"HTTP/1.1 200 OK\r\ncontent-length: 1, 2\r\n\r\n{"],  # two lengths
        [None],  # closed without an answer
    ],
)
def test_a_broken_answer_is_a_connection_error_naming_the_provider(keys, script):
    server = ScriptedServer(script)
    with pytest.raises(ProviderConnectionError, match="openai request failed: connection failed"):
        texts(server)


def test_a_header_that_cannot_be_sent_is_not_retried(keys):
    server = ScriptedServer(whole())
    with pytest.raises(ProviderError, match="cannot be sent") as caught:
        texts(server, headers={"x-bad": "a\r\nb"})
    assert not caught.value.retryable and server.connections == 0


class ForwardProxy:
    """A plain HTTP forward proxy on 127.0.0.1: reads an absolute-form request, sends it on
    with http.client, writes the answer back, and notes the request line."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(60)
        self.lines: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        with conn, conn.makefile("rb") as rfile:
            while line := rfile.readline():
                self.lines.append(line.strip())
                method, url, _ = line.decode().split(" ")
                headers = {}
                while (h := rfile.readline().strip()) != b"":
                    k, _, v = h.decode().partition(":")
                    headers[k.strip().lower()] = v.strip()
                body = rfile.read(int(headers.get("content-length", 0)))
                rest = url.removeprefix("http://")
                hostport, _, path = rest.partition("/")
                host, _, port = hostport.partition(":")
                upstream = HTTPConnection(host, int(port or 80), timeout=60)
                headers.pop("accept-encoding", None)
                upstream.request(method, "/" + path, body, headers)
                answer = upstream.getresponse()
                data = answer.read()
                conn.sendall(
                    b"HTTP/1.1 %d OK\r\ncontent-type: application/json\r\n"
                    b"content-length: %d\r\n\r\n%s" % (answer.status, len(data), data)
                )
                upstream.close()


def test_a_proxy_in_the_environment_is_honoured(keys, monkeypatch):
    server, proxy = ScriptedServer(whole()), ForwardProxy()
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.listener.getsockname()[1]}")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    assert h1.lean_target(server.url) is None
    assert texts(server) == ["ok"]
    assert proxy.lines == [f"POST {server.url}/chat/completions HTTP/1.1".encode()]


def test_the_lean_client_serves_plain_http_only():
    assert h1.lean_target("http://127.0.0.1:8080/v1") == ("127.0.0.1", 8080, "127.0.0.1:8080")
    assert h1.lean_target("http://[::1]/v1") == ("::1", 80, "[::1]")
    for url in ("https://api.openai.com/v1", "http://u:p@h/v1", "http://h/v1?x=1"):
        assert h1.lean_target(url) is None


def test_close_clients_closes_the_kept_connections(keys):
    server = ScriptedServer(whole(), whole())
    m = model(server)

    async def go():
        await m.generate(ask())
        wire = http._wire_for(m._settings.endpoint)
        assert wire is not None and len(wire.idle) == 1
        await http.close_clients()
        assert not wire.idle

    asyncio.run(go())


def test_a_whole_reply_that_fails_gives_its_connection_back(keys):
    """A body that breaks off, or runs past the `timeout`, closes its connection and frees
    its slot in the pool (a pool of leaked slots would refuse calls after a thousand)."""
    broken = [b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{", None]
    slow = [b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"]  # and then nothing
    server = ScriptedServer(broken, slow, whole())
    m = model(server, timeout=0.3)

    async def go():
        wire = None
        for _ in range(2):
            with pytest.raises(ProviderConnectionError):
                await m.generate(ask())
            wire = http._wire_for(m._settings.endpoint)
            assert wire is not None and wire.in_flight == 0
        return (await m.generate(ask())).text

    assert run(go()) == "ok"


def test_an_idle_connection_past_the_keep_alive_expiry_is_not_reused(keys, monkeypatch):
    monkeypatch.setattr(h1, "KEEPALIVE_EXPIRY_S", 0.0)
    server = ScriptedServer(whole(), whole())
    assert texts(server, 2) == ["ok", "ok"]
    assert server.connections == 2
