"""MCP tools: the tools an MCP server lists, made `Tool`s an agent can bind and call.

Input: an agent's `McpToolRef`s (`tools [files]`, `tools [files.read_file]`, from
`use "http://…/mcp" as files`). Output: `Tool`s whose calls go to the server over
`client.py`, and per call a `ToolMessage`.

Seats held here:
- A7: an MCP tool never replaces another tool: a name two servers list, or one an agent's
  own tool has (`refuse_shadowing`, called where the tools are merged), stops the run
  before any model call (`McpToolNameClashError`, `duplicate-tool`).
- A9: every tool the server lists, with no filter and the server's names; the list is read
  once, the first time the bound agent needs it, and kept (LangChain reads it once when the
  integrator calls list_tools). `files.read_file` picks one tool; a name the server does not
  list stops the run (`McpToolNotFoundError`) when it is listed.
- B10: the model reads the server's name and description (none: "") and its input schema
  with one change: an object-typed argument with no declared properties is marked open
  (`additionalProperties: true`). E2: the arguments are sent as the model wrote them.
- E12/H5: a result flagged `isError` reaches the model as an error `ToolMessage` with the
  server's own content; any other result passes as success, unchecked. Content blocks are
  converted as LangChain does (text, image, resource link, embedded resource); audio or an
  unknown block type, a transport failure or a JSON-RPC error raise and stop the run (E3).
- D22: a call the server answers with questions (an `input_required` result) pauses the
  run with one `interrupt()` per round, payload `{"type": "mcp_elicitation", "tool_name",
  "requests": [{"key", "message", "mode": "form", "requested_schema"} | {"key", "message",
  "mode": "url", "url"}]}`, the server's text unfiltered; it is resumed with
  `{"responses": {key: {"action": "accept", "content": {…}} | {"action": "decline"} |
  {"action": "cancel"}}}` and the call is made again from its first round.
- D23: only form and URL elicitations in such a round are answered; sampling, roots, a
  continuation round with no questions and a request the server sends on its own (the
  legacy elicitation path) raise. Every question needs an answer; form content is passed
  on unchecked.
- Deadlines (agentc's: langchain-mcp-adapters waits as long as httpx lets it): listing a
  server's tools must finish within its `connect_timeout` (default 10 s) or the run stops
  (`McpTimeoutError`); each tool call is a tool with `timeout_s` (its `timeout`, default
  30 s), so a call that runs out is answered to the model as a tool error
  (`agent/tool_node.py`) and the run goes on.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from ...ir import MCP_ALL_TOOLS, McpToolRef
from ...runtime import interrupt
from ...runtime.errors import AgentcRuntimeError, ResumeValidationError
from ..tools import Tool, ToolException
from .client import (
    CALL_TIMEOUT_S,
    McpError,
    McpInputRequired,
    McpServerRequestError,
    McpTimeoutError,
    McpToolInfo,
    call_tool,
    list_tools,
)

ELICIT = "elicitation/create"
ELICITATION_INTERRUPT = "mcp_elicitation"  # the interrupt payload's `type` (LangChain's)
ACTIONS = ("accept", "decline", "cancel")

AUDIO_NOT_SUPPORTED = (
    "Converting MCP audio content to a content block is not supported. "
    "Received audio with mime type: {mime}"
)


class UnconvertibleContent(ValueError):
    """E12: a result block the model could not read (audio, as LangChain refuses it too)."""


class McpToolNotFoundError(AgentcRuntimeError):
    """A9: `tools [server.name]` names a tool the server does not list."""

    code = "mcp-unknown-tool"


class McpToolNameClashError(AgentcRuntimeError):
    """A7 at bind time: an MCP tool whose name is already taken, by one of the agent's own
    tools or by another server's tool. Raised before any model call, never a silent
    replacement (the model's `add` would otherwise reach whichever came last)."""

    code = "duplicate-tool"


class McpToolError(ToolException):
    """E12: the server ran the tool and flagged the result `isError`; carries its blocks."""

    def __init__(self, blocks: list[dict[str, Any]]) -> None:
        super().__init__(error_summary(blocks))
        self.blocks = blocks


def error_summary(blocks: list[dict[str, Any]]) -> str:
    texts = [b["text"] for b in blocks if b.get("type") == "text"]
    if texts:
        return "\n".join(texts)
    if blocks:
        return (
            f"The MCP tool reported an error with no text content ({len(blocks)} "
            "non-text content block(s))."
        )
    return "The MCP tool reported an error with empty content."


def _handle_error(exc: ToolException) -> list[dict[str, Any]]:
    """E12/H5: the server's own content is the model's error reply (never empty)."""
    if isinstance(exc, McpToolError):
        return exc.blocks or [{"type": "text", "text": str(exc)}]
    raise exc


# ---------------------------------------------------------------- schema and content


def open_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """B10: object-typed properties with no properties of their own are marked open."""
    out = dict(schema)
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return out
    out["properties"] = dict(props)
    for name, value in props.items():
        if not isinstance(value, Mapping):
            continue
        types = value.get("type")
        is_object = types == "object" or (isinstance(types, list) and "object" in types)
        if (
            is_object
            and not value.get("properties")
            and "additionalProperties" not in value
            and "unevaluatedProperties" not in value
        ):
            out["properties"][name] = {**value, "additionalProperties": True}
    return out


def convert_block(block: Mapping[str, Any]) -> dict[str, Any]:
    """One MCP content block as the content block the model reads (LangChain's mapping)."""
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": block.get("text", "")}
    if kind == "image":
        return {"type": "image", "base64": block.get("data"), "mime_type": block.get("mimeType")}
    if kind == "audio":
        raise UnconvertibleContent(AUDIO_NOT_SUPPORTED.format(mime=block.get("mimeType")))
    if kind == "resource_link":
        return _by_mime("url", block.get("uri"), block.get("mimeType"))
    if kind == "resource":
        resource = block.get("resource") or {}
        if "text" in resource:
            return {"type": "text", "text": resource["text"]}
        if "blob" in resource:
            return _by_mime("base64", resource["blob"], resource.get("mimeType"))
        raise ValueError("an MCP embedded resource with neither text nor blob")
    raise ValueError(f"unknown MCP content type: {kind!r}")


def _by_mime(key: str, value: object, mime: object) -> dict[str, Any]:
    """An image block for an image MIME type, else a file block; no type, no key."""
    kind = "image" if isinstance(mime, str) and mime.startswith("image/") else "file"
    return {"type": kind, key: value, **({"mime_type": mime} if mime else {})}


# ---------------------------------------------------------------- tools


class McpArguments(BaseModel):
    """A tool's arguments, never validated against (`raw_args`), only named."""

    model_config = ConfigDict(extra="allow")


# where each MCP tool came from, keyed by its call function (kept by `Tool.with_options`)
_ORIGINS: weakref.WeakKeyDictionary[Any, McpToolRef] = weakref.WeakKeyDictionary()


def _origin(ref: McpToolRef) -> str:
    return f"MCP server `{ref.server}` ({ref.url})"


def refuse_shadowing(local: Sequence[Tool], mcp: Sequence[Tool]) -> None:
    """A7 for MCP tools: an MCP tool named like one of the agent's own tools (its tools,
    middleware tools, structured-output tools) is refused, not let replace it. Called where
    the agent merges its local tools with the toolset's (`stdlib/agent/tools.py`)."""
    names = {t.name for t in local}
    for t in mcp:
        if t.name not in names:
            continue
        ref = _ORIGINS.get(t.fn)
        where = _origin(ref) if ref is not None else "an MCP server"
        server = ref.server if ref is not None else "server"
        raise McpToolNameClashError(
            f"two tools named `{t.name}`: the agent's own tool `{t.name}` and the tool "
            f"`{t.name}` that {where} lists",
            span=ref.span if ref is not None else None,
            help=f"rename the local tool, or pick the server's tools by name, leaving "
            f"`{t.name}` out (`tools [{server}.other_tool]`)",
        )


# the client's own deadline on a call outlasts the tool's by this much: the tools node's
# answer to the model comes first, the client's error only for a caller without one
_BACKSTOP_S = 1.0


def mcp_tool(url: str, info: McpToolInfo, ref: McpToolRef | None = None) -> Tool:
    """A `Tool` that calls `info` on the server at `url` (B10, E2, E12, D22)."""
    bound = ref.timeout_s if ref is not None and ref.timeout_s is not None else CALL_TIMEOUT_S
    backstop = bound + _BACKSTOP_S

    async def call(**arguments: Any) -> tuple[list[dict[str, Any]], Any]:
        result = await call_tool(url, info.name, arguments, timeout_s=backstop)
        while isinstance(result, McpInputRequired):  # D22: one interrupt per round
            answers = ask(url, info.name, result)
            result = await call_tool(
                url, info.name, arguments, retry=result, answers=answers, timeout_s=backstop
            )
        try:
            blocks = [convert_block(b) for b in result.content]
        except ValueError as exc:  # E12: unconvertible content (UnconvertibleContent …)
            raise McpError(url, f"tool `{info.name}`: {exc}") from None
        if result.is_error:  # H5: the server's flag is taken at face value
            raise McpToolError(blocks)
        artifact = None if result.structured is None else {"structured_content": result.structured}
        return blocks, artifact

    if ref is not None:
        _ORIGINS[call] = ref
    schema = open_schema(info.input_schema)
    return Tool(
        name=info.name,
        description=info.description or "",
        fn=call,
        args_model=McpArguments,
        parameters=schema,
        is_async=True,
        response_format="content_and_artifact",
        handle_tool_error=_handle_error,
        accepts=frozenset(schema.get("properties") or ()),
        raw_args=True,
        timeout_s=bound,
    )


# ---------------------------------------------------------------- elicitation (D22, D23)


def ask(url: str, tool: str, round_: McpInputRequired) -> dict[str, Any]:
    """D22: the round's questions as one interrupt; the resumed answers as the server's
    `inputResponses`. On resume the call is made again from its first round."""
    if not round_.requests:  # D23: a continuation round has no question to ask
        raise McpServerRequestError(
            url,
            f"tool `{tool}` returned a continuation round with "
            "no input requests, which agentc does not answer",
        )
    refused = sorted(
        f"{k} ({r['method']})" for k, r in round_.requests.items() if r["method"] != ELICIT
    )
    if refused:  # D23: only elicitation is answered; sampling and roots are refused
        raise McpServerRequestError(
            url,
            f"tool `{tool}` asked for input agentc does not "
            f"answer: {', '.join(refused)}; only elicitation",
        )
    payload = {
        "type": ELICITATION_INTERRUPT,
        "tool_name": tool,
        "requests": [describe_request(k, r) for k, r in round_.requests.items()],
    }
    return build_responses(round_.requests, interrupt(payload), tool)


def describe_request(key: str, request: Mapping[str, Any]) -> dict[str, Any]:
    """One question as the person resuming reads it: the server's text, unfiltered (D22)."""
    params = request.get("params") or {}
    if params.get("mode") == "url":
        return {
            "key": key,
            "message": params.get("message", ""),
            "mode": "url",
            "url": str(params.get("url", "")),
        }
    return {
        "key": key,
        "message": params.get("message", ""),
        "mode": "form",
        "requested_schema": params.get("requestedSchema") or {},
    }


def build_responses(requests: Mapping[str, Any], resume: object, tool: str) -> dict[str, Any]:
    """D23: every question needs an answer with action accept, decline or cancel; a form
    answer's content is passed on unchecked against the requested schema."""
    answers = resume.get("responses") if isinstance(resume, Mapping) else None
    if not isinstance(answers, Mapping):
        raise ResumeValidationError(
            f'resuming MCP tool `{tool}` needs {{"responses": {{key: answer}}}}',
            help='answer each request key with {"action": "accept", "content": {...}}, '
            '{"action": "decline"} or {"action": "cancel"}',
        )
    missing = sorted(set(requests) - set(answers))
    if missing:
        raise ResumeValidationError(
            f"resuming MCP tool `{tool}` needs an answer for every "
            f"elicitation request; none for: {', '.join(missing)}"
        )
    out: dict[str, Any] = {}
    for key in requests:
        answer = answers[key]
        action = answer.get("action") if isinstance(answer, Mapping) else None
        if action not in ACTIONS:
            raise ResumeValidationError(
                f"the answer for `{key}` has action {action!r}; "
                "expected 'accept', 'decline' or 'cancel'"
            )
        given = answer.get("content")  # D22: an accept without content sends none (a link)
        out[key] = {"action": action, "content": given} if given is not None else {"action": action}
    return out


class McpToolset:
    """The MCP tools of one bound agent, listed once (A9) and shared by its nodes."""

    def __init__(self, refs: Sequence[McpToolRef]) -> None:
        self.refs = tuple(refs)
        self._tools: tuple[Tool, ...] | None = None
        self._pending: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, asyncio.Task[tuple[Tool, ...]]
        ] = weakref.WeakKeyDictionary()

    async def tools(self) -> tuple[Tool, ...]:
        if self._tools is not None:
            return self._tools
        loop = asyncio.get_running_loop()
        task = self._pending.get(loop)
        if task is None or task.done() and (task.cancelled() or task.exception()):  # retry
            task = self._pending[loop] = loop.create_task(self._list())
        return await asyncio.shield(task)

    async def _list(self) -> tuple[Tool, ...]:
        listed: dict[str, list[McpToolInfo]] = {}
        for url in dict.fromkeys(r.url for r in self.refs):  # A9: each server once
            listed[url] = await list_tools(url, _connect_timeout(self.refs, url))
        picked: dict[str, Tool] = {}
        origin: dict[str, McpToolRef] = {}
        for ref in self.refs:
            for info in _select(ref, listed[ref.url]):
                first = origin.get(info.name)
                if first is not None:
                    if first.url == ref.url:  # the same tool picked twice: one tool
                        if first is not ref:
                            continue
                        raise _listed_twice(ref, info.name)
                    raise _clash(first, ref, info.name)
                origin[info.name] = ref
                picked[info.name] = mcp_tool(ref.url, info, ref)
        self._tools = tuple(picked.values())
        return self._tools


