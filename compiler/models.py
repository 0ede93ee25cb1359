"""Model strings resolved as `init_chat_model` does (A1, A2), from the provider table.

Input: a model string (`"openai:gpt-4o-mini"`, `"claude-sonnet-5"`, `"scripted"`). Output:
`(provider, name)` or a diagnostic. The table is DATA (`stdlib/data/providers.json`, read
with `json`, located beside the prelude without importing stdlib Python).

A1: a prefix before the first `:` that is a known provider selects it; the rest is the name.
A2: otherwise the ordered, case-insensitive name-prefix table infers the provider; a name
matching nothing (`llama3:8b`: `llama3` is no provider and no prefix matches) is an error
at check time rather than at the first model call.
A prefix the table lacks may be an installed provider: an entry point of the group
`agentc.providers` (read as package metadata, so the provider's code is not imported here).
`model tools.make_model { … }` names a Python factory instead: it must be a function or class
of a `use`d module whose parameters take the options (read statically, as tools are).
Where a middleware setting or a graph `model(…)` node takes a model, the same reference
names a factory called with no options (`check_bare_factory`).
Invariant: the provider table is read once per process; no provider code is imported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from ..dsl import ast
from ..dsl.astclass import Record, record
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error, warning
from ..dsl.source import Span
from .paths import stdlib_file
from .pyscan import PyParam
from .resolve import PyTarget, python_ref
from .suggest import did_you_mean, distance, nearest
from .symbols import FileUnit


@record
class ProviderTable(Record):
    providers: tuple[str, ...]
    inference: tuple[tuple[str, str], ...]
    wires: tuple[tuple[str, str | None], ...] = ()  # provider → openai | anthropic | … | None


@lru_cache(maxsize=1)
def provider_table() -> ProviderTable:
    data = json.loads(stdlib_file("data/providers.json").read_text(encoding="utf-8"))
    return ProviderTable(
        tuple(data["providers"]),
        tuple((p.lower(), prov) for p, prov in data["inference"]),
        tuple((k, v.get("wire")) for k, v in data["providers"].items()),
    )


def provider_wire(provider: str) -> str | None:
    """The wire format agentc speaks to `provider` in (None: unknown or not spoken)."""
    return dict(provider_table().wires).get(provider)


@lru_cache(maxsize=1)
def _profiles() -> dict[str, Any]:
    return json.loads(stdlib_file("data/model_profiles.json").read_text(encoding="utf-8"))


def profiled_names(provider: str) -> tuple[str, ...] | None:
    """The model names the profile table lists for `provider` (None: it has no table)."""
    data = _profiles()
    tables = data["tables"].get(provider)
    if tables is None and provider not in data["models"]:
        return None
    return tuple(n for t in tables or [provider] for n in data["models"].get(t, {}))


def _listed(name: str, names: tuple[str, ...]) -> bool:
    """The entry itself, or a dated snapshot of one (`gpt-4o-2024-08-06`,
    `claude-sonnet-4-5@20250929`); `gpt-4o-mnii` is no snapshot of `gpt-4o`."""
    lowered = name.lower()
    return any(
        lowered == n or (lowered.startswith(n) and _SNAPSHOT.match(lowered, len(n)) is not None)
        for n in names
    )


def check_model_string(spec: ast.StringLit) -> list[Diagnostic]:
    """A model string where one stands (an agent's `model`, a `model(…)` node, a middleware
    setting): why it cannot be resolved, or a warning that its name looks misspelt."""
    found = resolve_model(spec.value, spec.span)
    if isinstance(found, Diagnostic):
        return [found]
    typo = check_model_name(*found, spec.span)
    return [typo] if typo is not None else []


def check_model_name(provider: str, name: str, span: Span) -> Diagnostic | None:
    """A model name one edit away from a name the profile table lists is most likely a
    typo (`gpt-4o-mnii`): a warning, since a model newer than the table is not an error.
    A name whose letters match and only its digits differ is a version, not a typo."""
    names = profiled_names(provider)
    if not names or not name or _listed(name, names):
        return None
    near = nearest(name.lower(), names)
    if near is None or distance(name.lower(), near) > 1:
        return None
    if _DIGITS.sub("", name.lower()) == _DIGITS.sub("", near):
        return None
    return warning(
        Code.UNLISTED_MODEL,
        f"`{provider}` has no model `{name}` in agentc's profile table",
        span,
        "not a model agentc knows",
        notes=(
            "if it is a model newer than the table, it runs as written, with its context "
            "window and prices unknown (model profiles, I2)",
        ),
        help=f"did you mean `{near}`?",
    )


_DIGITS = re.compile(r"[0-9]")
_SNAPSHOT = re.compile(r"-[0-9]|@")

ENTRY_POINT_GROUP = "agentc.providers"  # as stdlib/providers/resolve.py reads it


@lru_cache(maxsize=1)
def plugin_prefixes() -> frozenset[str]:
    """Prefixes installed packages serve; shipped providers win a shared prefix."""
    import importlib.metadata  # ~10 ms, paid only for a prefix the table lacks

    return frozenset(ep.name for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


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
    if sep and (prefix in table.providers or prefix in plugin_prefixes()):
        return prefix, rest
    inferred = infer_provider(spec)
    if inferred is not None:
        return inferred, spec
    known = sorted({*table.providers, *plugin_prefixes()})
    near = nearest(prefix, known) if sep and prefix.isidentifier() else None
    if near is not None and distance(prefix.lower(), near) <= 1:  # a typo, not a name
        return error(
            Code.UNKNOWN_PROVIDER,
            f"unknown model provider `{prefix}`",
            span,
            "not a provider",
            help=did_you_mean(prefix, known),
        )
    return error(
        Code.UNKNOWN_MODEL,
        f"cannot tell which provider serves `{spec}`",
        span,
        "no provider prefix and no known model-name prefix",
        notes=(
            "a name without a known `provider:` prefix is matched against name prefixes "
            "such as `gpt-`, `claude` and `gemini` (provider inference, A2)",
        ),
        help='write the provider first, e.g. `"ollama:' + spec + '"`',
    )


# ---------------------------------------------------------------- a factory named in the file


def model_factory(unit: FileUnit, ref: ast.Ref) -> PyTarget | Diagnostic | None:
    """`tools.make_model` resolved in its `use`d module (None: the module itself is missing
    and was reported), or why it names no function or class."""
    found = python_ref(unit, ref)
    if isinstance(found, Diagnostic) or not isinstance(found, PyTarget):
        return found if isinstance(found, Diagnostic) else None
    if found.function is None and found.cls is None:
        return error(
            Code.TYPE_MISMATCH,
            f"`{ref.dotted}` is not a function or class",
            ref.span,
            "a model factory is called with the options",
            help="name a function (or class) that returns the chat model",
        )
    return found


def check_bare_factory(unit: FileUnit, ref: ast.Ref) -> list[Diagnostic]:
    """A factory named where a model string may stand (`summarization { model: tools.make }`):
    it is called with no options, so it may need none."""
    found = model_factory(unit, ref)
    if not isinstance(found, PyTarget):
        return [found] if found is not None else []
    fn, cls = found.function, found.cls
    params: tuple[PyParam, ...] = fn.params if fn else (cls.init_params or ()) if cls else ()
    return [
        error(
            Code.MISSING_PARAM,
            f"model factory `{ref.dotted}` needs `{p.name}`",
            ref.span,
            "called here with no options",
            notes=(f"{p.name}: {p.annotation}" if p.annotation else p.name,),
            help="give the parameter a default, or wrap the factory in one that takes none",
        )
        for p in params
        if p.required
    ]


def check_factory(unit: FileUnit, ref: ast.Ref, options: ast.MapLit | None) -> Iterator[Diagnostic]:
    """The options of `model tools.make_model { … }` against the factory's parameters: each
    key a parameter (unless it takes **kwargs), each required parameter given."""
    found = model_factory(unit, ref)
    if not isinstance(found, PyTarget):
        if found is not None:
            yield found
        return
    fn, cls = found.function, found.cls
    params: tuple[PyParam, ...] = fn.params if fn else (cls.init_params or ()) if cls else ()
    # a class without an `__init__` of its own inherits one this file does not show
    open_keys = fn.var_keyword if fn else bool(cls and (cls.init_kwargs or cls.init_params is None))
    by_name = {p.name: p for p in params}
    given = set()
    for entry in options.entries if options else ():
        key = entry.key.text
        given.add(key)
        if key not in by_name and not open_keys:
            yield error(
                Code.UNKNOWN_PARAM,
                f"model factory `{ref.dotted}` has no parameter `{key}`",
                entry.key.span,
                "not a parameter of the factory",
                help=did_you_mean(key, by_name)
                or (
                    "its parameters are " + ", ".join(f"`{p}`" for p in by_name)
                    if by_name
                    else f"`{ref.dotted}` takes no options"
                ),
            )
    for name, p in by_name.items():
        if p.required and name not in given:
            yield error(
                Code.MISSING_PARAM,
                f"model factory `{ref.dotted}` needs `{name}`",
                ref.span,
                f"`{name}` is not given",
                notes=(f"{name}: {p.annotation}" if p.annotation else name,),
                help=f"add `{name}: …` to the model's options",
            )
