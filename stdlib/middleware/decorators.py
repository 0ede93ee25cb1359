"""Decorator-style hooks: one function becomes one middleware (LangChain's decorators).

Input: a function `fn(state, runtime)` (`@before_agent`, `@before_model`, `@after_model`,
`@after_agent`), `fn(request, handler)` (`@wrap_model_call`, `@wrap_tool_call`) or
`fn(request) -> str | SystemMessage` (`@dynamic_prompt`), sync or async. Output: an instance
of a fresh `AgentMiddleware` subclass named after the function (or `name=`), so
`type(log_turn).__name__ == "log_turn"` and `isinstance(log_turn, AgentMiddleware)` as in
seed 002. An async function becomes the `a`-prefixed hook; `can_jump_to` is recorded on the
hook (the compiler reads it from the decorator statically).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from ..messages import SystemMessage
from .base import AgentMiddleware


def _build(
    fn: Callable[..., Any],
    method: str,
    *,
    name: str | None,
    can_jump_to: Sequence[str] | None,
    state_schema: Any,
    tools: Sequence[Any] | None,
) -> AgentMiddleware:
    is_async = inspect.iscoroutinefunction(fn)
    attr = f"a{method}" if is_async else method

    if method in ("wrap_model_call", "wrap_tool_call"):

        def hook(self: Any, request: Any, handler: Any) -> Any:
            return fn(request, handler)
    else:

        def hook(self: Any, state: Any, runtime: Any) -> Any:
            return fn(state, runtime)

    if is_async:

        async def ahook(self: Any, *args: Any) -> Any:
            return await fn(*args)

        chosen: Any = ahook
    else:
        chosen = hook
    chosen.__name__ = attr
    chosen.__can_jump_to__ = list(can_jump_to or [])
    body: dict[str, Any] = {
        attr: chosen,
        "__module__": getattr(fn, "__module__", __name__),
        "__doc__": fn.__doc__,
        "__wrapped__": fn,
        "state_schema": state_schema,
        "tools": list(tools or []),
    }
    cls = type(name or fn.__name__, (AgentMiddleware,), body)
    return cls()


def _decorator(method: str) -> Callable[..., Any]:
    def decorator(
        func: Callable[..., Any] | None = None,
        *,
        state_schema: Any = None,
        tools: Sequence[Any] | None = None,
        can_jump_to: Sequence[str] | None = None,
        name: str | None = None,
    ) -> Any:
        def wrap(fn: Callable[..., Any]) -> AgentMiddleware:
            return _build(
                fn,
                method,
                name=name,
                can_jump_to=can_jump_to,
                state_schema=state_schema,
                tools=tools,
            )

        return wrap(func) if func is not None else wrap

    decorator.__name__ = method
    decorator.__doc__ = f"Make `fn` a middleware whose `{method}` hook it is."
    return decorator


before_agent = _decorator("before_agent")
before_model = _decorator("before_model")
after_model = _decorator("after_model")
after_agent = _decorator("after_agent")
wrap_model_call = _decorator("wrap_model_call")
wrap_tool_call = _decorator("wrap_tool_call")


def dynamic_prompt(func: Callable[..., Any] | None = None, *, name: str | None = None) -> Any:
    """`fn(request) -> str | SystemMessage`: the system prompt of each model call,
    recomputed every call (B1: never saved in the state)."""

    def wrap(fn: Callable[..., Any]) -> AgentMiddleware:
        async def awrap_model_call(self: Any, request: Any, handler: Any) -> Any:
            prompt = fn(request)
            if inspect.isawaitable(prompt):
                prompt = await prompt
            message = prompt if isinstance(prompt, SystemMessage) else SystemMessage(content=prompt)
            return await handler(request.override(system_message=message))

        body = {
            "awrap_model_call": awrap_model_call,
            "__wrapped__": fn,
            "__module__": getattr(fn, "__module__", __name__),
            "__doc__": fn.__doc__,
        }
        return type(name or fn.__name__, (AgentMiddleware,), body)()

    return wrap(func) if func is not None else wrap
