"""Retries of a failed node (E7): whether an exception is retried, and after how long.

Input: the node's `RetryPolicy` (None: no retries), the attempt that failed, its exception.
Output: the seconds to wait before the next attempt, or None to raise. As LangGraph's
`default_retry_on`, connection errors and 5xx answers are retried and programming errors
are not, unless the policy names the exception classes to retry.
"""

from __future__ import annotations

import random

import agentc.ir as ir
from agentc.runtime.errors import AgentcRuntimeError

_NO_RETRY = (
    ValueError,
    TypeError,
    ArithmeticError,
    ImportError,
    LookupError,
    NameError,
    SyntaxError,
    RuntimeError,
    ReferenceError,
    StopIteration,
    StopAsyncIteration,
    OSError,
    AgentcRuntimeError,
)


def _retryable(exc: BaseException) -> bool:
    """LangGraph's default_retry_on: connection errors and 5xx yes, programming errors no."""
    if isinstance(exc, ConnectionError):
        return True
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if isinstance(status, int):
        return status >= 500
    return not isinstance(exc, _NO_RETRY)


def retry_delay(policy: ir.RetryPolicy | None, attempt: int, exc: BaseException) -> float | None:
    """Seconds to wait before another attempt, or None to raise (E7: none without a policy)."""
    if policy is None or attempt >= policy.max_attempts:
        return None
    if policy.retry_on:
        if not any(c.__name__ in policy.retry_on for c in type(exc).__mro__):
            return None
    elif not _retryable(exc):
        return None
    interval = min(
        policy.max_interval, policy.initial_interval * policy.backoff_factor ** (attempt - 1)
    )
    return interval + (random.uniform(0, 1) if policy.jitter else 0.0)
