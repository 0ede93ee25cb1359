"""Retries told as they happen: the HTTP layer says when it waits and tries a call again.

Input: from `http.py`, each failed attempt that is going to be retried (E8), and the
backoff it would wait. Output: `pause` waits as E8 says (the server's `Retry-After`, else
the backoff) after handing a `ModelRetry` event to whoever listens in the current context
(`listening(fn)`): `agentc run` prints it in the transcript
(`retrying openai:gpt-4.1-mini after HTTP 429 (retry-after 1 s), attempt 2 of 3`).

Invariants: nothing listens unless a caller asked, so a retry costs one context-variable
read; the listener is a context variable, so it reaches every model call of the run —
nested runs, sync nodes in the worker pool (they run in a copy of the caller's context)
and Python nodes' own models alike. The event names the endpoint and the model, never a
header or a key.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

from .errors import ProviderError


@dataclass(frozen=True, slots=True)
class ModelRetry:
    """One failed attempt of a provider call, about to be tried again."""

    provider: str
    model: str | None  # the request body's `model`, when it names one
    status: int | None  # the HTTP status; None for a connection failure or a timeout
    reason: str  # the provider's message (redacted), or what went wrong on the wire
    wait_s: float  # how long before the next attempt
    retry_after: bool  # the wait is the server's `Retry-After`, not our own backoff
    attempt: int  # the attempt about to be made, 2 for the first retry
    attempts: int  # how many attempts the call may make in all (1 + max_retries)

    def describe(self) -> str:
        """`retrying openai:gpt-4.1-mini after HTTP 429 (retry-after 1 s), attempt 2 of 3`."""
        what = f"{self.provider}:{self.model}" if self.model else self.provider
        why = f"HTTP {self.status}" if self.status is not None else self.reason
        wait = (
            f"retry-after {self.wait_s:g} s" if self.retry_after else f"waits {self.wait_s:.2g} s"
        )
        return f"retrying {what} after {why} ({wait}), attempt {self.attempt} of {self.attempts}"


Listener = Callable[[ModelRetry], None]
_LISTENER: ContextVar[Listener | None] = ContextVar("agentc_model_retry", default=None)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Hand every retry of the calls made in this context (and its copies) to `listener`."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


class Retrying(Protocol):
    """What `pause` reads of the endpoint being called (`http.Endpoint`)."""

    @property
    def provider(self) -> str: ...

    @property
    def max_retries(self) -> int: ...


async def pause(
    endpoint: Retrying, body: Mapping[str, Any], err: ProviderError, backoff: float, retry: int
) -> None:
    """Wait before retry number `retry + 1` of a call that failed with `err` (E8: the
    server's `Retry-After` when it sent one, else `backoff`), telling the listener first."""
    wait = backoff if err.retry_after_s is None else err.retry_after_s
    model = body.get("model")
    tell(
        ModelRetry(
            provider=endpoint.provider,
            model=model if isinstance(model, str) else None,
            status=err.status,
            reason=err.provider_message,
            wait_s=wait,
            retry_after=err.retry_after_s is not None,
            attempt=retry + 2,  # the first attempt was number 1, its first retry number 2
            attempts=endpoint.max_retries + 1,
        )
    )
    await asyncio.sleep(wait)


def tell(event: ModelRetry) -> None:
    """Give `event` to the listener of this context, if there is one."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(event)
