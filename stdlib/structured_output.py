"""Structured output: a schema the final answer must fit, asked for as a tool or natively.

Input: an `ir.OutputSpec` with its `ir.SchemaSpec`s (declared in the `.agent` file as JSON
Schema, or naming a pydantic model / dataclass / TypedDict / JSON-schema dict in Python), the
model's profile, and each model reply. Output: the tools or native response format to offer
(B7), the messages to write and the parsed answer, or the error that ends the run.

Seats: B7 (how the shape reaches the model), G3 (validation: typed schemas are checked, a
raw JSON-schema dict from Python passes unchecked as in LangChain), G4 (tool strategy retries
with the error told to the model), G5 (auto picks native when the profile or a known model
name says so), G6 (native answers are never retried), G7 (several answers at once: none
counts), C6/G8 (answers beside other tool calls: routing ends the run after them).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from ..ir import OutputSpec, OutputStrategy, SchemaSpec
from ..runtime.records import dataclass
from .messages import AIMessage, BaseMessage, ToolMessage
from .providers.base import ModelProfile, ResponseFormat, ToolDefinition

ERROR_TEMPLATE = "Error: {error}\n Please fix your mistakes."  # G4, as LangChain words it

# G5: names assumed to support native structured output when the profile does not say
# (facts about providers, mirrored from LangChain 1.4.10's fallback list).
NATIVE_NAME_PATTERNS = (
    r"(^|[/:.])gpt-4\.1($|[-/:])",
    r"(^|[/:.])gpt-4o($|[-/:])",
    r"(^|[/:.])gpt-5($|[-/:])",
    r"(^|[/:.])gpt-5\.[1-5]($|[-/:])",
    r"(^|[/:.])gpt-6-(astra|luna|sol)($|[-/:])",
    r"(^|[/:.])claude-(fable|mythos)-5",
    r"(^|[/:.])claude-haiku-4-5",
    r"(^|[/:.])claude-opus-4-[5-8]",
    r"(^|[/:.])claude-sonnet-4-[56]",
    r"(^|[/:.])grok-4($|[-.:/])",
    r"(^|[/:.])grok-build($|[-/:])",
)


@functools.cache
def _native_name_res() -> tuple[re.Pattern[str], ...]:
    """NATIVE_NAME_PATTERNS compiled on first use, not at import (start-up)."""
    return tuple(re.compile(p) for p in NATIVE_NAME_PATTERNS)


class StructuredOutputError(Exception):
    """A structured answer that cannot be accepted; carries the AI message that held it."""

    def __init__(self, message: str, ai_message: AIMessage | None = None) -> None:
        super().__init__(message)
        self.ai_message = ai_message


class MultipleStructuredOutputsError(StructuredOutputError):
    """G7: several structured answers in one reply."""

    def __init__(self, names: list[str], ai_message: AIMessage) -> None:
        super().__init__(
            "Model incorrectly returned multiple structured responses "
            f"({', '.join(names)}) when only one is expected.",
            ai_message,
        )
        self.tool_names = names


class StructuredOutputValidationError(StructuredOutputError):
    """G3/G6: an answer that does not fit its schema."""

    def __init__(self, name: str, source: Exception, ai_message: AIMessage) -> None:
        super().__init__(
            f"Failed to parse structured output for tool '{name}': {source}.", ai_message
        )
        self.tool_name = name
        self.source = source


# ---------------------------------------------------------------- schemas


@dataclass(frozen=True, slots=True)
class OutputSchema:
    """One schema: what the model reads, and how an answer is checked (None: unchecked)."""

    name: str
    description: str
    json_schema: dict[str, Any]
    validator: Callable[[Any], Any] | None

    def parse(self, data: Any) -> Any:
        if self.validator is None:  # G3: a raw JSON-schema dict passes unchecked
            return data
        try:
            return self.validator(data)
        except Exception as exc:
            raise ValueError(f"Failed to parse data to {self.name}: {exc}") from exc

    def tool(self) -> ToolDefinition:
        return ToolDefinition(self.name, self.description, self.json_schema)


def schema_from_python(obj: Any, name: str | None = None, doc: str | None = None) -> OutputSchema:
    """A pydantic model, dataclass, TypedDict, or a JSON-schema dict (checked: none, G3)."""
    if isinstance(obj, dict):
        title = name or str(obj.get("title", "response_format"))
        return OutputSchema(title, doc or str(obj.get("description", "")), obj, None)
    adapter = TypeAdapter(obj)
    _register(obj)
    schema_name = name or getattr(obj, "__name__", "response_format")
    description = doc or (getattr(obj, "__doc__", None) or "")
    return OutputSchema(
        schema_name,
        description.strip() if isinstance(description, str) else "",
        adapter.json_schema(),
        adapter.validate_python,
    )


def schema_from_spec(spec: SchemaSpec, load: Callable[[Any], Any] | None = None) -> OutputSchema:
    """A schema of the program: a Python object when `ref` is set, else declared JSON Schema
    made into a pydantic model, so its answers are checked as a pydantic model's are (G3)."""
    if spec.ref is not None and load is not None:
        # B7: a Python schema's tool is named as LangChain names it: the class's __name__,
        # or a JSON-schema dict's title (not the qualified name the file used).
        return schema_from_python(load(spec.ref), None, spec.doc)
    model = model_from_json_schema(spec.json_schema, spec.name)
    _register(model, f"schema.{spec.name}")
    if spec.doc:
        model.__doc__ = spec.doc
    return OutputSchema(
        spec.name,
        spec.doc or str(spec.json_schema.get("description", "")),
        spec.json_schema,
        model.model_validate,
    )


