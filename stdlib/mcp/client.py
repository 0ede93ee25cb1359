"""An MCP client over the streamable HTTP transport: JSON-RPC 2.0 POSTed to one URL.

Input: a server URL (http or https; the compiler refuses other schemes, A10) and the
operations an agent needs: `list_tools` (every page, A9) and `call_tool`. Output: the
server's tools as `McpToolInfo` and each call's result as `McpCallResult`, both as the
server wrote them (B10, H5: nothing is checked or rewritten here).

Each operation opens its own session: `initialize`, `notifications/initialized`, the
requests, then a DELETE of the `Mcp-Session-Id` the server gave (LangChain's tools enter
their FastMCP client for every call the same way). Replies may be `application/json` or a
`text/event-stream` whose events carry the response and, before it, notifications (ignored)
or requests from the server: a server request is refused by raising `McpServerRequestError`
(D23: sampling, roots and the legacy server-initiated elicitation are not answered). A
`tools/call` result of type `input_required` (the newer multi-round-trip shape) is returned
as `McpInputRequired` for the caller to answer and retry (D22, tools.py).

Invariants: nothing is retried (E7: a tool call may not be idempotent); every failure is an
`McpError` (a `ProviderError`, so the CLI reports it as one) naming the server, and it
stops the run (E3/E12). That includes a reply of the wrong shape (issue 12): a `nextCursor`
that is not a string, an input schema nested more than MAX_SCHEMA_DEPTH deep, JSON nested too
deeply to decode, bytes that are not UTF-8, an `Mcp-Session-Id` that is not visible ASCII,
input-request params that are not an object; never a raw TypeError, RecursionError or
UnicodeError. The connection pool and the event-stream reader are the providers'
(`providers/http.py`); this module and that one are the only ones that import `httpx`.

Deadlines: httpx's timeouts bound each read, so a server that stalls, or streams keep-alive
comments for ever, would hold a run for good. Every operation here has a total deadline
instead, from opening its session to closing it: `list_tools` CONNECT_TIMEOUT_S (10 s),
`call_tool` CALL_TIMEOUT_S (30 s), each overridden by the `use` line's options; an
operation that runs out raises `McpTimeoutError`. (The tools node answers a tool call that
runs out as a tool error instead, before this deadline: `mcp/tools.py`.)
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import field
from typing import Any

import httpx

from ...runtime.records import dataclass
from ..providers.errors import ProviderError
from ..providers.http import DEFAULT_CONNECT_TIMEOUT_S, Endpoint, client_for, iter_sse

PROTOCOL_VERSION = "2025-06-18"
CLIENT_INFO = {"name": "agentc", "version": "1"}
ACCEPT = "application/json, text/event-stream"
SESSION_HEADER = "Mcp-Session-Id"
VERSION_HEADER = "MCP-Protocol-Version"
INPUT_REQUIRED = "input_required"  # a result's `resultType` when the server asks first (D22)
# D22: answered through interrupts, so the client can take form and URL elicitations
CAPABILITIES = {"elicitation": {"form": {}, "url": {}}}
MAX_PAGES = 1000  # a server that keeps handing out cursors is broken, not large
# a tool's input schema deeper than this is refused: the model's provider, pydantic and
# json would each recurse through it (real schemas nest a handful of levels)
MAX_SCHEMA_DEPTH = 64
CONNECT_TIMEOUT_S = 10.0  # initialize and list every page of tools
CALL_TIMEOUT_S = 30.0  # one tools/call, its session included


class McpError(ProviderError):
    """The server could not be reached, broke the protocol or answered a JSON-RPC error."""

    code = "mcp-error"

    def __init__(self, url: str, message: str, status: int | None = None) -> None:
        super().__init__(f"MCP server {url}", message, status=status)
        self.url = url


class McpTimeoutError(McpError):
    """An operation did not finish within its total deadline (a stalled or trickling server)."""

    code = "mcp-timeout"


class McpServerRequestError(McpError):
    """D23: the server asked the client something (sampling, roots, elicitation) that
    agentc does not answer."""

    code = "mcp-server-request"


@dataclass(frozen=True, slots=True)
class McpToolInfo:
    """One entry of `tools/list`, as the server wrote it (B10)."""

    name: str
    description: str | None
    input_schema: Mapping[str, Any]
    raw: Mapping[str, Any] = field(repr=False)


@dataclass(frozen=True, slots=True)
class McpCallResult:
    """A `tools/call` result: the content blocks, the server's error flag (H5)."""

    content: tuple[Mapping[str, Any], ...]
    is_error: bool
    structured: Any = None


