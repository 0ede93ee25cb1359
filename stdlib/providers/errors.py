"""The errors a model call can raise, and `redact` for any text that may hold a key.

Input: nothing (definitions only), and the secrets read so far (`register_secret`, called
where API keys are read). Output: `ProviderError` and its kinds, each naming the provider,
the HTTP status and the provider's own message with every known secret replaced by
`[REDACTED]`. Errors of a single wire or feature live beside it (`anthropic`,
`cassette`, `registry`, `resolve`, `settings`); the MCP client's `McpError` is a
`ProviderError` too.
"""

from __future__ import annotations

REDACTED = "[REDACTED]"


class ProviderError(Exception):
    """A model call that failed; names the provider, the status and the provider's message.
    `code` is a stable slug like the runtime errors' (docs/errors.md)."""

    code = "provider-error"
    retry_after_s: float | None = None  # how long the server asked us to wait, if it did

    def __init__(
        self, provider: str, message: str, status: int | None = None, retryable: bool = False
    ) -> None:
        self.provider = provider
        self.status = status
        self.retryable = retryable
        self.provider_message = redact(message)
        where = f" (HTTP {status})" if status is not None else ""
        super().__init__(f"{provider} request failed{where}: {self.provider_message}")


class ProviderStatusError(ProviderError):
    """The provider answered with an error status."""

    code = "provider-status"


class ProviderConnectionError(ProviderError):
    """No usable answer: connection refused or dropped, or a timeout."""

    code = "provider-unreachable"


class ProviderStreamError(ProviderError):
    """A stream that broke off or carried an error event."""

    code = "provider-stream"


class ProviderReplyError(ProviderError):
    """A reply agentc cannot read: not JSON, nested too deep, undecodable, or not the shape
    of the provider's API. Says which provider sent it and what was wrong."""

    code = "provider-reply"

    def __init__(self, provider: str, problem: str, status: int | None = None) -> None:
        super().__init__(provider, problem, status=status)
        Exception.__init__(
            self, f"{provider} sent a reply agentc cannot read: {self.provider_message}"
        )


class MissingAPIKeyError(ProviderError):
    """The environment variable that should hold the API key is unset or empty."""

    code = "missing-api-key"


# ---------------------------------------------------------------- secrets

_SECRETS: set[str] = set()


def register_secret(value: str | None) -> None:
    """Remember a secret so that `redact` removes it from any text."""
    if value and len(value) >= 4:
        _SECRETS.add(value)


def redact(text: str) -> str:
    """Replace every known secret (API keys read so far) in `text` by `[REDACTED]`."""
    for secret in sorted(_SECRETS, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text
