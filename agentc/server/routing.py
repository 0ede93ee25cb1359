"""The route table's parts: one `Op` per endpoint, the `Context` handlers share, and the
helpers every handler uses to read a request.

Input: a request. Output: a validated body model, path and query values checked, or an
`ApiError` naming what was wrong and what was expected. Invariants: the table of `Op`s
is the one place an endpoint is declared — the app's routes and the OpenAPI document are
both made from it (`app.py`, `openapi.py`).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from agentc.runtime.store import ItemStore

from .assistants import Registry
from .engine import Engine
from .errors import ApiError, validation_detail
from .repo import AsyncRepository, Repository

Handler = Callable[[Request], Awaitable[Response]]
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Context:
    """What every handler may use: the served graphs, the saved rows, the run engine.
    Handlers read and write rows through `rows` (awaited: off the event loop when the
    database blocks), never through `repo` itself."""

    registry: Registry
    repo: Repository
    engine: Engine
    store: ItemStore
    rows: AsyncRepository = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", AsyncRepository(self.repo))


@dataclass(frozen=True, slots=True)
class Op:
    """One endpoint: the route, its handler, and what the OpenAPI document says of it."""

    method: str
    path: str
    handler: Handler
    summary: str
    tag: str
    body: type[BaseModel] | None = None
    returns: str = "application/json"  # or "text/event-stream", or "" (no content)
    query: tuple[str, ...] = ()  # the query parameters it reads
    refusals: tuple[int, ...] = (401, 404, 409, 413, 422)  # the 4xx statuses it may answer


def ok(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=headers)


def no_content() -> Response:
    return Response(status_code=204)


async def read_body(request: Request, model: type[M], *, optional: bool = False) -> M:
    """The body as `model`: 422 for text that is not JSON, JSON that is not an object,
    or an object whose fields are wrong (each named)."""
    raw = await request.body()
    if not raw.strip():
        if optional:
            return model()
        raise ApiError(422, "the request needs a JSON body", expected="a JSON object")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        why = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        raise ApiError(
            422, f"the body is not valid JSON: {why}", expected="a JSON object"
        ) from None
    if not isinstance(data, dict):
        raise ApiError(
            422, f"the body is a JSON {_kind(data)}, not an object", expected="a JSON object"
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        detail, problems = validation_detail(exc, "body")
        raise ApiError(422, detail, errors=problems) from None


def _kind(data: Any) -> str:
    return {list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(data), "number"
    )


def path_uuid(request: Request, name: str) -> str:
    """A path id that must be a UUID (as LangGraph's server requires), lower-case."""
    value = str(request.path_params[name])
    return check_uuid(value, name)


def check_uuid(value: str, name: str) -> str:
    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise ApiError(
            422, f"{name} {value!r} is not a UUID", expected=f"{name} in UUID form"
        ) from None


def query_bool(request: Request, name: str, default: bool = False) -> bool:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if raw.lower() in ("true", "1", "yes"):
        return True
    if raw.lower() in ("false", "0", "no"):
        return False
    raise ApiError(
        422, f"query parameter {name}={raw!r} is not a boolean", expected="true or false"
    )


def query_int(request: Request, name: str, default: int, low: int = 0, high: int = 1000) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ApiError(
            422,
            f"query parameter {name}={raw!r} is not a whole number from {low} to {high}",
        )
    return value
