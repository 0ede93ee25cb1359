"""Model profiles (I2): what a model is known to do, from a table shipped in the package.

Input: a provider key and a model name. Output: a `ModelProfile`; unknown fields are None,
and a model the table does not list is all None (unknown, never guessed). The table is
`stdlib/data/model_profiles.json`; a name matches its exact entry, else the longest entry
that it extends by `-` or `@` (a dated snapshot such as `gpt-4o-2024-08-06`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path
from typing import Any

from .base import ModelProfile

PROFILES_JSON = Path(__file__).resolve().parent.parent / "data" / "model_profiles.json"
_FIELDS = frozenset(f.name for f in dataclasses.fields(ModelProfile))
UNKNOWN = ModelProfile()


@functools.cache
def _table() -> dict[str, Any]:
    return json.loads(PROFILES_JSON.read_text(encoding="utf-8"))


def profile_for(provider: str, name: str) -> ModelProfile:
    """The shipped profile of `provider:name`, or an all-unknown profile."""
    data = _table()
    for table in data["tables"].get(provider, [provider]):
        entry = _match(data["models"].get(table, {}), name)
        if entry is not None:
            return ModelProfile(**{k: v for k, v in entry.items() if k in _FIELDS})
    return UNKNOWN


def _match(models: dict[str, dict[str, Any]], name: str) -> dict[str, Any] | None:
    lowered = name.lower()
    if lowered in models:
        return models[lowered]
    best = None
    for key in models:
        if lowered.startswith(key) and lowered[len(key) : len(key) + 1] in ("-", "@"):
            if best is None or len(key) > len(best):
                best = key
    return models[best] if best is not None else None
