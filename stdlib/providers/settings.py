"""A `ModelSpec`'s options → the settings of one provider client (A3).

Input: an `ir.ModelSpec` (provider, model name, the options written in the `.agent` file).
Output: `ModelSettings`: the endpoint (base URL from the options, else the provider's
environment variable, else the table's default; the key from the named variable), and the
body parameters sent with every call. Invariants: the key lives only in `Endpoint.headers`
(kept out of reprs) and is registered for redaction; a missing key is a `MissingAPIKeyError`
naming the variable; an option of the wrong type is a `ModelOptionError` naming the option.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import MissingAPIKeyError, register_secret
from .http import (
    DEFAULT_CONNECT_TIMEOUT_S,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT_S,
    Endpoint,
    RateLimit,
)
from .resolve import ProviderInfo, provider_info

if TYPE_CHECKING:
    from ...ir import ModelSpec


class ModelOptionError(ValueError):
    """An option in a model's `{ … }` block that cannot be used as written."""


# Options that configure the client; every other option goes into the request body.
CLIENT_OPTIONS = frozenset(
    {
        "timeout",
        "connect_timeout",
        "max_retries",
        "base_url",
        "api_key_env",
        "headers",
        "rate_limit",
    }
)


@dataclass(frozen=True, slots=True)
class ModelSettings:
    provider: str
    name: str
    endpoint: Endpoint
    api_key_env: str | None
    params: Mapping[str, Any] = field(default_factory=dict)  # temperature, max_tokens …


def settings_from_spec(spec: ModelSpec, auth: AuthStyle) -> ModelSettings:
    info = provider_info(spec.provider)
    options = dict(spec.options)
    key_env = _opt_str(options, "api_key_env") or info.api_key_env
    key = read_api_key(spec.provider, key_env, required=key_env is not None)
    headers = {"content-type": "application/json", "accept": "application/json"}
    headers.update(auth.headers(key))
    headers.update(_opt_headers(options))
    endpoint = Endpoint(
        provider=spec.provider,
        base_url=base_url_for(info, options),
        headers=headers,
        timeout_s=_opt_float(options, "timeout", DEFAULT_TIMEOUT_S),
        connect_timeout_s=_opt_float(options, "connect_timeout", DEFAULT_CONNECT_TIMEOUT_S),
        deadline_s=_opt_float(options, "timeout", None),  # a given `timeout` bounds it all
        max_retries=int(_opt_float(options, "max_retries", DEFAULT_MAX_RETRIES)),
        rate_limit=_opt_rate_limit(options),
    )
    params = {k: v for k, v in options.items() if k not in CLIENT_OPTIONS}
    extra = params.pop("extra_body", None) or {}  # options sent as written, unchecked
    if not isinstance(extra, dict):
        raise ModelOptionError("model option `extra_body` must be a map of request fields")
    params.update(extra)
    return ModelSettings(
        provider=spec.provider,
        name=spec.name,
        endpoint=endpoint,
        api_key_env=key_env,
        params=params,
    )


def check_client_options(options: Mapping[str, Any]) -> None:
    """The client options' types, checked without reading a key or the environment (for a
    model made in Python: `init_chat_model`); a bad one is a `ModelOptionError`."""
    opts = dict(options)
    for key in ("api_key_env", "base_url"):
        _opt_str(opts, key)
    for key in ("timeout", "connect_timeout", "max_retries"):
        _opt_float(opts, key, None)
    _opt_headers(opts)
    _opt_rate_limit(opts)


def read_api_key(provider: str, env_var: str | None, required: bool = True) -> str | None:
    """The key from `env_var`; a missing one is a clear error naming the variable."""
    if env_var is None:
        return None
    value = os.environ.get(env_var, "").strip()
    if not value:
        if not required:
            return None
        raise MissingAPIKeyError(
            provider,
            f"no API key: set the environment variable {env_var} "
            f"(or name another one with `api_key_env` in the model's options)",
        )
    register_secret(value)
    return value


class AuthStyle:
    """How a wire format carries the key: `Authorization: Bearer` or `x-api-key`."""

    def __init__(self, header: str, bearer: bool, fixed: Mapping[str, str] | None = None):
        self._header, self._bearer, self._fixed = header, bearer, dict(fixed or {})

    def headers(self, key: str | None) -> dict[str, str]:
        out = dict(self._fixed)
        if key:
            out[self._header] = f"Bearer {key}" if self._bearer else key
            register_secret(out[self._header])
        return out


def base_url_for(info: ProviderInfo, options: Mapping[str, Any]) -> str:
    """A3: the file's `base_url`, else the provider's environment variable, else the default."""
    url = _opt_str(dict(options), "base_url")
    if not url and info.base_url_env:
        url = os.environ.get(info.base_url_env, "").strip() or None
    url = url or info.base_url
    if not url:
        raise ModelOptionError(
            f"provider `{info.key}` has no default endpoint: set `base_url` in the model's options"
        )
    return url.rstrip("/")


def _opt_str(options: dict[str, Any], key: str) -> str | None:
    value = options.get(key)
    if value is None or isinstance(value, str):
        return value
    raise ModelOptionError(f"model option `{key}` must be a string, got {value!r}")


def _opt_float(options: dict[str, Any], key: str, default: float | None) -> Any:
    value = options.get(key, default)
    if value is None or (
        isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
    ):
        return value
    raise ModelOptionError(f"model option `{key}` must be a non-negative number, got {value!r}")


def _opt_headers(options: dict[str, Any]) -> dict[str, str]:
    value = options.get("headers") or {}
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise ModelOptionError("model option `headers` must be a map of strings to strings")
    return {k.lower(): v for k, v in value.items()}


def _opt_rate_limit(options: dict[str, Any]) -> RateLimit | None:
    value = options.get("rate_limit")
    if value is None:
        return None
    if (
        isinstance(value, dict)
        and isinstance(value.get("requests_per_second"), (int, float))
        and value["requests_per_second"] > 0
    ):
        return RateLimit(float(value["requests_per_second"]), int(value.get("burst", 1)))
    raise ModelOptionError(
        "model option `rate_limit` must be a map like { requests_per_second: 2, burst: 4 }"
    )
