"""The OpenAPI 3.1 document of what this server serves, made from the route table.

Input: the `Op`s of every route module. Output: the document `GET /openapi.json` sends:
one operation per `Op` (its path parameters from the path, its query parameters, its
request body as the JSON Schema of its pydantic model, its responses — the error body
for every 4xx it can answer). Invariants: nothing is written by hand per endpoint, so
the document cannot describe an endpoint the server lacks, or miss one it has.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict

from agentc.version import __version__

from .routing import Op

_PARAM = re.compile(r"{(\w+)}")


class ErrorBody(BaseModel):
    """What every refusal carries."""

    model_config = ConfigDict(extra="allow")
    detail: str
    expected: str | None = None


def document(ops: list[Op]) -> dict[str, Any]:
    schemas: dict[str, Any] = {}
    paths: dict[str, Any] = {}
    for op in ops:
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op, schemas)
    _add(ErrorBody, schemas)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "agentc serve",
            "version": __version__,
            "description": "The LangGraph Agent Server API, served from .agent files.",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "apiKey": {"type": "apiKey", "in": "header", "name": "x-api-key"},
                "bearer": {"type": "http", "scheme": "bearer"},
            },
        },
    }


def _operation(op: Op, schemas: dict[str, Any]) -> dict[str, Any]:
    params = [
        {"name": p, "in": "path", "required": True, "schema": {"type": "string"}}
        for p in _PARAM.findall(op.path)
    ] + [{"name": q, "in": "query", "required": False, "schema": {"type": "string"}}
         for q in op.query]  # fmt: skip
    out: dict[str, Any] = {
        "summary": op.summary,
        "tags": [op.tag],
        "operationId": f"{op.method.lower()}_{_slug(op.path)}",
        "responses": _responses(op),
    }
    if params:
        out["parameters"] = params
    if op.body is not None:
        name = _add(op.body, schemas)
        out["requestBody"] = {
            "required": op.method != "POST" or not _all_optional(op.body),
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}},
        }
    return out


# One server-sent event as clients (and schemathesis) read the stream, event by event:
# its name (`metadata`, `values`, `updates`, `messages`, `events`, `error` …), its JSON text
# and the id `Last-Event-ID` names.
SSE_EVENT: dict[str, Any] = {
    "type": "object",
    "required": ["event", "data"],
    "properties": {
        "event": {"type": "string"},
        "data": {"type": "string"},
        "id": {"type": "string"},
    },
}


def _responses(op: Op) -> dict[str, Any]:
    error = {
        "description": "refused: the body says what was wrong and what was expected",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    }
    if op.returns == "":
        good: dict[str, Any] = {"204": {"description": "done"}}
    elif op.returns == "text/event-stream":
        events = {"text/event-stream": {"schema": SSE_EVENT}}
        good = {"200": {"description": "server-sent events", "content": events}}
    else:
        good = {"200": {"description": "success", "content": {"application/json": {"schema": {}}}}}
    if op.method == "POST" and op.path.endswith("/cancel"):
        good["202"] = {"description": "cancel requested"}
    return {**good, **{str(c): error for c in op.refusals}}


def _add(model: type[BaseModel], schemas: dict[str, Any]) -> str:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    for name, sub in schema.pop("$defs", {}).items():
        schemas[name] = sub
    schemas[model.__name__] = schema
    return model.__name__


def _all_optional(model: type[BaseModel]) -> bool:
    return all(not f.is_required() for f in model.model_fields.values())


def _slug(path: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", path.lower()).strip("_") or "root"
