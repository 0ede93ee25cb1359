"""The errors a model call can raise, and `redact` for any text that may hold a key.

Re-exported from `_http` so that callers (runtime glue, CLI `--json` output) need not reach
into a private module.
"""

from ._http import (
    MissingAPIKeyError,
    ProviderConnectionError,
    ProviderError,
    ProviderStatusError,
    ProviderStreamError,
    redact,
    register_secret,
)
from .anthropic import SystemMessagePlacementError
from .cassette import CassetteError
from .registry import UnsupportedProviderError
from .resolve import UnknownModelError
from .settings import ModelOptionError

__all__ = [
    "CassetteError",
    "MissingAPIKeyError",
    "ModelOptionError",
    "ProviderConnectionError",
    "ProviderError",
    "ProviderStatusError",
    "ProviderStreamError",
    "SystemMessagePlacementError",
    "UnknownModelError",
    "UnsupportedProviderError",
    "redact",
    "register_secret",
]
