"""Provider key → chat model: the one place that builds models from `ModelSpec`s.

Input: an `ir.ModelSpec` (already resolved from its string by the compiler, A1/A2) and the
directory of the `.agent` file that named it. Output: a `ChatModel`. The provider's wire
format (from `stdlib/data/providers.json`) picks a factory `module:callable(spec, base_dir)`,
imported only when first used; a provider whose wire agentc does not speak yet is a clear
`UnsupportedProviderError`, never an import error.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ...ir import ModelSpec, SourceSpan
from .base import ChatModel
from .resolve import UnknownModelError, Wire, parse_model_string, provider_info

FACTORIES: dict[Wire, str] = {
    Wire.OPENAI: "agentc.stdlib.providers.openai:OpenAIChatModel.from_spec",
    Wire.ANTHROPIC: "agentc.stdlib.providers.anthropic:AnthropicChatModel.from_spec",
    Wire.SCRIPTED: "agentc.stdlib.providers.scripted:ScriptedModel.from_spec",
}

COMMAND_LINE_SPAN = SourceSpan(
    file="<command line>", line=1, col=1, end_line=1, end_col=1, offset=0, end_offset=0
)


class UnsupportedProviderError(UnknownModelError):
    """A provider LangChain knows but agentc does not speak yet (no wire format)."""


def resolve_model(spec: ModelSpec, base_dir: str = ".") -> ChatModel:
    """The chat model for `spec`; options come from the `.agent` file, keys from the env."""
    info = provider_info(spec.provider)
    if info.wire is None:
        raise UnsupportedProviderError(
            f"provider `{spec.provider}` is not supported by agentc yet; use `openai`, "
            "`anthropic`, an OpenAI-compatible provider, or any OpenAI-compatible server "
            "with `openai:` and a `base_url` option"
        )
    return _load(FACTORIES[info.wire])(spec, base_dir)


def model_spec(
    text: str, options: dict[str, Any] | None = None, span: SourceSpan | None = None
) -> ModelSpec:
    """A `ModelSpec` from a model string, e.g. the CLI's `--model openai:gpt-4o-mini`."""
    provider, name = parse_model_string(text)
    return ModelSpec(
        spec=text,
        provider=provider,
        name=name,
        options=dict(options or {}),
        span=span or COMMAND_LINE_SPAN,
    )


def _load(ref: str) -> Callable[[ModelSpec, str], ChatModel]:
    module_name, _, attr = ref.partition(":")
    target: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        target = getattr(target, part)
    return target


def endpoint_for(spec: ModelSpec) -> str:
    """A3: where calls for `spec` go, without reading the key (`agentc explain`, `--verbose`)."""
    from .settings import base_url_for

    info = provider_info(spec.provider)
    if info.wire is None or info.wire is Wire.SCRIPTED:
        return f"{spec.provider} (no network)" if info.wire else f"{spec.provider} (unsupported)"
    path = "v1/messages" if info.wire is Wire.ANTHROPIC else "chat/completions"
    key = spec.options.get("api_key_env") or info.api_key_env
    return f"POST {base_url_for(info, spec.options)}/{path}" + (
        f" (key from ${key})" if key else " (no key)"
    )