def _connect_timeout(refs: Sequence[McpToolRef], url: str) -> float | None:
    """The tightest `connect_timeout` the `use` lines naming `url` give (None: default)."""
    given = [r.connect_timeout_s for r in refs if r.url == url and r.connect_timeout_s]
    return min(given) if given else None


def _clash(first: McpToolRef, second: McpToolRef, name: str) -> McpToolNameClashError:
    """A7: two servers list one name; neither may silently replace the other."""
    return McpToolNameClashError(
        f"two tools named `{name}`: {_origin(first)} and {_origin(second)} both list it",
        span=second.span,
        help=f"pick each server's tools by name (e.g. `tools [{first.server}.{name}, "
        f"{second.server}.other_tool]`) so `{name}` comes from one server",
    )


def _listed_twice(ref: McpToolRef, name: str) -> McpToolNameClashError:
    return McpToolNameClashError(
        f"{_origin(ref)} lists two tools named `{name}`",
        span=ref.span,
        help="the server's listing is broken; fix the server",
    )


def _select(ref: McpToolRef, infos: list[McpToolInfo]) -> list[McpToolInfo]:
    if ref.tool == MCP_ALL_TOOLS:
        return infos  # A9: no filter
    found = [i for i in infos if i.name == ref.tool]
    if not found:
        names = ", ".join(i.name for i in infos) or "none"
        raise McpToolNotFoundError(
            f"MCP server `{ref.server}` ({ref.url}) lists no tool `{ref.tool}`",
            span=ref.span,
            help=f"the server lists: {names}",
        )
    return found[:1]


__all__ = [
    "McpError",
    "McpTimeoutError",
    "McpToolError",
    "McpToolNameClashError",
    "McpToolNotFoundError",
    "McpToolset",
    "convert_block",
    "mcp_tool",
    "open_schema",
    "refuse_shadowing",
]
