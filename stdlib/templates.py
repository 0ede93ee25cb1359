"""Prompt templates of a graph's model nodes, filled from the task's state.

Input: an `ir.Template` (literal text and `{channel}` / `{channel.key}` fields, split by the
compiler), the task's state (for a task a `Send` made, the Send's payload: that IS the
task's state) and the node's name for errors. Output: the text. Values render as a user
would write them into a prompt: a string as is, a dict or list (or a pydantic model,
dataclass, message) as JSON, any other value with `str()`. A field the state does not
hold is a `TemplateError` naming the node and the placeholder; the compiler checks field
names against the state, so this only fires for what it cannot see (a Send's payload).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from ..ir import Template, TemplateField
from ..runtime.errors import AgentcRuntimeError

_MISSING = object()


class TemplateError(AgentcRuntimeError):
    """A template placeholder the task's state cannot fill."""

    code = "template-field-missing"


def render(template: Template, state: Any, node: str) -> str:
    """The template's text with every field filled from `state`."""
    out: list[str] = []
    for part in template.parts:
        out.append(part if isinstance(part, str) else as_text(lookup(state, part, node, template)))
    return "".join(out)


def lookup(state: Any, f: TemplateField, node: str, template: Template) -> Any:
    """`state[name][key]…`: mapping keys, or attributes of an object (a typed payload)."""
    value = _get(state, f.name)
    for i, key in enumerate(f.path):
        if value is _MISSING:
            break
        value = _get(value, key)
        if value is _MISSING:
            placeholder = ".".join([f.name, *f.path[: i + 1]])
            raise TemplateError(
                f"model node `{node}` cannot fill `{{{'.'.join([f.name, *f.path])}}}`: "
                f"`{placeholder}` is not in the value",
                span=template.span,
                help="check the key names of the value the placeholder reads",
            )
    if value is _MISSING:
        raise TemplateError(
            f"model node `{node}` cannot fill `{{{'.'.join([f.name, *f.path])}}}`: the "
            f"task's state has no `{f.name}` (keys: {', '.join(_keys(state)) or 'none'})",
            span=template.span,
            help="set the channel before this node runs, or, for a node a Send feeds, "
            "put the key in the Send's payload",
        )
    return value


def _get(value: Any, key: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(key, _MISSING)
    if isinstance(value, BaseModel) or dataclasses.is_dataclass(value):
        return getattr(value, key, _MISSING)
    return _MISSING


def _keys(state: Any) -> list[str]:
    if isinstance(state, Mapping):
        return sorted(str(k) for k in state)
    if isinstance(state, BaseModel):
        return sorted(type(state).model_fields)
    if dataclasses.is_dataclass(state):
        return [f.name for f in dataclasses.fields(state)]
    return []


def as_text(value: Any) -> str:
    """How one value reads inside a prompt."""
    if isinstance(value, str):
        return value
    if isinstance(value, (Mapping, Sequence, BaseModel)) or (
        dataclasses.is_dataclass(value) and not isinstance(value, type)
    ):
        return json.dumps(_jsonable(value), ensure_ascii=False)
    return str(value)


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
