"""`model_retry` and `tool_retry` (E8, E3/E6): failed calls tried again with backoff.

Input: `max_retries` (2), `retry_on` (exception class names, or a function exception →
bool; empty: every exception but a model error the provider marked final, 400 or 401,
as LangChain's default), `on_failure` ("continue": answer with a failure message,
"error": raise, or a function exception → text), `backoff_factor` (2.0), `initial_delay`
(1.0 s), `max_delay` (60 s), `jitter` (±25%); `tools` limits tool retries to those names.
Output: the first success, else the failure handled as `on_failure` says, with langchain
1.4.10's messages: "Model call failed after N attempts with E: msg" / "Tool 'x' failed after
N attempts with E: msg. Please try again.". Interrupts pass straight through.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal, TypedDict, TypeVar, Unpack

from ...runtime.records import dataclass
from ..messages import AIMessage, ToolMessage
from ..providers.errors import ProviderError
from ..tools import Tool, ToolResult
from .base import (
    CONTROL_SIGNALS,
    AgentMiddleware,
    ModelRequest,
    ModelResponse,
    ModelResult,
    ToolCallRequest,
    tool_names,
)
from .chain import ModelHandler, ToolHandler

T = TypeVar("T")
RetryOn = Sequence[str] | Callable[[Exception], object]
OnFailure = Literal["continue", "error"] | Callable[[Exception], str]


class RetrySettings(TypedDict, total=False):
    """The settings both middlewares take (see RetryPolicy)."""

    max_retries: int
    retry_on: RetryOn | None
    on_failure: OnFailure
    backoff_factor: float
    initial_delay: float
    max_delay: float
    jitter: bool


@dataclass(frozen=True, slots=True)
class Failed:
    """The last error of a call that failed every attempt."""

    error: Exception
    attempts: int


@dataclass(frozen=True, slots=True)
class Backoff:
    backoff_factor: float
    initial_delay: float
    max_delay: float
    jitter: bool

    def delay(self, retry: int) -> float:
        return delay_for(
            retry,
            backoff_factor=self.backoff_factor,
            initial_delay=self.initial_delay,
            max_delay=self.max_delay,
            jitter=self.jitter,
        )


def delay_for(
    retry: int, *, backoff_factor: float, initial_delay: float, max_delay: float, jitter: bool
) -> float:
    delay = initial_delay if backoff_factor == 0 else initial_delay * backoff_factor**retry
    delay = min(delay, max_delay)
    if jitter and delay > 0:
        delay = max(0.0, delay + random.uniform(-delay * 0.25, delay * 0.25))
    return delay


class RetryPolicy:
    """The shared settings and loop of both middlewares."""

    def __init__(
        self,
        max_retries: int = 2,
        retry_on: RetryOn | None = None,
        on_failure: OnFailure = "continue",
        backoff_factor: float = 2.0,
        initial_delay: float = 1.0,
        max_delay: float = 60.0,
        jitter: bool = True,
    ) -> None:
        for name, value in (
            ("max_retries", max_retries),
            ("initial_delay", initial_delay),
            ("max_delay", max_delay),
            ("backoff_factor", backoff_factor),
        ):
            if value < 0:
                raise ValueError(f"{name} must be >= 0")
        if isinstance(on_failure, str) and on_failure not in ("continue", "error"):
            raise ValueError("on_failure must be 'continue', 'error' or a function")
        self.max_retries, self.retry_on, self.on_failure = max_retries, retry_on, on_failure
        self.backoff = Backoff(backoff_factor, initial_delay, max_delay, jitter)

    def retries(self, exc: Exception) -> bool:
        if callable(self.retry_on):
            return bool(self.retry_on(exc))
        if not self.retry_on:  # E8, as LangChain's default: a model error says if it may
            return exc.retryable if isinstance(exc, ProviderError) else True
        names = {c.__name__ for c in type(exc).__mro__}
        return any(n in names for n in self.retry_on)

    async def run(self, call: Callable[[], Awaitable[T]]) -> T | Failed:
        """The first result, or the last error when every attempt failed."""
        for attempt in range(self.max_retries + 1):
            try:
                return await call()
            except CONTROL_SIGNALS:
                raise
            except Exception as exc:  # noqa: BLE001
                if not self.retries(exc):
                    raise
                if attempt == self.max_retries:
                    return Failed(exc, attempt + 1)
                delay = self.backoff.delay(attempt)
                if delay > 0:
                    await asyncio.sleep(delay)
        raise RuntimeError("unreachable")

    def failure_text(self, exc: Exception, default: str) -> str:
        if self.on_failure == "error":
            raise exc
        return self.on_failure(exc) if callable(self.on_failure) else default


def _attempts(n: int) -> str:
    return f"{n} attempt" if n == 1 else f"{n} attempts"


class ModelRetry(AgentMiddleware):
    def __init__(self, **settings: Unpack[RetrySettings]) -> None:
        self.policy = RetryPolicy(**settings)

    async def awrap_model_call(self, request: ModelRequest, handler: ModelHandler) -> ModelResult:
        outcome = await self.policy.run(lambda: handler(request))
        if not isinstance(outcome, Failed):
            return outcome
        exc, n = outcome.error, outcome.attempts
        text = self.policy.failure_text(
            exc, f"Model call failed after {_attempts(n)} with {type(exc).__name__}: {exc}"
        )
        return ModelResponse(result=[AIMessage(content=text)])


class ToolRetry(AgentMiddleware):
    def __init__(
        self, *, tools: Sequence[Tool | str] | None = None, **settings: Unpack[RetrySettings]
    ) -> None:
        self.only = tool_names(tools)
        self.policy = RetryPolicy(**settings)

    async def awrap_tool_call(self, request: ToolCallRequest, handler: ToolHandler) -> ToolResult:
        name = request.tool.name if request.tool is not None else request.tool_call["name"]
        if self.only is not None and name not in self.only:
            return await handler(request)
        outcome = await self.policy.run(lambda: handler(request))
        if not isinstance(outcome, Failed):
            return outcome
        exc, n = outcome.error, outcome.attempts
        text = self.policy.failure_text(
            exc,
            f"Tool '{name}' failed after {_attempts(n)} with "
            f"{type(exc).__name__}: {exc}. Please try again.",
        )
        return ToolMessage(
            content=text, tool_call_id=request.tool_call["id"] or "", name=name, status="error"
        )


ModelRetryMiddleware = ModelRetry
ToolRetryMiddleware = ToolRetry
