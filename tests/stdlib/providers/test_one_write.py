"""Requests and answers travel in one TCP segment each, counted by the kernel.

The fake provider server sends an answer's headers and body in one write with TCP_NODELAY
(two writes cost a client that delays its ACK about 40 ms on Linux, and every test and
benchmark through the fake server measured that stall). What is asserted is the receiver's
count of segments that carried data (`tcpi_data_segs_in` of `TCP_INFO`), not a time.
"""

from __future__ import annotations

import json
import socket
import struct
import sys
import threading

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="TCP_INFO's segment counts are Linux's"
)

_DATA_SEGS_IN = 152  # offset of tcpi_data_segs_in in struct tcp_info (Linux 4.6 and later)


def data_segments_in(sock: socket.socket) -> int:
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    if len(info) < _DATA_SEGS_IN + 4:
        pytest.skip("this kernel's TCP_INFO has no tcpi_data_segs_in")
    return struct.unpack_from("I", info, _DATA_SEGS_IN)[0]


def read_message(sock: socket.socket) -> bytes:
    """One HTTP message (head and a Content-Length body) off `sock`."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def test_the_fake_server_sends_each_answer_in_one_segment(fake_server):
    from agentc.testing.fake_provider import FakeReply

    fake_server.push(FakeReply(text="hello"), FakeReply(text="again"))
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode()
    request = (
        b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n%s" % (len(body), body)
    )
    host, port = fake_server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=60) as sock:
        for n in (1, 2):  # a kept-alive connection's later answers too
            sock.sendall(request)
            answer = read_message(sock)
            assert b'"content":"hello"' in answer.replace(b" ", b"") or n == 2
            assert data_segments_in(sock) == n


class OneAnswerServer:
    """A raw HTTP server on 127.0.0.1 that reads one request, counts the segments it came
    in, and answers with a chat completion."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(60)
        self.segments: list[int] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}"

    def _serve(self) -> None:
        conn, _ = self.listener.accept()
        with conn:
            conn.settimeout(60)
            read_message(conn)
            self.segments.append(data_segments_in(conn))
            body = json.dumps(
                {"choices": [{"message": {"role": "assistant", "content": "ok"}}]}
            ).encode()
            conn.sendall(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n"
                b"content-length: %d\r\n\r\n%s" % (len(body), body)
            )


def test_agentc_sends_a_request_in_one_segment(keys):
    from support.provider_kit import ask, openai_model, run

    server = OneAnswerServer()

    class Where:
        openai_base_url = server.url + "/v1"

    assert run(openai_model(Where, max_retries=0).generate(ask())).text == "ok"
    server.thread.join(60)
    assert server.segments == [1]
