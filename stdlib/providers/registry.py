"""Provider key → chat model: the one place that builds models from `ModelSpec`s.

Input: an `ir.ModelSpec` (already resolved from its string by the compiler, A1/A2) and the
directory of the `.agent` file that named it. Output: a `ChatModel`. The provider's wire
format (from `stdlib/data/providers.json`) picks a factory `(spec, base_dir) -> ChatModel`
whose wire module is imported only when first used (the HTTP wires load httpx); a provider
whose wire agentc does not speak yet is a clear `UnsupportedProviderError`, never an import
error. A spec with a `factory`, or whose provider an installed package serves, is built by
`plugins.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...ir import ModelSpec, SourceSpan
from .base import ChatModel
from .plugins import from_entry_point, from_factory
from .resolve import UnknownModelError, Wire, parse_model_string, provider_info

Factory = Callable[[ModelSpec, str], ChatModel]


# Each wire module is imported on first use, so a run that needs no network loads no httpx.
def _openai(spec: ModelSpec, base_dir: str) -> ChatModel:
    from .openai import OpenAIChatModel

    return OpenAIChatModel.from_spec(spec, base_dir)


def _anthropic(spec: ModelSpec, base_dir: str) -> ChatModel:
    from .anthropic import AnthropicChatModel

    return AnthropicChatModel.from_spec(spec, base_dir)


def _scripted(spec: ModelSpec, base_dir: str) -> ChatModel:
    from .scripted import ScriptedModel

    return ScriptedModel.from_spec(spec, base_dir)


FACTORIES: dict[Wire, Factory] = {
    Wire.OPENAI: _openai,
    Wire.ANTHROPIC: _anthropic,
    Wire.SCRIPTED: _scripted,
}

# Every field given and of its type, so constructed as validation would build it, without
# building SourceSpan's schema at import (a cached run never needs it otherwise).
COMMAND_LINE_SPAN = SourceSpan.model_construct(
    file="<command line>", line=1, col=1, end_line=1, end_col=1, offset=0, end_offset=0
)


class UnsupportedProviderError(UnknownModelError):
    """A provider LangChain knows but agentc does not speak yet (no wire format)."""


def resolve_model(spec: ModelSpec, base_dir: str = ".") -> ChatModel:
    """The chat model for `spec`; options come from the `.agent` file, keys from the env.

    A factory named in the file, or a provider an installed package declares, builds the
    model itself (plugins.py); the shipped wires come from the provider table."""
    if spec.factory is not None:
        return from_factory(spec, spec.factory, base_dir)
    info = provider_info(spec.provider)
    if info.plugin:
        return from_entry_point(spec)
    if info.wire is None:
        raise UnsupportedProviderError(
            f"provider `{spec.provider}` is not supported by agentc yet; use `openai`, "
            "`anthropic`, an OpenAI-compatible provider, or any OpenAI-compatible server "
            "with `openai:` and a `base_url` option"
        )
    return FACTORIES[info.wire](spec, base_dir)


def model_spec(
    text: str, options: dict[str, Any] | None = None, span: SourceSpan | None = None
) -> ModelSpec:
    """A `ModelSpec` from a model string, e.g. the CLI's `--model openai:gpt-4o-mini` or a
    middleware's `model: "…"` setting; `scripted` alone is the scripted provider."""
    if text == Wire.SCRIPTED.value:
        provider, name = text, ""
    else:
        provider, name = parse_model_string(text)
    return ModelSpec(
        spec=text,
        provider=provider,
        name=name,
        options=dict(options or {}),
        span=span or COMMAND_LINE_SPAN,
    )


def endpoint_for(spec: ModelSpec) -> str:
    """A3: where calls for `spec` go, without reading the key (`agentc explain`, `--verbose`)."""
    from .settings import base_url_for  # loads httpx: only when an endpoint is asked for

    if spec.factory is not None:
        return f"{spec.factory.key} (a model factory)"
    info = provider_info(spec.provider)
    if info.plugin:
        return f"{spec.provider} (an installed provider)"
    if info.wire is None or info.wire is Wire.SCRIPTED:
        return f"{spec.provider} (no network)" if info.wire else f"{spec.provider} (unsupported)"
    path = "v1/messages" if info.wire is Wire.ANTHROPIC else "chat/completions"
    key = spec.options.get("api_key_env") or info.api_key_env
    return f"POST {base_url_for(info, spec.options)}/{path}" + (
        f" (key from ${key})" if key else " (no key)"
    )
