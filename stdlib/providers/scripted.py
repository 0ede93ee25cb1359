"""The scripted model: replays AI replies in order, for offline runs, tests and benchmarks.

Input: `model "scripted" { replies: [...] }` in a `.agent` file, or `model "scripted:PATH"`
naming a JSON file (a list of replies, or `{"replies": [...], "profile": {...}}`) relative to
the `.agent` file. A reply is a string (the answer text) or a map with `content`,
`tool_calls` (`{name, args, id}`), `invalid_tool_calls` (`{name, args, id, error}`), `usage`
(`{input_tokens, output_tokens}`) and `id`; or a failure, `{raise: KIND, message: "…"}`,
raised by that call as the provider error a real wire raises for it (`FAILURES`), so
retries, fallbacks and error paths run offline. Options: `profile: {structured_output: true, …}`
(I2, G5), `name: "gpt-4o"` (the model name G5 reads) and `cycle: true` (start again after
the last reply, for benchmarks).

Output: one `AIMessage` per call (`generate`) or its deltas (`stream`), or the scripted
failure raised; every request it received is kept in `calls`, in order (a failed call
uses up its entry). Running out of replies raises `ScriptedRepliesExhausted`, which names
how many were scripted and how many calls came. A script that cannot be read raises
`ScriptError` at the model's clause in the `.agent` file.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from ...ir import ModelSpec
from ...runtime.errors import AgentcRuntimeError
from ...runtime.records import dataclass
from ..messages import AIMessage, InvalidToolCall, ToolCall, UsageMetadata
from .base import MessageDelta, ModelProfile, ModelRequest, ToolCallChunk
from .errors import (
    ProviderConnectionError,
    ProviderError,
    ProviderStatusError,
    ProviderStreamError,
)

PROVIDER = "scripted"


# Every model built from a spec, newest last: tests read what a run's model received.
CREATED: deque[ScriptedModel] = deque(maxlen=64)


class ScriptError(AgentcRuntimeError, ValueError):
    """A script that cannot be read: a missing file, bad JSON, a reply of the wrong shape."""

    code = "bad-script"


@dataclass(frozen=True, slots=True)
class Failure:
    """How one scripted failure kind is raised: the error a real wire raises for it."""

    error: type[ProviderError]
    status: int | None
    retryable: bool
    default: str


# The kinds a reply may `raise`, named as the failures read; each is the `ProviderError` the
# HTTP providers raise for it (`http.py`), with the same `retryable` verdict.
FAILURES: dict[str, Failure] = {
    "ConnectionError": Failure(ProviderConnectionError, None, True, "connection failed"),
    "TimeoutError": Failure(ProviderConnectionError, None, True, "timed out"),
    "RateLimitError": Failure(ProviderStatusError, 429, True, "rate limit reached"),
    "ServerError": Failure(ProviderStatusError, 500, True, "internal server error"),
    "AuthenticationError": Failure(ProviderStatusError, 401, False, "invalid API key"),
    "BadRequestError": Failure(ProviderStatusError, 400, False, "bad request"),
    "StreamError": Failure(ProviderStreamError, None, False, "the stream broke off"),
}


@dataclass(frozen=True, slots=True)
class ScriptedFailure:
    """A reply that fails its call: `{raise: KIND, message: "…", status: 503}`."""

    kind: str
    message: str
    status: int | None = None

    def error(self) -> ProviderError:
        failure = FAILURES[self.kind]
        status = self.status if self.status is not None else failure.status
        return failure.error(PROVIDER, self.message, status=status, retryable=failure.retryable)


Reply = AIMessage | ScriptedFailure


class ScriptedRepliesExhausted(RuntimeError):
    """The run asked the scripted model for more replies than were written."""


class ScriptedModel:
    """A `ChatModel` that answers from a fixed list of replies."""

    provider = PROVIDER

    def __init__(
        self,
        replies: list[Reply],
        *,
        name: str = "scripted",
        profile: ModelProfile | None = None,
        cycle: bool = False,
    ) -> None:
        self.name = name
        self.profile = profile or ModelProfile(tool_calling=True)
        self.replies = tuple(replies)
        self.cycle = cycle
        self.calls: list[ModelRequest] = []
        self._lock = threading.Lock()  # one counter shared by concurrent runs

    @classmethod
    def from_spec(cls, spec: ModelSpec, base_dir: str) -> ScriptedModel:
        options = dict(spec.options)
        if spec.name and spec.name != PROVIDER:  # `scripted:PATH`
            options = {**_read_script(Path(base_dir) / spec.name), **options}
        raw = options.get("replies")
        if not isinstance(raw, list):
            raise ScriptError(
                f"the scripted model `{spec.spec}` needs `replies: [...]` (a list of strings "
                "or maps with content/tool_calls), or `scripted:PATH` naming a JSON file"
            )
        profile = ModelProfile(**{"tool_calling": True, **options.get("profile", {})})
        name = str(options.get("name") or spec.name or PROVIDER)  # G5 reads model names
        try:
            replies = [scripted_reply(r, i) for i, r in enumerate(raw)]
        except ScriptError as exc:
            raise ScriptError(exc.message, span=spec.span, help=exc.help) from None
        model = cls(
            replies,
            name=name,
            profile=profile,
            cycle=bool(options.get("cycle", False)),
        )
        CREATED.append(model)
        return model

    def _next(self, request: ModelRequest) -> AIMessage:
        reply = self._entry(request)
        if isinstance(reply, ScriptedFailure):
            raise reply.error()
        return reply

    def _entry(self, request: ModelRequest) -> Reply:
        with self._lock:
            index = len(self.calls)
            self.calls.append(request)
        if index >= len(self.replies):
            if not self.cycle or not self.replies:
                raise ScriptedRepliesExhausted(
                    f"the scripted model has {len(self.replies)} replies but was called a "
                    f"{_ordinal(index + 1)} time; add replies to the script or end the run "
                    "sooner"
                )
            index %= len(self.replies)
        return self.replies[index]

    async def generate(self, request: ModelRequest) -> AIMessage:
        return self._next(request)

    async def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        reply = self._next(request)
        chunks = tuple(
            ToolCallChunk(index=i, id=c.id, name=c.name, args=json.dumps(c.args))
            for i, c in enumerate(reply.tool_calls)
        )
        yield MessageDelta(
            text=reply.text,
            tool_call_chunks=chunks,
            usage=reply.usage_metadata,
            finish_reason="tool_calls" if chunks else "stop",
        )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _read_script(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScriptError(f"scripted model file {str(path)!r} does not exist") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ScriptError(f"cannot read scripted model file {str(path)!r}: {exc}") from None
    return {"replies": data} if isinstance(data, list) else dict(data)


def scripted_reply(raw: Any, index: int = 0) -> Reply:
    """One scripted reply: an AI message, or a failure when it says `raise`."""
    if isinstance(raw, dict) and "raise" in raw:
        return _failure(raw, index)
    return reply_message(raw, index)


def _failure(raw: dict[str, Any], index: int) -> ScriptedFailure:
    where = f"scripted reply {index + 1}"
    kinds = ", ".join(FAILURES)
    unknown = set(raw) - {"raise", "message", "status"}
    if unknown:
        raise ScriptError(
            f"{where} raises but has unknown keys {sorted(unknown)}; a failure takes "
            "`raise`, `message` and, for a ServerError, `status`",
        )
    kind, message, status = raw["raise"], raw.get("message"), raw.get("status")
    if not isinstance(kind, str) or kind not in FAILURES:
        raise ScriptError(
            f"{where} raises {kind!r}, which is not a failure kind",
            help=f"use one of {kinds}",
        )
    if message is not None and not isinstance(message, str):
        raise ScriptError(f"{where}: `message` must be a string, got {type(message).__name__}")
    if status is not None and (
        kind != "ServerError" or isinstance(status, bool) or status not in range(500, 600)
    ):
        raise ScriptError(
            f"{where}: `status` {status!r} is not allowed here; only a ServerError takes "
            "one, an HTTP status from 500 to 599",
        )
    return ScriptedFailure(kind, message or FAILURES[kind].default, status)


def reply_message(raw: Any, index: int = 0) -> AIMessage:
    """One scripted reply as an AI message."""
    if isinstance(raw, str):
        return AIMessage(content=raw)
    if not isinstance(raw, dict):
        raise ScriptError(
            f"scripted reply {index + 1} must be a string or a map, got {type(raw).__name__}"
        )
    unknown = set(raw) - {"content", "tool_calls", "invalid_tool_calls", "usage", "id"}
    if unknown:
        raise ScriptError(
            f"scripted reply {index + 1} has unknown keys {sorted(unknown)}; "
            "use content, tool_calls, invalid_tool_calls, usage, id (or `raise` for a failure)"
        )
    try:
        return AIMessage(
            content=raw.get("content", ""),
            id=raw.get("id"),
            tool_calls=[ToolCall(**c) for c in raw.get("tool_calls", [])],
            invalid_tool_calls=[InvalidToolCall(**c) for c in raw.get("invalid_tool_calls", [])],
            usage_metadata=_usage(raw.get("usage")),
        )
    except (TypeError, ValueError) as exc:
        raise ScriptError(f"scripted reply {index + 1} is malformed: {exc}") from None


def _usage(raw: Any) -> UsageMetadata | None:
    if not raw:
        return None
    total = raw.get("total_tokens", raw.get("input_tokens", 0) + raw.get("output_tokens", 0))
    return UsageMetadata(**{**raw, "total_tokens": total})
