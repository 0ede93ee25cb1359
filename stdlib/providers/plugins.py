"""Chat models agentc does not ship: a factory named in the file, or an installed provider.

Input: an `ir.ModelSpec` whose `factory` is set (`model tools.make_model { … }`), or whose
provider is an entry point of the group `agentc.providers` (`model "acme:fast-1"`). Output:
a `ChatModel`. What a factory returns is checked here, once, when the model is first built:
an object with the `ChatModel` protocol (`provider`, `name`, `profile`, `async generate`,
`stream`) is used as it is; one with `generate` only gets a name, an unknown profile and a
one-delta `stream`; a LangChain-style object with `ainvoke`/`invoke` taking a message list
and returning an `AIMessage` (or text) is wrapped. Anything else is `bad-model-plugin`.
Invariant: the entry-point table is metadata only — a provider's package is imported when
its model is first built, never to check a file; langchain itself is never imported.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ...ir import ImportRef, ModelSpec, SourceSpan
from ...runtime.bind import _file_module as file_module  # one module per file, shared with `use`
from ...runtime.errors import AgentcRuntimeError, ModelPluginError
from ..messages import AIMessage, BaseMessage
from .base import ChatModel, MessageDelta, ModelProfile, ModelRequest, ToolCallChunk
from .resolve import ENTRY_POINT_GROUP, plugin_providers

# ---------------------------------------------------------------- what a factory may return


@runtime_checkable
class _Generates(Protocol):
    async def generate(self, request: ModelRequest) -> AIMessage: ...


@runtime_checkable
class _Full(Protocol):
    """The whole `ChatModel` protocol, as `isinstance` can see it (members present)."""

    provider: str
    name: str
    profile: ModelProfile

    async def generate(self, request: ModelRequest) -> AIMessage: ...

    def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]: ...


@runtime_checkable
class _Invokes(Protocol):
    """LangChain's Runnable shape, sync half: `invoke(messages)`."""

    def invoke(self, input: list[BaseMessage]) -> object: ...


@runtime_checkable
class _AInvokes(Protocol):
    """LangChain's Runnable shape, async half: `await ainvoke(messages)`."""

    async def ainvoke(self, input: list[BaseMessage]) -> object: ...


@dataclass(slots=True)  # not frozen: ChatModel declares settable attributes
class _Named:
    """A model with `generate` only: named after where it came from, streamed in one delta."""

    inner: _Generates
    provider: str
    name: str
    profile: ModelProfile

    async def generate(self, request: ModelRequest) -> AIMessage:
        return await self.inner.generate(request)

    async def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        yield one_delta(await self.generate(request))


@dataclass(slots=True)  # not frozen: ChatModel declares settable attributes
class InvokeAdapter:
    """A LangChain-style chat model, called with the request's messages only: tools and
    options are the object's own business (bind them in the factory), as with a Runnable."""

    call: Callable[[list[BaseMessage]], Awaitable[object]]
    provider: str
    name: str
    profile: ModelProfile
    what: str

    async def generate(self, request: ModelRequest) -> AIMessage:
        reply = await self.call(list(request.messages))
        if isinstance(reply, AIMessage):
            return reply
        if isinstance(reply, str):
            return AIMessage(content=reply)
        raise ModelPluginError(
            f"{self.what} answered with {type(reply).__name__}, not an AIMessage",
            help="return agentc.stdlib.messages.AIMessage (or a string) from invoke/ainvoke",
        )

    async def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        yield one_delta(await self.generate(request))


def _in_thread(obj: _Invokes) -> Callable[[list[BaseMessage]], Awaitable[object]]:
    async def call(messages: list[BaseMessage]) -> object:
        return await asyncio.to_thread(obj.invoke, messages)  # a sync model blocks no loop

    return call


def one_delta(reply: AIMessage) -> MessageDelta:
    """The whole reply as a single streamed increment."""
    chunks = tuple(
        ToolCallChunk(index=i, id=c.id, name=c.name, args=json.dumps(c.args))
        for i, c in enumerate(reply.tool_calls)
    )
    return MessageDelta(
        text=reply.text,
        tool_call_chunks=chunks,
        usage=reply.usage_metadata,
        id=reply.id,
        response_metadata=dict(reply.response_metadata),
    )


