"""The server's guards, as ASGI middleware: the API key, the request size limit, and ids
that hold a `/`.

Input: every HTTP request. Output: the request passed on, or a JSON refusal — 401 without
the key (`x-api-key: KEY` or `Authorization: Bearer KEY`), 413 for a body over the limit
(by its `Content-Length`, or counted as it arrives when it has none). `hide_secrets` blanks
secret-looking values before a run's request is stored. Invariants: keys
are compared in constant time (`hmac.compare_digest`); the key is never logged or echoed;
`/ok`, `/info` and `/openapi.json` answer without a key (health checks and clients that
probe the server before they log in, as LangGraph's server leaves them open), and so do
CORS preflights (`OPTIONS`), which carry no credentials by design.
"""

from __future__ import annotations

import hmac
import json
import re
from typing import Any
from urllib.parse import unquote

from starlette.types import ASGIApp, Message, Receive, Scope, Send

OPEN_PATHS = frozenset({"/ok", "/info", "/openapi.json"})
_SECRET_KEY = re.compile(r"api[_-]?key|token|secret|password|passwd|authorization|credential", re.I)
HIDDEN = "***"


def hide_secrets(value: Any) -> Any:
    """`value` with the values of secret-looking keys (`api_key`, `token`, `password` …)
    replaced: what a run's stored `kwargs` keep of its config and context, and so what
    `GET …/runs/{run_id}` shows. The run itself is given the real values."""
    if isinstance(value, dict):
        return {
            k: HIDDEN if isinstance(k, str) and _SECRET_KEY.search(k) else hide_secrets(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [hide_secrets(v) for v in value]
    return value


# A key that names a secret as a whole word (`api_key`, `access_token`, `db-password`), not
# one that only contains such a word (`max_tokens`): what refuses a body, not what blanks it
_SECRET_NAME = re.compile(
    r"(?:^|[_-])(?:api[_-]?key|token|secret|password|passwd|authorization|credentials?)(?:$|[_-])",
    re.I,
)


def secret_path(value: Any, path: str = "") -> str | None:
    """The dotted path of the first key in `value` that names a secret (`config.api_key`),
    or None: for a body the server would have to store whole (a cron's run)."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(
        value, list) else ()  # fmt: skip
    for k, v in items:
        here = f"{path}.{k}" if path else str(k)
        if isinstance(k, str) and _SECRET_NAME.search(k):
            return here
        if (found := secret_path(v, here)) is not None:
            return found
    return None


_ENCODED_SLASH = re.compile(rb"%2[fF]")


class EncodedSlashes:
    """An id may hold a `/`, sent as `%2F`. The ASGI server decodes it into the path, where
    it splits the id in two segments and the request reaches another route, or none
    (`PATCH /threads/%2F` was a redirect, `GET /assistants/a%2Fb` "no such endpoint"). The
    routes see the path with `%2F` kept, so the id stays one segment and gets its own
    answer (not a UUID, not found)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = scope.get("raw_path") if scope["type"] == "http" else None
        if raw and _ENCODED_SLASH.search(raw):
            parts = _ENCODED_SLASH.split(raw.split(b"?", 1)[0])
            text = [unquote(p.decode("latin-1"), errors="replace") for p in parts]
            scope = {**scope, "path": "%2F".join(text)}
        await self.app(scope, receive, send)


async def _refuse(send: Send, status: int, body: dict[str, Any], extra: list[Any]) -> None:
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + extra})
    await send({"type": "http.response.body", "body": data})


def _open(path: str) -> bool:
    """A path answered without the key: the open ones, and the studio page's own files
    (code, no data: the page asks for the key and sends it with every request for data,
    `/studio/api/` included)."""
    if path in OPEN_PATHS:
        return True
    page = path == "/studio" or path.startswith("/studio/")
    return page and not (path == "/studio/api" or path.startswith("/studio/api/"))


class ApiKeyGuard:
    def __init__(self, app: ASGIApp, key: str) -> None:
        self.app = app
        self._key = key.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] == "OPTIONS" or _open(scope["path"]):
            await self.app(scope, receive, send)
            return
        if not self._allowed(dict(scope["headers"])):
            body = {
                "detail": "this server needs an API key",
                "expected": "the key in an `x-api-key` header or `Authorization: Bearer KEY`",
            }
            await _refuse(send, 401, body, [(b"www-authenticate", b"Bearer")])
            return
        await self.app(scope, receive, send)

    def _allowed(self, headers: dict[bytes, bytes]) -> bool:
        given = headers.get(b"x-api-key")
        auth = headers.get(b"authorization", b"")
        if given is None and auth[:7].lower() == b"bearer ":
            given = auth[7:].strip()
        return given is not None and hmac.compare_digest(given, self._key)


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max = max_bytes

    def _too_big(self) -> dict[str, Any]:
        return {
            "detail": f"the request body is larger than this server takes ({self.max} bytes)",
            "expected": f"a body of at most {self.max} bytes (agentc serve --max-body)",
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max:
            await _refuse(send, 413, self._too_big(), [(b"connection", b"close")])
            return
        if length is not None:  # within the limit, and uvicorn stops a body at its length
            await self.app(scope, receive, send)
            return
        body = await self._read_within(receive)
        if body is None:
            await _refuse(send, 413, self._too_big(), [(b"connection", b"close")])
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # after the body: the client's disconnect
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _read_within(self, receive: Receive) -> bytes | None:
        """A body sent without a length (chunked), read whole; None once past the limit."""
        parts: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(parts)
            chunk = message.get("body", b"")
            total += len(chunk)
            if total > self.max:
                return None
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts)
