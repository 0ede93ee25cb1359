"""Checking a value against a JSON Schema of `Program.schemas`: a Send's payload (a node's
`input: Schema`) and a run's context (`Graph.context`).

Input: a schema as the compiler writes it (or as pydantic writes it for a Python class):
`type` (one or a list), `properties` / `required` / `additionalProperties`, `items`,
`enum`, `const`, `anyOf` / `oneOf`, `$ref` into `$defs`. Output: the first `Problem` (the
path to the offending field and what was expected), or None. The runtime may not import
the stdlib's pydantic model builder, and this subset needs no library: unknown keywords
are accepted (the check is never stricter than the schema says).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

import agentc.ir as ir
from agentc.runtime.errors import InvalidContextError


@dataclass(frozen=True, slots=True)
class Problem:
    path: tuple[str | int, ...]  # () : the value itself
    expected: str
    got: Any

    @property
    def where(self) -> str:
        return ".".join(map(str, self.path))

    def describe(self) -> str:
        """`field `name`: expected a string, got 3 (int)`."""
        got = "nothing" if self.got is _ABSENT else f"{_short(self.got)} ({_kind(self.got)})"
        field = f"field `{self.where}`: " if self.path else ""
        return f"{field}expected {self.expected}, got {got}"


_ABSENT: Any = object()  # a required field that is missing

_TYPES: dict[str, str] = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
    "array": "a list",
    "object": "an object",
}


def find_schema(program: ir.Program, name: str) -> dict[str, Any]:
    for s in program.schemas:
        if s.name == name:
            return dict(s.json_schema)
    raise KeyError(name)


def check(schema: Mapping[str, Any], value: Any) -> Problem | None:
    """The first way `value` fails `schema` (depth first, fields in schema order)."""
    return _check(schema, value, (), schema.get("$defs") or {})


def with_defaults(schema: Mapping[str, Any], value: Mapping[str, Any]) -> dict[str, Any]:
    """`value` with the top-level defaults of an object schema filled in (as a pydantic
    model built from the schema would have them)."""
    out = dict(value)
    for key, sub in (schema.get("properties") or {}).items():
        if key not in out and isinstance(sub, Mapping) and "default" in sub:
            out[key] = sub["default"]
    return out


def _check(
    schema: Mapping[str, Any], value: Any, path: tuple[str | int, ...], defs: Mapping[str, Any]
) -> Problem | None:
    value = _as_json(value)
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = defs.get(ref.rsplit("/", 1)[-1])
        return _check(target, value, path, defs) if isinstance(target, Mapping) else None
    if "const" in schema and not _same(value, schema["const"]):
        return Problem(path, f"`{_short(schema['const'])}`", value)
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        return Problem(path, "one of " + ", ".join(f"`{_short(e)}`" for e in schema["enum"]), value)
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        problems = [_check(o, value, path, defs) for o in options]
        if all(p is not None for p in problems):
            # the one option whose shape the value has, failing deeper down, says most
            deeper = [p for p in problems if p is not None and len(p.path) > len(path)]
            return deeper[0] if len(deeper) == 1 else _union_problem(path, options, value)
    typ = schema.get("type")
    if typ is not None:
        names = typ if isinstance(typ, list) else [typ]
        if not any(_is_type(value, t) for t in names):
            return Problem(path, _type_names(names), value)
    if isinstance(value, Mapping):
        return _check_object(schema, value, path, defs)
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        items = schema.get("items")
        if isinstance(items, Mapping):
            for i, item in enumerate(value):
                if (p := _check(items, item, (*path, i), defs)) is not None:
                    return p
    return None


def _as_json(value: Any) -> Any:
    """A pydantic model or dataclass instance is checked as the object of its fields (a
    structured answer travels as the model the schema was made from)."""
    if isinstance(value, BaseModel):
        return dict(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    return value


def _check_object(
    schema: Mapping[str, Any],
    value: Mapping[str, Any],
    path: tuple[str | int, ...],
    defs: Mapping[str, Any],
) -> Problem | None:
    props: Mapping[str, Any] = schema.get("properties") or {}
    for key in schema.get("required") or ():
        if key not in value:
            sub = props.get(key)
            what = _expected(sub, defs) if isinstance(sub, Mapping) else "a value"
            return Problem((*path, key), what, _ABSENT)
    extra = schema.get("additionalProperties")
    for key, item in value.items():
        sub = props.get(key)
        if sub is None:
            if extra is False:
                return Problem((*path, key), "no such field", item)
            sub = extra if isinstance(extra, Mapping) else None
        if sub is not None and (p := _check(sub, item, (*path, key), defs)) is not None:
            return p
    return None


def _union_problem(path: tuple[str | int, ...], options: list[Any], value: Any) -> Problem:
    return Problem(path, " or ".join(_expected(o, {}) for o in options), value)


def _expected(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    if "$ref" in schema:
        return f"a `{str(schema['$ref']).rsplit('/', 1)[-1]}`"
    if "const" in schema:
        return f"`{_short(schema['const'])}`"
    if "enum" in schema:
        return "one of " + ", ".join(f"`{_short(e)}`" for e in schema["enum"])
    typ = schema.get("type")
    if typ is None:
        return "a value"
    return _type_names(typ if isinstance(typ, list) else [typ])


def _type_names(names: list[Any]) -> str:
    return " or ".join(_TYPES.get(str(t), str(t)) for t in names)


def _is_type(value: Any, name: str) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "array":
        return isinstance(value, Sequence) and not isinstance(value, (str, bytes, Mapping))
    if name == "object":
        return isinstance(value, Mapping)
    return True  # a type this subset does not know: not ours to refuse


def _same(a: Any, b: Any) -> bool:
    # JSON equality: `true` is not `1`
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def _kind(value: Any) -> str:
    return type(value).__name__


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def run_context(
    graph: str, schema_name: str, schema: Mapping[str, Any], context: Mapping[str, Any] | None
) -> dict[str, Any]:
    """A run's context checked against its graph's `context` schema, with the schema's
    defaults filled in; a mismatch is one error naming the field and what it expected."""
    if context is not None and not isinstance(context, Mapping):
        raise InvalidContextError(
            f"graph `{graph}` takes a context `{schema_name}`: a mapping of its fields, "
            f"not a {type(context).__name__}",
            help="pass context={...} with the schema's fields",
        )
    value = with_defaults(schema, context or {})
    problem = check(schema, value)
    if problem is not None:
        given = "" if context is not None else " (no context was given)"
        raise InvalidContextError(
            f"the run's context does not match `{schema_name}`, the context of graph "
            f"`{graph}`{given}: {problem.describe()}",
            help=f"pass context={{...}} with the fields of `{schema_name}`",
        )
    return value
