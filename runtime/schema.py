"""Checking a value against a JSON Schema of `Program.schemas` or a channel's type: a
Send's payload (a node's `input: Schema`), a run's context (`Graph.context`), and what
`agentc run --input/--set/--context` gives a run (the CLI adapts it in `runner/given.py`).

Input: a schema as the compiler writes it (or as pydantic writes it for a Python class):
`type` (one or a list), `properties` / `required` / `additionalProperties`, `items`,
`enum`, `const`, `anyOf` / `oneOf`, `$ref` to `#/$defs/Name` (found in the schema's own
`$defs`, else among the program's schemas: a channel's type names a schema only by `$ref`).
Output: the first `Problem`, which reads as one phrase naming where the value does not fit
(`feedback.grade: expected one of "funny", "not funny", got "meh"`), or None. The runtime
may not import the stdlib's pydantic model builder, and this subset needs no library:
unknown keywords are accepted (the check is never stricter than the schema says).
"""

from __future__ import annotations

import dataclasses
import inspect
import json
from collections.abc import Mapping, Sequence
from pathlib import Path as FilePath
from typing import Any, get_args, get_origin

from pydantic import BaseModel, ConfigDict, PydanticUserError, TypeAdapter
from pydantic.errors import PydanticInvalidForJsonSchema

import agentc.ir as ir
from agentc.runtime.errors import InvalidContextError, ToolSchemaError
from agentc.runtime.records import dataclass
from agentc.runtime.serde import FILE_MODULE_PREFIX

Schema = Mapping[str, Any]
Path = tuple[str | int, ...]

_ABSENT: Any = object()  # `got` of a problem that is a note, not a value
_REF_HOPS = 20  # a bound: `$ref`s may loop (A → B → A) without a value to end them


@dataclass(frozen=True, slots=True)
class Problem:
    """Where a value does not fit: its path (`()` the value itself), what was expected
    there and what was found, or a note instead (`missing (required)`, `not a field …`)."""

    path: Path
    expected: str = ""
    got: Any = _ABSENT
    note: str = ""

    @property
    def where(self) -> str:
        """`feedback.grade`, `sections[1]`: the path as one would write it."""
        out = ""
        for step in self.path:
            out += f"[{step}]" if isinstance(step, int) else f".{step}" if out else step
        return out

    @property
    def shown(self) -> str:
        """The value found, as JSON when it is JSON (else its repr and type), shortened."""
        return _show(self.got)

    @property
    def what(self) -> str:
        return self.note or f"expected {self.expected}, got {self.shown}"

    def __str__(self) -> str:
        """`tags[1]: expected a string, got 3` (the command line's wording)."""
        return f"{self.where}: {self.what}" if self.path else self.what

    def describe(self) -> str:
        """`field `name`: missing (required)` (the runtime's errors)."""
        return f"field `{self.where}`: {self.what}" if self.path else self.what


_TYPES: dict[str, str] = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "array": "a list",
    "object": "an object",
}


def find_schema(program: ir.Program, name: str) -> dict[str, Any]:
    for s in program.schemas:
        if s.name == name:
            return dict(s.json_schema)
    raise KeyError(name)


def program_defs(program: ir.Program) -> dict[str, Schema]:
    """The program's schemas by name: what a `$ref` outside a schema's own `$defs` names."""
    return {s.name: s.json_schema for s in program.schemas}


def check(
    schema: Schema, value: Any, defs: Mapping[str, Schema] | None = None, at: Path = ()
) -> Problem | None:
    """The first way `value` fails `schema` (depth first, fields in schema order); `defs`:
    the program's schemas, `at`: where the value stands (its problems' paths start there)."""
    return _Checker({**(defs or {}), **(schema.get("$defs") or {})}).check(schema, value, at)


def with_defaults(schema: Schema, value: Mapping[str, Any]) -> dict[str, Any]:
    """`value` with the top-level defaults of an object schema filled in (as a pydantic
    model built from the schema would have them)."""
    out = dict(value)
    for key, sub in (schema.get("properties") or {}).items():
        if key not in out and isinstance(sub, Mapping) and "default" in sub:
            out[key] = sub["default"]
    return out


