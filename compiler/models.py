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

import importlib.metadata
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ..dsl import ast
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error
from ..dsl.source import Span
from .paths import stdlib_file
from .pyscan import PyParam
from .resolve import PyTarget, python_ref
from .suggest import did_you_mean, distance, nearest
from .symbols import FileUnit


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


ENTRY_POINT_GROUP = "agentc.providers"  # as stdlib/providers/resolve.py reads it


@lru_cache(maxsize=1)
def plugin_prefixes() -> frozenset[str]:
    """Prefixes installed packages serve; shipped providers win a shared prefix."""
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
            "A2: a name without a known `provider:` prefix is matched against "
            "name prefixes such as `gpt-`, `claude` and `gemini`",
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
