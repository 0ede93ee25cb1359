"""Whether a value given on the command line fits a channel's or context's type.

Input: a JSON value (from `--input '{…}'`, `--set`, `--context`) and the JSON Schema the
compiler wrote for the type (`ir.TypeSpec.json_schema`, or a schema of `Program.schemas`),
with the program's schemas for `$ref`s. Output: `mismatch(value, schema, defs)` → None when
the value fits, else a `Mismatch` that reads as one phrase naming where it does not
(`grade: expected one of "funny", "not funny", got "meh"`). Invariants: only the subset
the compiler writes is read (type, enum, const, anyOf/oneOf, items, properties, required,
additionalProperties, `$ref` to `#/$defs/Name`); anything else is accepted, so a check here
never refuses what the runtime would take. The runtime does not check channel values
against their types, which is why the CLI does it before a run starts (a typo then costs no
model call).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Schema = Mapping[str, Any]

_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
    "array": (list,),
    "object": (dict,),
}
_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "array": "a list",
    "object": "an object",
}


@dataclass(frozen=True, slots=True)
class Mismatch:
    """Where a value does not fit: its path (`feedback.grade`, `sections[1]`; empty at the
    top), what was expected there and what was given."""

    path: str
    wanted: str = ""
    got: str = ""
    note: str = ""  # instead of `expected …, got …`: `missing (required)`, `not a field …`

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return where + (self.note or f"expected {self.wanted}, got {self.got}")


def mismatch(
    value: Any, schema: Schema, defs: Mapping[str, Schema], path: str = ""
) -> Mismatch | None:
    """None when `value` fits `schema`; else where and how it does not."""
    schema = _resolve(schema, defs)
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        return _any_of(value, options, defs, path)
    if "const" in schema and value != schema["const"]:
        return _say(path, json.dumps(schema["const"]), value)
    if "enum" in schema and value not in schema["enum"]:
        return _say(path, expected(schema, defs), value)
    if not _kind_fits(value, schema):
        return _say(path, expected(schema, defs), value)
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        items = schema["items"]
        return _first(mismatch(v, items, defs, f"{path}[{i}]") for i, v in enumerate(value))
    if isinstance(value, dict):
        return _object(value, schema, defs, path)
    return None


def _any_of(
    value: Any, options: list[Schema], defs: Mapping[str, Schema], path: str
) -> Mismatch | None:
    """Fits one option; else, when one option is of the value's own kind (an object for
    `Feedback?`), what is wrong inside it, which says more than `a Feedback or null`."""
    problems = [mismatch(value, o, defs, path) for o in options]
    if any(p is None for p in problems):
        return None
    same_kind = [
        p for o, p in zip(options, problems, strict=True) if _kind_fits(value, _resolve(o, defs))
    ]
    if len(same_kind) == 1:
        return same_kind[0]
    return _say(path, " or ".join(expected(o, defs) for o in options), value)


def _object(
    value: dict[str, Any], schema: Schema, defs: Mapping[str, Schema], path: str
) -> Mismatch | None:
    props: Mapping[str, Schema] = schema.get("properties") or {}
    for key in schema.get("required") or ():
        if key not in value:
            return Mismatch(_at(path, key), note="missing (required)")
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        where = _at(path, key)
        if key in props:
            problem = mismatch(item, props[key], defs, where)
        elif extra is False and props:
            problem = Mismatch(where, note="not a field (the fields: " + ", ".join(props) + ")")
        else:
            problem = mismatch(item, extra, defs, where) if isinstance(extra, Mapping) else None
        if problem:
            return problem
    return None


def expected(schema: Schema, defs: Mapping[str, Schema]) -> str:
    """A few words for what fits `schema`: `an integer`, `one of "a", "b"`, `a Feedback`."""
    if isinstance(schema.get("$ref"), str):
        return f"a {schema['$ref'].rsplit('/', 1)[-1]}"
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        return " or ".join(expected(o, defs) for o in options)
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds] if kinds else []
    return " or ".join(_WORDS.get(k, str(k)) for k in kinds) or "anything"


def _resolve(schema: Schema, defs: Mapping[str, Schema]) -> Schema:
    """Follow `$ref: #/$defs/Name` to the program's (or the schema's own) definition."""
    seen = 0
    while isinstance(schema.get("$ref"), str) and seen < 20:  # a bound: refs may loop
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = (schema.get("$defs") or {}).get(name) or defs.get(name) or {}
        seen += 1
    return schema


def _kind_fits(value: Any, schema: Schema) -> bool:
    kinds = schema.get("type")
    if kinds is None:
        return True
    return any(_is(value, k) for k in (kinds if isinstance(kinds, list) else [kinds]))


def _is(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False  # JSON's true is not a number, though Python's bool is an int
    return isinstance(value, _KINDS.get(kind, (object,)))


def _say(path: str, wanted: str, value: Any) -> Mismatch:
    got = json.dumps(value, ensure_ascii=False, default=str)
    return Mismatch(path, wanted, got if len(got) <= 60 else got[:57] + "…")


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _first(problems: Iterable[Mismatch | None]) -> Mismatch | None:
    return next((p for p in problems if p), None)
