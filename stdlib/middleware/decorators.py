"""Decorator-style hooks: one function becomes one middleware (LangChain's decorators).

Input: a function `fn(state, runtime)` (`@before_agent`, `@before_model`, `@after_model`,
`@after_agent`), `fn(request, handler)` (`@wrap_model_call`, `@wrap_tool_call`) or
`fn(request) -> str | SystemMessage` (`@dynamic_prompt`), sync or async. Output: an instance
of a fresh `AgentMiddleware` subclass named after the function (or `name=`), so
`type(log_turn).__name__ == "log_turn"` and `isinstance(log_turn, AgentMiddleware)`. An
async function becomes the `a`-prefixed hook; `can_jump_to` is recorded on the hook (the
compiler reads it from the decorator statically).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, overload

from ..messages import SystemMessage
from .base import AgentMiddleware, ModelRequest, ModelResult, ToolLike

HookFn = Callable[..., Any]  # (state, runtime) or (request, handler), sync or async
WRAPPERS = ("wrap_model_call", "wrap_tool_call")


def _sync_hook(fn: HookFn, method: str) -> Callable[..., Any]:
    if method in WRAPPERS:

        def wrap(self: AgentMiddleware, request: Any, handler: Any) -> Any:
            return fn(request, handler)

        return wrap

    def hook(self: AgentMiddleware, state: Any, runtime: Any) -> Any:
        return fn(state, runtime)

    return hook


def _async_hook(fn: HookFn) -> Callable[..., Any]:
    async def ahook(self: AgentMiddleware, *args: Any) -> Any:
        return await fn(*args)

    return ahook


def _build(
    fn: HookFn,
    method: str,
    *,
    name: str | None,
    can_jump_to: Sequence[str] | None,
    state_schema: type | None,
    tools: Sequence[ToolLike] | None,
) -> AgentMiddleware:
    is_async = inspect.iscoroutinefunction(fn)
    attr = f"a{method}" if is_async else method
    chosen = _async_hook(fn) if is_async else _sync_hook(fn, method)
    chosen.__name__ = attr
    chosen.__can_jump_to__ = list(can_jump_to or [])  # type: ignore[attr-defined] - a marker
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


class HookDecorator:
    """`@before_model`, `@before_model(name=…, can_jump_to=[…])` and the like."""

    def __init__(self, method: str) -> None:
        self.method = method
        self.__name__ = self.__qualname__ = method
        self.__doc__ = f"Make `fn` a middleware whose `{method}` hook it is."

    def __repr__(self) -> str:
        return f"<middleware decorator {self.method}>"

    @overload
    def __call__(
        self,
        func: HookFn,
        *,
        state_schema: type | None = None,
        tools: Sequence[ToolLike] | None = None,
        can_jump_to: Sequence[str] | None = None,
        name: str | None = None,
    ) -> AgentMiddleware: ...

    @overload
    def __call__(
        self,
        func: None = None,
        *,
        state_schema: type | None = None,
        tools: Sequence[ToolLike] | None = None,
        can_jump_to: Sequence[str] | None = None,
        name: str | None = None,
    ) -> Callable[[HookFn], AgentMiddleware]: ...

    def __call__(
        self,
        func: HookFn | None = None,
        *,
        state_schema: type | None = None,
        tools: Sequence[ToolLike] | None = None,
        can_jump_to: Sequence[str] | None = None,
        name: str | None = None,
    ) -> AgentMiddleware | Callable[[HookFn], AgentMiddleware]:
        def wrap(fn: HookFn) -> AgentMiddleware:
            return _build(
                fn,
                self.method,
                name=name,
                can_jump_to=can_jump_to,
                state_schema=state_schema,
                tools=tools,
            )

        return wrap(func) if func is not None else wrap


before_agent = HookDecorator("before_agent")
before_model = HookDecorator("before_model")
after_model = HookDecorator("after_model")
after_agent = HookDecorator("after_agent")
wrap_model_call = HookDecorator("wrap_model_call")
wrap_tool_call = HookDecorator("wrap_tool_call")

PromptFn = Callable[[ModelRequest], str | SystemMessage | Awaitable[str | SystemMessage]]


@overload
def dynamic_prompt(func: PromptFn, *, name: str | None = None) -> AgentMiddleware: ...


@overload
def dynamic_prompt(
    func: None = None, *, name: str | None = None
) -> Callable[[PromptFn], AgentMiddleware]: ...


def dynamic_prompt(
    func: PromptFn | None = None, *, name: str | None = None
) -> AgentMiddleware | Callable[[PromptFn], AgentMiddleware]:
    """`fn(request) -> str | SystemMessage`: the system prompt of each model call,
    recomputed every call (B1: never saved in the state)."""

    def wrap(fn: PromptFn) -> AgentMiddleware:
        async def awrap_model_call(
            self: AgentMiddleware,
            request: ModelRequest,
            handler: Callable[[ModelRequest], Awaitable[ModelResult]],
        ) -> ModelResult:
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