@dataclass(frozen=True, slots=True)
class McpInputRequired:
    """D22: a `tools/call` answered with questions (SEP-2322's InputRequiredResult): the
    server's requests by key, and the opaque state to echo on the retried call."""

    requests: Mapping[str, Mapping[str, Any]]
    request_state: str | None = None


# ---------------------------------------------------------------- operations


async def list_tools(url: str, timeout_s: float | None = None) -> list[McpToolInfo]:
    """A9: every tool the server lists, following `nextCursor` to the last page, within
    `timeout_s` in all (None: CONNECT_TIMEOUT_S)."""
    bound = CONNECT_TIMEOUT_S if timeout_s is None else timeout_s
    try:
        async with asyncio.timeout(bound):
            return await _list_pages(url)
    except TimeoutError:
        raise _timed_out(url, "tools/list", bound, "connect_timeout") from None


def _timed_out(url: str, what: str, seconds: float, option: str) -> McpTimeoutError:
    return McpTimeoutError(
        url,
        f"{what} did not finish within {seconds:g} s (raise it with "
        f'`use "{url}" as name {{ {option}: 60s }}`)',
    )


async def _list_pages(url: str) -> list[McpToolInfo]:
    tools: list[McpToolInfo] = []
    async with session(url) as s:
        cursor, seen = None, set()
        for _ in range(MAX_PAGES):
            result = await s.request("tools/list", {"cursor": cursor} if cursor else {})
            tools.extend(_tool_info(url, t) for t in _list(url, result, "tools"))
            cursor = result.get("nextCursor")
            if cursor is not None and not isinstance(cursor, str):
                raise McpError(
                    url,
                    f"tools/list returned a nextCursor that is a JSON {_json_type(cursor)}, "
                    "not a string",
                )
            if not cursor:
                return tools
            if cursor in seen:
                raise McpError(url, f"tools/list returned the cursor {cursor!r} twice")
            seen.add(cursor)
    raise McpError(url, f"tools/list did not end after {MAX_PAGES} pages")


async def call_tool(
    url: str,
    name: str,
    arguments: Mapping[str, Any],
    retry: McpInputRequired | None = None,
    answers: Mapping[str, Any] | None = None,
    timeout_s: float | None = None,
) -> McpCallResult | McpInputRequired:
    """One `tools/call` within `timeout_s` in all (None: CALL_TIMEOUT_S); a JSON-RPC
    error (an unknown tool, bad params) raises McpError.

    D22: a result of type `input_required` comes back as `McpInputRequired`; the call is
    then made again with `retry` (that result: its `requestState` is echoed back) and
    `answers` (key → the client's result, e.g. `{"action": "accept", "content": …}`)."""
    params: dict[str, Any] = {"name": name, "arguments": dict(arguments)}
    if retry is not None:
        params["inputResponses"] = dict(answers or {})
        if retry.request_state is not None:
            params["requestState"] = retry.request_state
    bound = CALL_TIMEOUT_S if timeout_s is None else timeout_s
    try:
        async with asyncio.timeout(bound):
            async with session(url) as s:
                result = await s.request("tools/call", params)
    except TimeoutError:
        raise _timed_out(url, f"tools/call `{name}`", bound, "timeout") from None
    if result.get("resultType") == INPUT_REQUIRED:
        return _input_required(url, result)
    content = _list(url, result, "content")
    if not all(isinstance(b, Mapping) and isinstance(b.get("type"), str) for b in content):
        raise McpError(url, f"tools/call `{name}` returned a content item with no type")
    return McpCallResult(
        content=tuple(content),
        is_error=result.get("isError") is True,
        structured=result.get("structuredContent"),
    )


