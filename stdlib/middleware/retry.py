"""`model_retry` and `tool_retry` (E8, E3/E6): failed calls tried again with backoff.

Input: `max_retries` (2), `retry_on` (exception class names; empty: every exception),
`on_failure` ("continue": answer with a failure message, "error": raise, or a function
exception → text), `backoff_factor` (2.0), `initial_delay` (1.0 s), `max_delay` (60 s),
`jitter` (±25%); `tools` limits tool retries to those names. Output: the first success, else
the failure handled as `on_failure` says, with langchain 1.4.10's messages:
"Model call failed after N attempts with E: msg" / "Tool 'x' failed after N attempts with
E: msg. Please try again.". Interrupts pass straight through.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from typing import Any

from ..messages import AIMessage, ToolMessage
from .base import AgentMiddleware, ModelResponse, control_signals


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
        retry_on: Sequence[str] | Callable | None = None,
        on_failure: Any = "continue",
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
        self.backoff = dict(
            backoff_factor=backoff_factor,
            initial_delay=initial_delay,
            max_delay=max_delay,
            jitter=jitter,
        )

    def retries(self, exc: Exception) -> bool:
        if callable(self.retry_on):
            return bool(self.retry_on(exc))
        if not self.retry_on:
            return True
        names = {c.__name__ for c in type(exc).__mro__}
        return any(n in names for n in self.retry_on)

    async def run(self, call: Callable[[], Any]) -> tuple[Any, Exception | None, int]:
        """(result, None, attempts) on success, (None, last error, attempts) on failure."""
        signals = control_signals()
        for attempt in range(self.max_retries + 1):
            try:
                return await call(), None, attempt + 1
            except signals:
                raise
            except Exception as exc:  # noqa: BLE001
                if not self.retries(exc):
                    raise
                if attempt == self.max_retries:
                    return None, exc, attempt + 1
                delay = delay_for(attempt, **self.backoff)
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
    def __init__(self, **settings: Any) -> None:
        self.policy = RetryPolicy(**settings)

    async def awrap_model_call(self, request: Any, handler: Any) -> Any:
        result, exc, n = await self.policy.run(lambda: handler(request))
        if exc is None:
            return result
        text = self.policy.failure_text(
            exc, f"Model call failed after {_attempts(n)} with {type(exc).__name__}: {exc}"
        )
        return ModelResponse(result=[AIMessage(content=text)])


class ToolRetry(AgentMiddleware):
    def __init__(self, *, tools: Sequence[Any] | None = None, **settings: Any) -> None:
        self.only = None if tools is None else {getattr(t, "name", t) for t in tools}
        self.policy = RetryPolicy(**settings)

    async def awrap_tool_call(self, request: Any, handler: Any) -> Any:
        name = request.tool.name if request.tool is not None else request.tool_call["name"]
        if self.only is not None and name not in self.only:
            return await handler(request)
        result, exc, n = await self.policy.run(lambda: handler(request))
        if exc is None:
            return result
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
