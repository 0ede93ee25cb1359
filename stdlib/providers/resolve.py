"""Model strings → (provider, model name), as init_chat_model reads them (A1, A2).

Input: a model string such as `openai:gpt-4o-mini`, `claude-sonnet-4-5` or `llama3:8b`.
Output: `(provider_key, model_name)`, or `UnknownModelError`. Pure and data-driven: the
provider table and the ordered name-prefix table live in `stdlib/data/providers.json`, which
the compiler also reads as data; a prefix the table lacks may be an installed provider (an
entry point of `agentc.providers`, read as metadata). Shipped providers win a shared prefix.
No I/O beyond reading that file and the entry-point metadata once.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import importlib.metadata

PROVIDERS_JSON = Path(__file__).resolve().parent.parent / "data" / "providers.json"


class Wire(str, Enum):
    """The wire format a provider speaks; providers without one are known but not spoken."""

    OPENAI = "openai"
    ANTHROPIC = "anthropic"
    SCRIPTED = "scripted"


@dataclass(frozen=True, slots=True)
class ProviderInfo:
    key: str
    wire: Wire | None
    base_url: str | None
    base_url_env: str | None
    api_key_env: str | None
    langchain: bool
    plugin: bool = False  # served by an installed package (entry-point group agentc.providers)


@dataclass(frozen=True, slots=True)
class ProviderTable:
    providers: Mapping[str, ProviderInfo]
    inference: tuple[tuple[str, str], ...]


ENTRY_POINT_GROUP = "agentc.providers"  # read by compiler/models.py too


@functools.cache
def plugin_providers() -> Mapping[str, importlib.metadata.EntryPoint]:
    """Installed prefix → entry point; reading it imports none of the packages."""
    import importlib.metadata  # ~10 ms, paid only for a prefix the provider table lacks

    return {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}


class UnknownModelError(ValueError):
    """A model string whose provider is neither a known prefix nor inferable (A1, A2)."""


@functools.cache
def provider_table() -> ProviderTable:
    raw = json.loads(PROVIDERS_JSON.read_text(encoding="utf-8"))
    providers = {key: _info(key, entry) for key, entry in raw["providers"].items()}
    return ProviderTable(
        providers=MappingProxyType(providers),
        inference=tuple((prefix, key) for prefix, key in raw["inference"]),
    )


def _info(key: str, entry: dict) -> ProviderInfo:
    wire = entry.get("wire")
    return ProviderInfo(
        key=key,
        wire=Wire(wire) if wire else None,
        base_url=entry.get("base_url"),
        base_url_env=entry.get("base_url_env"),
        api_key_env=entry.get("api_key_env"),
        langchain=bool(entry.get("langchain", False)),
    )


def provider_info(key: str) -> ProviderInfo:
    info = provider_table().providers.get(key)
    if info is None and key in plugin_providers():
        return ProviderInfo(key, None, None, None, None, langchain=False, plugin=True)
    if info is None:
        raise UnknownModelError(f"unknown model provider `{key}`; known providers: {_known()}")
    return info


def infer_provider(name: str) -> str | None:
    """A2: the first name prefix that matches, case-insensitively; None when none does.

    The match reads the name only, so `gpt-oss-20b` is OpenAI and `o4-mini` matches nothing.
    """
    lowered = name.lower()
    for prefix, key in provider_table().inference:
        if lowered.startswith(prefix):
            return key
    return None


def parse_model_string(spec: str) -> tuple[str, str]:
    """`provider:name` when the text before the first colon is a known key (A1), else A2.

    Any other prefix is not a prefix: `llama3:8b` goes whole to name inference and fails.
    """
    head, sep, rest = spec.partition(":")
    if sep and (head in provider_table().providers or head in plugin_providers()):
        if not rest:
            raise UnknownModelError(f"model string `{spec}` names provider `{head}` but no model")
        return head, rest
    inferred = infer_provider(spec)
    if inferred is None:
        raise UnknownModelError(
            f"cannot tell which provider serves model `{spec}`: write it as "
            f"`provider:{spec}` with one of: {_known()}"
        )
    return inferred, spec


def _known() -> str:
    return ", ".join(sorted({*provider_table().providers, *plugin_providers()}))