def _input_required(url: str, result: Mapping[str, Any]) -> McpInputRequired:
    requests = result.get("inputRequests") or {}
    state = result.get("requestState")
    if not isinstance(requests, Mapping) or not all(
        isinstance(r, Mapping) and isinstance(r.get("method"), str) for r in requests.values()
    ):
        raise McpError(url, "an input_required result whose inputRequests are not requests")
    for key, r in requests.items():
        params = r.get("params")
        if params is not None and not isinstance(params, Mapping):
            raise McpError(
                url,
                f"input request `{key}` ({r['method']}) has params that are a JSON "
                f"{_json_type(params)}, not an object",
            )
    return McpInputRequired(
        requests=dict(requests), request_state=state if isinstance(state, str) else None
    )


def _list(url: str, result: Mapping[str, Any], key: str) -> list[Any]:
    value = result.get(key, [])
    if not isinstance(value, list):
        raise McpError(url, f"the result's `{key}` is not a list")
    return value


def _tool_info(url: str, raw: Any) -> McpToolInfo:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str):
        raise McpError(url, "tools/list returned a tool with no name")
    schema = raw.get("inputSchema")
    if not isinstance(schema, Mapping):
        raise McpError(url, f"tool `{raw['name']}` has no inputSchema object")
    if _depth(schema) > MAX_SCHEMA_DEPTH:
        raise McpError(
            url,
            f"tool `{raw['name']}` has an inputSchema nested more than "
            f"{MAX_SCHEMA_DEPTH} levels deep",
        )
    description = raw.get("description")
    return McpToolInfo(
        name=raw["name"],
        description=description if isinstance(description, str) else None,
        input_schema=schema,
        raw=raw,
    )


