"""What the lean HTTP/1.1 client (h1.py) sends, and to which URLs.

Input: an endpoint's URL and headers. Output: whether the URL can go through the lean client
(`lean_target`: host, port and Host header) and the request head built once per endpoint and
path (`request_head`). Invariants: https, a proxy for http in the environment, credentials
or a query in the URL mean httpx carries the call, as before; the default headers are the
ones httpx sent (`Accept`, `Accept-Encoding`, `Connection`, `User-Agent`), the endpoint's own
override them; a header that cannot go on the wire is an `httpx.LocalProtocolError`.
"""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Mapping
from urllib.parse import urlsplit

import httpx

from .codings import ACCEPT_ENCODING

USER_AGENT = f"python-httpx/{httpx.__version__}"  # what was sent when httpx carried these calls
_SAFE_TARGET = re.compile(r"[!-~]+")
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


def lean_target(url: str) -> tuple[str, int, str] | None:
    """(host, port, Host header) when `url` can go through this client, else None (httpx).

    Only plain `http://` with no credentials, query or fragment, no proxy for http in the
    environment (httpx would honour one), and a path of printable ASCII."""
    parts = urlsplit(url)
    if parts.scheme != "http" or parts.username is not None or parts.query or parts.fragment:
        return None
    proxies = urllib.request.getproxies()
    if proxies.get("http") or proxies.get("all"):
        return None
    host = parts.hostname
    if not host or not _SAFE_TARGET.fullmatch(parts.path or "/"):
        return None
    port = parts.port or 80
    shown = f"[{host}]" if ":" in host else host
    return host, port, shown if port == 80 else f"{shown}:{port}"


def request_head(host_header: str, target: str, headers: Mapping[str, str]) -> bytes:
    """`POST target HTTP/1.1` and its headers, up to the value of Content-Length.

    A header name or value that cannot go on the wire is an `httpx.LocalProtocolError`, as
    httpx refuses it."""
    fields = {
        "host": host_header,
        "accept": "*/*",
        "accept-encoding": ACCEPT_ENCODING,
        "connection": "keep-alive",
        "user-agent": USER_AGENT,
    }
    for name, value in headers.items():
        fields[name.lower()] = value
    fields.pop("content-length", None)
    lines = [f"POST {target} HTTP/1.1"]
    for name, value in fields.items():
        if not _TOKEN.fullmatch(name) or any(c in value for c in "\r\n\0"):
            raise httpx.LocalProtocolError(f"header {name!r} cannot be sent as written")
        lines.append(f"{name}: {value.strip()}")
    lines.append("content-length: ")
    try:
        return "\r\n".join(lines).encode("ascii")
    except UnicodeEncodeError:
        raise httpx.LocalProtocolError("a header holds characters other than ASCII") from None