def as_chat_model(
    obj: object, *, provider: str, name: str, what: str, span: SourceSpan | None = None
) -> ChatModel:
    """`obj` as a ChatModel, or `bad-model-plugin` naming the protocol it misses."""
    if isinstance(obj, _Full) and isinstance(obj.profile, ModelProfile):
        return obj
    if isinstance(obj, _Generates):
        return _Named(obj, provider, name, ModelProfile())
    if isinstance(obj, _AInvokes):
        return InvokeAdapter(obj.ainvoke, provider, name, ModelProfile(), what)
    if isinstance(obj, _Invokes):
        return InvokeAdapter(_in_thread(obj), provider, name, ModelProfile(), what)
    raise ModelPluginError(
        f"{what} returned {type(obj).__name__}, which is not a chat model",
        span=span,
        help="return an object with `async generate(request) -> AIMessage` (the ChatModel "
        "protocol) or a LangChain-style `invoke(messages)`/`ainvoke(messages)`",
    )


# ---------------------------------------------------------------- building


def from_factory(spec: ModelSpec, ref: ImportRef, base_dir: str) -> ChatModel:
    """`model tools.make_model { k: v }`: `make_model(k=v)`, checked as a chat model."""
    what = f"model factory `{spec.spec}`"
    return as_chat_model(
        _call(what, _load(ref, base_dir), (), spec.options, spec.span),
        provider=spec.provider,
        name=spec.name,
        what=what,
        span=spec.span,
    )


def from_bare_factory(
    ref: ImportRef, written: str, base_dir: str, span: SourceSpan | None
) -> ChatModel:
    """A factory named where a middleware setting takes a model (`model: tools.make`,
    `written` as the file spells it): called with no options, checked as a chat model."""
    what = f"model factory `{written}`"
    made = _call(what, _load(ref, base_dir), (), {}, span)
    return as_chat_model(made, provider="python", name=ref.attr, what=what, span=span)


def from_entry_point(spec: ModelSpec) -> ChatModel:
    """`model "acme:fast-1" { k: v }`: the `acme` entry point called as `make("fast-1", k=v)`."""
    ep = plugin_providers().get(spec.provider)
    if ep is None:
        raise ModelPluginError(
            f"no installed package provides models with prefix `{spec.provider}`",
            span=spec.span,
            help=f"install the package that declares `{spec.provider}` in the "
            f"`{ENTRY_POINT_GROUP}` entry-point group",
        )
    what = f"provider `{spec.provider}` (entry point `{ep.value}`)"
    try:
        make = ep.load()
    except Exception as exc:  # the package's own import failing: named as the provider's
        raise ModelPluginError(
            f"cannot load {what}: {type(exc).__name__}: {exc}",
            span=spec.span,
            help=f"reinstall the package that declares `{spec.provider}`, or fix its import",
        ) from exc
    made = _call(what, make, (spec.name,), spec.options, spec.span)
    return as_chat_model(made, provider=spec.provider, name=spec.name, what=what, span=spec.span)


def _load(ref: ImportRef, base_dir: str) -> object:
    try:
        module = (
            file_module(base_dir, ref.module)
            if ref.is_file
            else importlib.import_module(ref.module)
        )
        return getattr(module, ref.attr)
    except (ImportError, AttributeError, OSError) as exc:
        raise ModelPluginError(f"cannot import `{ref.key}`: {exc}", span=ref.span) from None


def _call(
    what: str,
    make: object,
    args: tuple[str, ...],
    options: Mapping[str, Any],
    span: SourceSpan | None,
) -> object:
    if not callable(make):
        raise ModelPluginError(f"{what} is not callable", span=span)
    try:  # bound first, so a TypeError from inside the factory stays the factory's own
        inspect.signature(make).bind(*args, **options)
    except TypeError as exc:  # an entry point, or a file changed since it was checked
        raise ModelPluginError(
            f"{what} does not take these options: {exc}",
            span=span,
            help="make the options in the `.agent` file match the function's parameters",
        ) from None
    except ValueError:
        pass  # a builtin without a signature: let the call itself decide
    try:
        return make(*args, **options)
    except AgentcRuntimeError:
        raise
    except Exception as exc:  # the factory's own failure, named as the factory's
        raise ModelPluginError(
            f"{what} failed: {type(exc).__name__}: {exc}",
            span=span,
            help="fix the factory, or the options the `.agent` file gives it",
        ) from exc
