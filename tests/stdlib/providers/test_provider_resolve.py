"""Model strings (A1, A2), the provider table's agreement with LangChain, profiles (I2)."""

from __future__ import annotations

import json
import warnings

import pytest

from agentc.stdlib.providers.profiles import profile_for
from agentc.stdlib.providers.registry import UnsupportedProviderError, model_spec, resolve_model
from agentc.stdlib.providers.resolve import (
    PROVIDERS_JSON,
    UnknownModelError,
    parse_model_string,
    provider_table,
)


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("openai:gpt-5.5", ("openai", "gpt-5.5")),
        ("anthropic:claude-sonnet-4-5", ("anthropic", "claude-sonnet-4-5")),
        ("ollama:llama3:8b", ("ollama", "llama3:8b")),  # only the first colon splits
        ("gpt-oss-20b", ("openai", "gpt-oss-20b")),  # A2 reads the name only
        ("GPT-4o", ("openai", "GPT-4o")),  # case-insensitive
        ("o3-mini", ("openai", "o3-mini")),
        ("claude-3-5-haiku", ("anthropic", "claude-3-5-haiku")),
        ("gemini-2.5-pro", ("google_vertexai", "gemini-2.5-pro")),
        ("anthropic.claude-v2", ("bedrock", "anthropic.claude-v2")),
        ("mixtral-8x7b", ("mistralai", "mixtral-8x7b")),
        ("grok-4", ("xai", "grok-4")),
    ],
)
def test_A1_A2_parse(spec, expected):
    assert parse_model_string(spec) == expected


@pytest.mark.parametrize("spec", ["llama3:8b", "o4-mini", "mystery", "openai:"])
def test_A2_unknown_names_raise(spec):
    with pytest.raises(UnknownModelError):
        parse_model_string(spec)


def test_A1_table_matches_langchain():
    from langchain.chat_models import base as lc

    ours = {k for k, v in provider_table().providers.items() if v.langchain}
    assert ours == set(lc._BUILTIN_PROVIDERS)


@pytest.mark.parametrize(
    "name",
    [
        "gpt-4o",
        "gpt-oss-20b",
        "o1-preview",
        "o3",
        "o4-mini",
        "chatgpt-4o-latest",
        "text-davinci-003",
        "claude-opus-4",
        "command-r",
        "accounts/fireworks/models/x",
        "gemini-2.5-pro",
        "amazon.titan",
        "anthropic.claude",
        "meta.llama3",
        "mistral-large",
        "mixtral-8x7b",
        "deepseek-chat",
        "grok-4",
        "sonar-pro",
        "solar-pro",
        "llama3",
        "Claude-X",
    ],
)
def test_A2_inference_matches_langchain(name):
    from langchain.chat_models import base as lc

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = lc._attempt_infer_model_provider(name)
    ours = None
    try:
        ours = parse_model_string(name)[0]
    except UnknownModelError:
        pass
    assert ours == expected


def test_providers_json_shape():
    raw = json.loads(PROVIDERS_JSON.read_text())
    assert set(raw) >= {"providers", "inference"}
    for key, entry in raw["providers"].items():
        assert entry["wire"] in ("openai", "anthropic", "scripted", None), key
        assert {"base_url", "api_key_env"} <= set(entry), key


def test_unsupported_provider_is_clear():
    with pytest.raises(UnsupportedProviderError, match="bedrock"):
        resolve_model(model_spec("bedrock:anthropic.claude-v2"))


def test_I2_profiles():
    p = profile_for("openai", "gpt-4o-mini-2024-07-18")  # a dated snapshot
    assert (p.context_window, p.structured_output, p.tool_calling) == (128000, True, True)
    assert profile_for("openai", "gpt-4o").input_price_per_mtok == 2.5  # not gpt-4o-mini's
    assert profile_for("anthropic", "claude-sonnet-4-5-20250929").max_output_tokens == 64000
    assert profile_for("google_genai", "gemini-2.5-flash").context_window == 1048576
    unknown = profile_for("groq", "llama-3.3-70b")
    assert unknown.context_window is None and unknown.structured_output is None