def _register(cls: Any, name: str | None = None) -> None:
    """Let answers of this schema be saved in checkpoints (JSON only, never pickle)."""
    from ..runtime.serde import register_type

    if isinstance(cls, type) and (
        hasattr(cls, "model_validate") or hasattr(cls, "__dataclass_fields__")
    ):
        register_type(cls, name)


_SCALARS: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "null": type(None),
}


def model_from_json_schema(schema: dict[str, Any], name: str) -> type[BaseModel]:
    """A frozen pydantic model for an object JSON Schema (the subset the compiler writes)."""
    defs = schema.get("$defs", {})
    return _object_model(schema, name, defs)


def _object_model(schema: dict[str, Any], name: str, defs: dict[str, Any]) -> type[BaseModel]:
    required = set(schema.get("required", []))
    fields: dict[str, Any] = {}
    for key, sub in schema.get("properties", {}).items():
        typ = _py_type(sub, f"{name}_{key}", defs)
        desc = sub.get("description")
        if key in required:
            fields[key] = (typ, Field(..., description=desc))
        else:
            fields[key] = (typ, Field(sub.get("default"), description=desc))
    config = ConfigDict(frozen=True, title=schema.get("title", name))
    return create_model(name, __config__=config, **fields)


def _py_type(schema: dict[str, Any], name: str, defs: dict[str, Any]) -> Any:
    if "$ref" in schema:
        ref = schema["$ref"].rsplit("/", 1)[-1]
        return _py_type(defs.get(ref, {}), ref, defs)
    if "const" in schema:
        return Literal[schema["const"]]
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        return _union([_py_type(o, name, defs) for o in options])
    typ = schema.get("type")
    if isinstance(typ, list):
        return _union([_py_type({**schema, "type": t}, name, defs) for t in typ])
    if typ == "array":
        return list[_py_type(schema.get("items", {}), name, defs)]
    if typ == "object":
        if "properties" in schema:
            return _object_model(schema, schema.get("title", name), defs)
        return dict[str, _py_type(schema.get("additionalProperties") or {}, name, defs)]
    return _SCALARS.get(typ, Any) if isinstance(typ, str) else Any


def _union(types: list[Any]) -> Any:
    if len(types) == 1:
        return types[0]
    if type(None) in types and len(types) == 2:
        return Optional[next(t for t in types if t is not type(None))]  # noqa: UP045  # built at run time
    return Union[tuple(types)]  # noqa: UP007  # a union of types only known at run time


# ---------------------------------------------------------------- the configured output


@dataclass(frozen=True, slots=True)
class StructuredOutput:
    """An agent's `output` clause, bound: its strategy and its schemas (a union if several)."""

    strategy: OutputStrategy
    schemas: tuple[OutputSchema, ...]
    handle_errors: bool | str = True
    tool_message_content: str | None = None
    strict: bool | None = None

    @classmethod
    def from_spec(cls, output: OutputSpec, schemas: dict[str, OutputSchema]) -> StructuredOutput:
        return cls(
            output.strategy,
            tuple(schemas[n] for n in output.schemas),
            output.handle_errors,
            output.tool_message_content,
            output.strict,
        )

    @property
    def tool_names(self) -> frozenset[str]:
        return frozenset(s.name for s in self.schemas)

    def effective(
        self, profile: ModelProfile | None, model_name: str, has_tools: bool
    ) -> OutputStrategy:
        """G5: auto picks native output when the model is known to support it."""
        if self.strategy is not OutputStrategy.AUTO:
            return self.strategy
        native = supports_native(profile, model_name, has_tools)
        return OutputStrategy.PROVIDER if native else OutputStrategy.TOOL

    def response_format(self) -> ResponseFormat:
        """B7: the provider strategy names one schema (the first of a union)."""
        s = self.schemas[0]
        return ResponseFormat(s.name, s.json_schema, self.strict)

    def tools(self) -> tuple[ToolDefinition, ...]:
        return tuple(s.tool() for s in self.schemas)