def _depth(value: object) -> int:
    """How deeply objects and arrays nest in `value` (walked without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_SCHEMA_DEPTH:
            return deepest
        stack.extend((c, level + 1) for c in children)
    return deepest


def _json_type(value: object) -> str:
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "null" if value is None else type(value).__name__


# ---------------------------------------------------------------- the session


@asynccontextmanager
async def session(url: str) -> AsyncIterator[Session]:
    """An initialized session, ended with DELETE when the server gave it an id (the
    operation's deadline bounds it all; httpx's own timeouts bound each read)."""
    s = Session(
        url,
        client_for(
            Endpoint(provider="mcp", base_url=url, connect_timeout_s=DEFAULT_CONNECT_TIMEOUT_S)
        ),
    )
    await s.initialize()
    try:
        yield s
    finally:
        await s.close()


class Session:
    """One MCP session: numbered requests, the session id the server assigned."""

    def __init__(self, url: str, client: httpx.AsyncClient) -> None:
        self.url, self.client = url, client
        self.session_id: str | None = None
        self.protocol: str | None = None
        self._next_id = 0

    async def initialize(self) -> None:
        result = await self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": CAPABILITIES,
                "clientInfo": CLIENT_INFO,
            },
        )
        self.protocol = str(result.get("protocolVersion") or PROTOCOL_VERSION)
        await self.notify("notifications/initialized")

    async def request(self, method: str, params: Mapping[str, Any]) -> Mapping[str, Any]:
        self._next_id += 1
        message = {"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": dict(params)}
        return await self._exchange(message)

    async def notify(self, method: str) -> None:
        body = json.dumps({"jsonrpc": "2.0", "method": method}).encode()
        response = await self._post(body)
        await response.aread()
        if response.status_code >= 400:
            raise McpError(self.url, f"{method} was refused", response.status_code)

    async def close(self) -> None:
        if self.session_id is None:
            return
        try:  # the spec's polite ending; a server may answer 405 and that is fine
            await self.client.delete(self.url, headers=self._headers(), timeout=5.0)
        except httpx.HTTPError:
            pass

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": ACCEPT, "Content-Type": "application/json"}
        if self.session_id is not None:
            headers[SESSION_HEADER] = self.session_id
        if self.protocol is not None:
            headers[VERSION_HEADER] = self.protocol
        return headers

    async def _post(self, body: bytes) -> httpx.Response:
        request = self.client.build_request("POST", self.url, content=body, headers=self._headers())
        try:
            return await self.client.send(request, stream=True)
        except httpx.HTTPError as exc:  # E12: a transport failure stops the run
            raise McpError(
                self.url, f"cannot reach the server: {exc or type(exc).__name__}"
            ) from None

    async def _exchange(self, message: dict[str, Any]) -> Mapping[str, Any]:
        response = await self._post(json.dumps(message).encode())
        try:
            if response.status_code >= 400:
                body = (await response.aread()).decode("utf-8", "replace")[:500]
                raise McpError(
                    self.url,
                    f"{message['method']} failed: {body or 'no body'}",
                    response.status_code,
                )
            if self.session_id is None and SESSION_HEADER in response.headers:
                self.session_id = self._session_id(response)
            reply = await self._reply(response, message["id"])
        finally:
            await response.aclose()
        return self._result(message["method"], reply)

    def _session_id(self, response: httpx.Response) -> str:
        """The spec's rule: a session id is visible ASCII (0x21–0x7E); anything else could
        not be sent back in a header."""
        raw = response.headers.raw
        value = next(v for k, v in raw if k.decode("latin-1").lower() == SESSION_HEADER.lower())
        if not value or not all(0x21 <= b <= 0x7E for b in value):
            shown = value.decode("latin-1")[:80]
            raise McpError(
                self.url,
                f"the {SESSION_HEADER} header {shown!r} is not visible ASCII "
                "(the spec allows only characters 0x21-0x7E)",
            )
        return value.decode("ascii")

    async def _reply(self, response: httpx.Response, id_: int) -> Mapping[str, Any]:
        kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "application/json":
            found = self._match(self._decode(await response.aread()), id_)
            if found is None:
                raise McpError(self.url, f"no response to request {id_}")
            return found
        if kind != "text/event-stream":
            raise McpError(self.url, f"unexpected reply type `{kind or 'none'}`")
        endpoint = Endpoint(provider=f"MCP server {self.url}", base_url=self.url)
        try:
            async for event in iter_sse(endpoint, response):
                if event.data.strip():
                    found = self._match(self._decode(event.data), id_)
                    if found is not None:
                        return found
        except McpError:
            raise
        except ProviderError as exc:  # the stream broke off
            raise McpError(self.url, exc.provider_message) from None
        except UnicodeDecodeError as exc:
            raise McpError(
                self.url, f"an event-stream line that is not UTF-8 (byte {exc.start})"
            ) from None
        raise McpError(self.url, "the event stream ended without a response")

    def _decode(self, raw: str | bytes) -> Any:
        try:
            return json.loads(raw)
        except UnicodeDecodeError as exc:
            raise McpError(self.url, f"a reply that is not UTF-8 (byte {exc.start})") from None
        except ValueError:
            raise McpError(self.url, "a reply that is not JSON") from None
        except RecursionError:
            raise McpError(self.url, "a reply whose JSON nests too deeply to read") from None

    def _match(self, data: object, id_: int) -> Mapping[str, Any] | None:
        """The response to request `id_` in a message or batch; None when it holds only
        notifications (progress, log) that come before the response on a stream."""
        for item in data if isinstance(data, list) else [data]:
            if not isinstance(item, Mapping):
                raise McpError(self.url, "a reply that is not a JSON-RPC message")
            if "method" in item and "id" in item:  # D23: a request from the server
                raise McpServerRequestError(
                    self.url,
                    f"the server asked `{item['method']}`, which agentc does not "
                    "answer (no sampling, roots or elicitation)",
                )
            if item.get("id") == id_:
                return item
        return None

    def _result(self, method: str, reply: Mapping[str, Any]) -> Mapping[str, Any]:
        if "error" in reply:
            err = reply["error"] if isinstance(reply["error"], Mapping) else {}
            raise McpError(
                self.url,
                f"{method} failed: {err.get('message', reply['error'])}"
                f" (JSON-RPC error {err.get('code', '?')})",
            )
        result = reply.get("result")
        if not isinstance(result, Mapping):
            raise McpError(self.url, f"{method} returned no result object")
        return result