@dataclass(frozen=True, slots=True)
class _Checker:
    defs: Mapping[str, Schema]  # the program's schemas, under the root schema's `$defs`

    def check(self, schema: Schema, value: Any, path: Path) -> Problem | None:
        schema = self.resolve(schema)
        value = _as_json(value)
        if "const" in schema and not _same(value, schema["const"]):
            return Problem(path, self.expected(schema), value)
        if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
            return Problem(path, self.expected(schema), value)
        options = schema.get("anyOf") or schema.get("oneOf")
        if options and (problem := self.any_of(options, value, path)) is not None:
            return problem
        typ = schema.get("type")
        if typ is not None and not any(_is_type(value, t) for t in _listed(typ)):
            return Problem(path, _type_names(_listed(typ)), value)
        if isinstance(value, Mapping):
            return self.object(schema, value, path)
        items = schema.get("items")
        if _is_type(value, "array") and isinstance(items, Mapping):
            for i, item in enumerate(value):
                if (p := self.check(items, item, (*path, i))) is not None:
                    return p
        return None

    def any_of(self, options: list[Any], value: Any, path: Path) -> Problem | None:
        """None when one option fits; else, when exactly one option fails deeper down (the
        object of `Feedback?` with a wrong field), that problem, which says more than `a
        `Feedback` or null`."""
        problems = [self.check(o, value, path) for o in options]
        if any(p is None for p in problems):
            return None
        deeper = [p for p in problems if p is not None and len(p.path) > len(path)]
        if len(deeper) == 1:
            return deeper[0]
        return Problem(path, " or ".join(self.expected(o) for o in options), value)

    def object(self, schema: Schema, value: Mapping[str, Any], path: Path) -> Problem | None:
        props: Mapping[str, Any] = schema.get("properties") or {}
        for key in schema.get("required") or ():
            if key not in value:
                return Problem((*path, key), note="missing (required)")
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            sub = props.get(key)
            if sub is None and extra is False:
                fields = ", ".join(props) or "none"
                return Problem((*path, key), note=f"not a field (the fields: {fields})")
            sub = extra if sub is None else sub
            if isinstance(sub, Mapping) and (p := self.check(sub, item, (*path, key))) is not None:
                return p
        return None

    def expected(self, schema: Schema) -> str:
        """A few words for what fits: `an integer`, `one of "a", "b"`, `a `Feedback``."""
        if isinstance(schema.get("$ref"), str):
            return f"a `{_ref_name(schema['$ref'])}`"
        options = schema.get("anyOf") or schema.get("oneOf")
        if options:
            return " or ".join(self.expected(o) for o in options)
        if "const" in schema:
            return _show(schema["const"])
        if "enum" in schema:
            return "one of " + ", ".join(_show(e) for e in schema["enum"])
        typ = schema.get("type")
        return "a value" if typ is None else _type_names(_listed(typ))

    def resolve(self, schema: Schema) -> Schema:
        """Follow `$ref`s: to the schema's own `$defs`, then the root's and the program's;
        a name found nowhere is a schema that takes anything (not ours to refuse)."""
        for _ in range(_REF_HOPS):
            ref = schema.get("$ref")
            if not isinstance(ref, str):
                return schema
            name = _ref_name(ref)
            schema = (schema.get("$defs") or {}).get(name) or self.defs.get(name) or {}
        return {}


def _as_json(value: Any) -> Any:
    """A pydantic model or dataclass instance is checked as the object of its fields (a
    structured answer travels as the model the schema was made from)."""
    if isinstance(value, BaseModel):
        return dict(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    return value


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _listed(typ: Any) -> list[Any]:
    return typ if isinstance(typ, list) else [typ]


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


def _show(value: Any) -> str:
    """JSON for a JSON value (`"meh"`, `3`, `true`); a Python value JSON cannot write
    exactly (a set, an object) by its repr and type, so it is not mistaken for a string."""
    try:
        return _short(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        return f"{_short(repr(value))} ({type(value).__name__})"


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "…"


def run_context(
    graph: str,
    schema_name: str,
    schema: Schema,
    context: Mapping[str, Any] | None,
    defs: Mapping[str, Schema] | None = None,
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
    problem = check(schema, value, defs)
    if problem is not None:
        given = "" if context is not None else " (no context was given)"
        raise InvalidContextError(
            f"the run's context does not match `{schema_name}`, the context of graph "
            f"`{graph}`{given}: {problem.describe()}",
            help=f"pass context={{...}} with the fields of `{schema_name}`",
        )
    return value


# ---------------------------------------------------------------- a tool's schema, located


def tool_json_schema(model: type[BaseModel], tool: str) -> dict[str, Any]:
    """The JSON schema of a tool's arguments model; a parameter whose type no JSON schema
    can describe (a plain class) is a `ToolSchemaError` naming the tool, the parameter, the
    type by its file's module name and the `.py` file and line it is defined at, in place of
    pydantic's error (which names the runtime's internal module name and no place)."""
    try:
        return model.model_json_schema()
    except PydanticInvalidForJsonSchema:
        for name, info in model.model_fields.items():
            cls = _unschemable(info.annotation)
            if cls is not None:
                raise ToolSchemaError(tool, name, _type_name(cls), _defined_at(cls)) from None
        raise


def _unschemable(annotation: Any) -> type | None:
    """The first class in `annotation` (`list[Point] | None`: Point) that no schema fits."""
    pending = [annotation]
    while pending:
        t = pending.pop(0)
        pending += [a for a in get_args(t) if a is not None]
        if isinstance(t, type) and get_origin(t) is None and not _schemable(t):
            return t
    return None


def _schemable(t: type) -> bool:
    try:
        TypeAdapter(t, config=ConfigDict(arbitrary_types_allowed=True)).json_schema()
    except PydanticInvalidForJsonSchema:
        return False
    except (PydanticUserError, TypeError):  # a type that carries its own config: judged whole
        return True
    return True


def _type_name(cls: type) -> str:
    """`tools.Point` for a class of a `use`d file (the runtime imports it under an internal
    name), else `module.Class`."""
    module = cls.__module__
    if module.startswith(FILE_MODULE_PREFIX):
        file = _source_file(cls)
        module = FilePath(file).stem if file else module
    return f"{module}.{cls.__qualname__}"


def _defined_at(cls: type) -> str:
    file = _source_file(cls)
    try:
        line = inspect.getsourcelines(cls)[1]
    except (OSError, TypeError):
        line = 0
    where = FilePath(file).name if file else "file unknown"
    return f"{where}:{line}" if line else where


def _source_file(cls: type) -> str | None:
    try:
        return inspect.getsourcefile(cls)
    except TypeError:  # a built-in class
        return None