def supports_native(profile: ModelProfile | None, model_name: str, has_tools: bool) -> bool:
    name = model_name.lower()
    if profile is not None and profile.structured_output:
        # LangChain's exception: Gemini before 3 cannot mix tools and native output.
        if not (has_tools and "gemini" in name and "gemini-3" not in name):
            return True
    return any(p.search(name) for p in _native_name_res())


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one model reply writes: messages, and the parsed answer when there is one."""

    messages: tuple[BaseMessage, ...]
    structured_response: Any = None


def handle_tool_strategy(out: StructuredOutput, reply: AIMessage) -> Outcome:
    """B7/G3/G4/G7: read structured-output tool calls from one reply."""
    calls = [c for c in reply.tool_calls if c.name in out.tool_names]
    if not calls:
        return Outcome((reply,))
    if len(calls) > 1:  # G7: none counts
        exc: StructuredOutputError = MultipleStructuredOutputsError([c.name for c in calls], reply)
        return _retry_or_raise(out, reply, exc, calls)
    call = calls[0]
    schema = next(s for s in out.schemas if s.name == call.name)
    try:
        value = schema.parse(call.args)
    except Exception as source:
        return _retry_or_raise(
            out, reply, StructuredOutputValidationError(call.name, source, reply), [call]
        )
    content = out.tool_message_content or f"Returning structured response: {value}"
    answer = ToolMessage(content=content, tool_call_id=call.id or "", name=call.name)
    return Outcome((reply, answer), value)


def _retry_or_raise(
    out: StructuredOutput, reply: AIMessage, exc: StructuredOutputError, calls: list[Any]
) -> Outcome:
    if out.handle_errors is False:
        raise exc
    text = (
        out.handle_errors
        if isinstance(out.handle_errors, str)
        else ERROR_TEMPLATE.format(error=str(exc))
    )
    # G4: the error reaches the model as the structured tool's answer (status stays success,
    # as in LangChain), and the model→model or model→tools edge calls the model again.
    answers = tuple(ToolMessage(content=text, tool_call_id=c.id or "", name=c.name) for c in calls)
    return Outcome((reply, *answers))


def handle_provider_strategy(out: StructuredOutput, reply: AIMessage) -> Outcome:
    """G6: a native answer that is not JSON or does not fit raises at once."""
    if reply.tool_calls:
        return Outcome((reply,))
    return Outcome((reply,), parse_native(out, reply))


def parse_native(out: StructuredOutput, reply: AIMessage) -> Any:
    """G6: the reply's text as JSON, checked by the (first) schema; raises when it fails."""
    schema = out.schemas[0]
    try:
        try:
            data = json.loads(reply.text)
        except Exception as exc:
            raise ValueError(
                f"Native structured output expected valid JSON for {schema.name},"
                f" but parsing failed: {exc}."
            ) from exc
        value = schema.parse(data)
    except Exception as exc:
        raise StructuredOutputValidationError(schema.name, exc, reply) from exc
    return value


# ---------------------------------------------------------------- one reply, read once


def parse_answer(out: StructuredOutput, strategy: OutputStrategy, reply: AIMessage) -> Any:
    """A reply read the way LangChain's `model.with_structured_output(S)` reads it: the
    FIRST schema tool call's arguments (tool strategy; its parser's `first_tool_only`), or
    the reply's text as JSON (provider strategy), checked by the schema (G3). No tool
    message is made and nothing is retried (G4 is the agent's loop, not this call's);
    None when the reply holds no answer (LangChain's parser returns None too)."""
    if strategy is OutputStrategy.TOOL:
        call = next((c for c in reply.tool_calls if c.name in out.tool_names), None)
        if call is None:
            return None
        schema = next(s for s in out.schemas if s.name == call.name)
        try:
            return schema.parse(call.args)
        except Exception as source:
            raise StructuredOutputValidationError(call.name, source, reply) from source
    if reply.tool_calls and not reply.text:
        return None
    return parse_native(out, reply)
