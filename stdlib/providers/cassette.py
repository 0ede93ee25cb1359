"""Record and replay model calls: `agentc run --record FILE` / `--replay FILE`.

Input: a `ChatModel` to wrap (`Recording`) or a cassette file (`Replaying`). Output: a
`ChatModel` that behaves as the wrapped one and appends each exchange to the file as one JSON
line, or one that serves the recorded exchanges back in order with no network. Invariants:
the first line is a header (`{"cassette": 1, "provider", "name"}`); requests are compared
without message ids (they are fresh uuids each run); API keys never reach the file (every
line goes through `redact`); a request that differs from the recorded one, or a call after
the last exchange, is a `CassetteError` saying which exchange and what differs.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from ..messages import AIMessage, UsageMetadata
from .assemble import assemble
from .base import ChatModel, MessageDelta, ModelProfile, ModelRequest, ToolCallChunk
from .errors import ProviderError, redact
from .profiles import profile_for
from .resolve import provider_table
from .settings import read_api_key

CASSETTE_VERSION = 1


class CassetteError(Exception):
    """A replay that cannot continue: a changed request, or no exchange left."""


def request_json(request: ModelRequest) -> dict[str, Any]:
    """The request as JSON, message ids left out so that runs compare equal."""
    return {
        "messages": [_without_ids(m.model_dump(mode="json")) for m in request.messages],
        "tools": [dataclasses.asdict(t) for t in request.tools],
        "provider_tools": list(request.provider_tools),
        "tool_choice": request.tool_choice,
        "response_format": (
            dataclasses.asdict(request.response_format) if request.response_format else None
        ),
        "options": dict(request.options),
    }


def _without_ids(message: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in message.items() if k != "id"}


def _arm_redaction() -> None:
    # Keys in the environment are registered for redaction even if no model read them.
    for info in provider_table().providers.values():
        try:
            read_api_key(info.key, info.api_key_env, required=False)
        except ProviderError:
            pass


class Recording:
    """Wraps a model; every exchange is appended to `path` as one JSON line."""

    def __init__(self, model: ChatModel, path: str | Path) -> None:
        self.provider, self.name, self.profile = model.provider, model.name, model.profile
        self._model = model
        self._path = Path(path)
        _arm_redaction()
        self._path.write_text("")
        self._write({"cassette": CASSETTE_VERSION, "provider": model.provider, "name": model.name})

    def __repr__(self) -> str:
        return f"Recording({self._model!r}, {str(self._path)!r})"

    def _write(self, entry: dict[str, Any]) -> None:
        line = redact(json.dumps(entry, ensure_ascii=False, sort_keys=True))
        with self._path.open("a", encoding="utf-8") as f:
            f.write(line + "\n")

    async def generate(self, request: ModelRequest) -> AIMessage:
        entry: dict[str, Any] = {"kind": "generate", "request": request_json(request)}
        try:
            message = await self._model.generate(request)
        except ProviderError as err:
            self._write({**entry, "error": _error_json(err)})
            raise
        self._write({**entry, "response": message.model_dump(mode="json")})
        return message

    async def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        entry: dict[str, Any] = {"kind": "stream", "request": request_json(request)}
        deltas: list[dict[str, Any]] = []
        try:
            async for delta in self._model.stream(request):
                deltas.append(_delta_json(delta))
                yield delta
        except ProviderError as err:
            self._write({**entry, "deltas": deltas, "error": _error_json(err)})
            raise
        self._write({**entry, "deltas": deltas})


def _error_json(err: ProviderError) -> dict[str, Any]:
    return {
        "type": type(err).__name__,
        "provider": err.provider,
        "status": err.status,
        "message": err.provider_message,
    }


def _delta_json(delta: MessageDelta) -> dict[str, Any]:
    out = dataclasses.asdict(delta)
    out["usage"] = delta.usage.model_dump(mode="json") if delta.usage else None
    return out


def _delta_from(data: dict[str, Any]) -> MessageDelta:
    return MessageDelta(
        text=data.get("text", ""),
        tool_call_chunks=tuple(ToolCallChunk(**c) for c in data.get("tool_call_chunks", [])),
        usage=UsageMetadata(**data["usage"]) if data.get("usage") else None,
        finish_reason=data.get("finish_reason"),
        id=data.get("id"),
        response_metadata=data.get("response_metadata") or {},
    )


class Replaying:
    """Serves a cassette's exchanges in order; no network."""

    def __init__(self, path: str | Path, profile: ModelProfile | None = None) -> None:
        self._path = Path(path)
        lines = [
            json.loads(line)
            for line in self._path.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        if not lines or lines[0].get("cassette") != CASSETTE_VERSION:
            raise CassetteError(
                f"{self._path} is not an agentc cassette (version "
                f"{CASSETTE_VERSION} header missing)"
            )
        header, self._entries = lines[0], lines[1:]
        self.provider, self.name = header["provider"], header["name"]
        self.profile = profile or profile_for(self.provider, self.name)
        self._next = 0

    def __repr__(self) -> str:
        return f"Replaying({str(self._path)!r})"

    @property
    def remaining(self) -> int:
        return len(self._entries) - self._next

    def _take(self, request: ModelRequest) -> dict[str, Any]:
        n = self._next
        if n >= len(self._entries):
            raise CassetteError(
                f"{self._path}: the run made model call {n + 1}, but the "
                f"cassette holds only {len(self._entries)}"
            )
        entry = self._entries[n]
        got = json.loads(json.dumps(request_json(request), sort_keys=True))
        if got != entry["request"]:
            raise CassetteError(
                f"{self._path}: model call {n + 1} differs from the recorded "
                f"one: {_first_difference(entry['request'], got)}"
            )
        self._next += 1
        if entry.get("error"):
            err = entry["error"]
            raise ProviderError(err["provider"], err["message"], status=err.get("status"))
        return entry

    async def generate(self, request: ModelRequest) -> AIMessage:
        entry = self._take(request)
        if entry["kind"] == "stream":
            return assemble(_delta_from(d) for d in entry["deltas"])
        return AIMessage.model_validate(entry["response"])

    async def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        entry = self._take(request)
        if entry["kind"] == "stream":
            for data in entry["deltas"]:
                yield _delta_from(data)
        else:
            yield _message_delta(AIMessage.model_validate(entry["response"]))


def _message_delta(message: AIMessage) -> MessageDelta:
    chunks = tuple(
        ToolCallChunk(index=i, id=c.id, name=c.name, args=json.dumps(c.args))
        for i, c in enumerate(message.tool_calls)
    )
    return MessageDelta(
        text=message.text,
        tool_call_chunks=chunks,
        usage=message.usage_metadata,
        finish_reason=message.response_metadata.get("finish_reason"),
        id=message.id,
        response_metadata=dict(message.response_metadata),
    )


def _first_difference(expected: Any, got: Any, path: str = "request") -> str:
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in sorted(set(expected) | set(got)):
            if expected.get(key) != got.get(key):
                return _first_difference(expected.get(key), got.get(key), f"{path}.{key}")
    if isinstance(expected, list) and isinstance(got, list):
        if len(expected) != len(got):
            return f"{path} has {len(got)} items, recorded {len(expected)}"
        for i, (a, b) in enumerate(zip(expected, got, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
    return f"{path} is {json.dumps(got)[:200]}, recorded {json.dumps(expected)[:200]}"
