"""Every failure a request can meet, as a 4xx with a JSON body that names what was wrong.

Input: an `ApiError` raised by a route, a body that does not validate (pydantic), a
runtime error from the graph (`AgentcRuntimeError`), an unknown path. Output: a JSON
response `{"detail": "...", ...}` with the status LangGraph's server uses (404 unknown,
409 busy, 422 invalid). Invariants: no traceback and no secret reaches a response; a bug
(an exception nobody expected) is a 500 with a fixed sentence, logged with its type only.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from agentc.runtime.errors import AgentcRuntimeError, ThreadBusyError

log = logging.getLogger("agentc.serve")


class ApiError(Exception):
    """A request the server refuses: its status and what the caller should know."""

    def __init__(self, status: int, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.extra = extra


def not_found(what: str, ident: str, known: list[str] | None = None) -> ApiError:
    extra: dict[str, Any] = {"expected": f"the id of an existing {what}"}
    if known is not None:
        extra["known"] = known
    return ApiError(404, f"{what} {ident!r} not found", **extra)


def error_body(status: int, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"detail": detail, **extra}, status_code=status)


def validation_detail(err: ValidationError, where: str) -> tuple[str, list[dict[str, Any]]]:
    """One sentence for the first problem, and every problem as `{loc, msg}`."""
    problems = [
        {"loc": [where, *(str(p) for p in e["loc"])], "msg": e["msg"], "type": e["type"]}
        for e in err.errors(include_url=False, include_input=False)
    ]
    first = problems[0] if problems else {"loc": [where], "msg": "invalid"}
    field = ".".join(first["loc"])
    return f"invalid {field}: {first['msg']}", problems


def runtime_status(err: AgentcRuntimeError) -> int:
    return 409 if isinstance(err, ThreadBusyError) else 422


async def on_api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_body(exc.status, exc.detail, **exc.extra)


async def on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ValidationError)
    detail, problems = validation_detail(exc, "body")
    return error_body(422, detail, errors=problems)


async def on_runtime_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AgentcRuntimeError)
    return error_body(
        runtime_status(exc), exc.message, code=exc.code, **({"help": exc.help} if exc.help else {})
    )


async def on_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return error_body(
            404,
            f"no such endpoint: {request.method} {request.url.path}",
            expected="a path of the LangGraph Agent Server API (see GET /openapi.json)",
        )
    if exc.status_code == 405:
        return error_body(405, f"{request.method} is not allowed on {request.url.path}")
    return error_body(exc.status_code, str(exc.detail))


async def on_bug(request: Request, exc: Exception) -> JSONResponse:
    log.error("request %s %s failed: %s", request.method, request.url.path, type(exc).__name__)
    return error_body(500, "the server failed on this request; its log names the error")


HANDLERS: dict[Any, Any] = {
    ApiError: on_api_error,
    ValidationError: on_validation_error,
    AgentcRuntimeError: on_runtime_error,
    HTTPException: on_http_error,
    Exception: on_bug,
}


def exception_payload(exc: BaseException) -> dict[str, Any]:
    """What an SSE `error` event and a failed run's `__error__` say: the error's kind and
    message (LangGraph's `{error, message}`), never its traceback."""
    if isinstance(exc, AgentcRuntimeError):
        return {"error": exc.code, "message": exc.message}
    if isinstance(exc, ApiError):
        return {"error": "bad-request", "message": exc.detail}
    return {"error": type(exc).__name__, "message": "the run failed; the server log names why"}
