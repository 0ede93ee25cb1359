"""Model strings resolved as `init_chat_model` does (A1, A2), from the provider table.

Input: a model string (`"openai:gpt-4o-mini"`, `"claude-sonnet-5"`, `"scripted"`). Output:
`(provider, name)` or a diagnostic. The table is DATA (`stdlib/data/providers.json`, read
with `json`, located beside the prelude without importing stdlib Python).

A1: a prefix before the first `:` that is a known provider selects it; the rest is the name.
A2: otherwise the ordered, case-insensitive name-prefix table infers the provider; a name
matching nothing (`llama3:8b`: `llama3` is no provider and no prefix matches) is an error
at check time rather than at the first model call.
Invariant: the provider table is read once per process; no provider code is imported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from ..dsl import ast
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error
from ..dsl.source import Span
from .paths import stdlib_file
from .suggest import did_you_mean, distance, nearest


@dataclass(frozen=True, slots=True)
class ProviderTable:
    providers: tuple[str, ...]
    inference: tuple[tuple[str, str], ...]


@lru_cache(maxsize=1)
def provider_table() -> ProviderTable:
    data = json.loads(stdlib_file("data/providers.json").read_text(encoding="utf-8"))
    return ProviderTable(
        tuple(data["providers"]), tuple((p.lower(), prov) for p, prov in data["inference"])
    )


def infer_provider(name: str) -> str | None:
    lowered = name.lower()
    return next(
        (prov for prefix, prov in provider_table().inference if lowered.startswith(prefix)), None
    )


def resolve_model(spec: str, span: Span) -> tuple[str, str] | Diagnostic:
    """(provider, model name) for a model string, or why it cannot be resolved."""
    table = provider_table()
    if spec in table.providers:  # `model "scripted"`: a provider without a name
        return spec, ""
    prefix, sep, rest = spec.partition(":")
    if sep and prefix in table.providers:
        return prefix, rest
    inferred = infer_provider(spec)
    if inferred is not None:
        return inferred, spec
    near = nearest(prefix, table.providers) if sep and prefix.isidentifier() else None
    if near is not None and distance(prefix.lower(), near) <= 1:  # a typo, not a name
        return error(
            Code.UNKNOWN_PROVIDER,
            f"unknown model provider `{prefix}`",
            span,
            "not a provider",
            help=did_you_mean(prefix, table.providers),
        )
    return error(
        Code.UNKNOWN_MODEL,
        f"cannot tell which provider serves `{spec}`",
        span,
        "no provider prefix and no known model-name prefix",
        notes=(
            "A2: a name without a known `provider:` prefix is matched against "
            "name prefixes such as `gpt-`, `claude` and `gemini`",
        ),
        help='write the provider first, e.g. `"ollama:' + spec + '"`',
    )


# ---------------------------------------------------------------- secrets stay out of files

_SECRET_KEY = re.compile(r"(?i)(^|_)(api_?key|secret|password|token|credentials?)$")
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "x-api-key", "api-key"})


def check_model_options(entries: Iterable[tuple[ast.Name, ast.Expr]]) -> Iterator[Diagnostic]:
    """A key (`api_key: "sk-…"`) or auth header written literally would land in the IR, the
    IR cache, diagrams and every copy of the file: refuse it and point at `api_key_env`."""
    for key, value in entries:
        if _SECRET_KEY.search(key.text) and not isinstance(value, ast.NoneLit):
            yield _secret(key.span, f"`{key.text}` is written in the file")
        elif key.text == "headers" and isinstance(value, ast.MapLit):
            for header in value.entries:
                if header.key.text.lower() in _SECRET_HEADERS:
                    yield _secret(
                        header.key.span, f"header `{header.key.text}` is written in the file"
                    )


def _secret(span: Span, message: str) -> Diagnostic:
    return error(
        Code.SECRET_IN_FILE,
        message,
        span,
        "a credential in a file gets copied and committed",
        help='name the environment variable that holds it instead: `api_key_env: "MY_KEY"`',
    )
