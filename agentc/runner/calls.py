"""The run's model calls, counted where they are made: at the model.

Input: the cassette source of `--record`/`--replay` (or None) and a `CallCount`. Output:
`counting_source(source, count)` → a model source whose every model counts each call it
answers (`generate` or `stream`) and the tokens its provider reported, in `count`.

Invariants: every model of the run comes through the source — a model node's, an agent's,
an agent-as-tool's and a chat model a Python node makes itself with
`agentc.models.init_chat_model` — so each call is counted once, whichever node makes it.
A call's stream events cannot count it: nodes emit `messages` events only when the reader
asks for them (`--stream`), and deltas do not say where one call ends. A node replayed from
its cache calls no model and counts nothing. The wrapper adds no behaviour of its own.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.stdlib.messages import AIMessage, UsageMetadata
    from agentc.stdlib.models import ModelSource
    from agentc.stdlib.providers.base import ChatModel, MessageDelta, ModelRequest


class CallCount:
    """Model calls and reported tokens so far; calls come from worker threads too."""

    def __init__(self) -> None:
        self.calls = 0
        self.tokens_in = self.tokens_out = 0
        self._lock = threading.Lock()

    def call(self) -> None:
        with self._lock:
            self.calls += 1

    def usage(self, usage: UsageMetadata | None) -> None:
        if usage is None:
            return
        with self._lock:
            self.tokens_in += usage.input_tokens
            self.tokens_out += usage.output_tokens


class CountedModel:
    """A chat model that tells `count` of each call and its usage, then answers as `model`."""

    def __init__(self, model: ChatModel, count: CallCount) -> None:
        self.provider, self.name, self.profile = model.provider, model.name, model.profile
        self._model, self._count = model, count

    def __repr__(self) -> str:
        return repr(self._model)

    def __getattr__(self, name: str) -> Any:  # what a provider offers beyond the protocol
        return getattr(self._model, name)

    async def generate(self, request: ModelRequest) -> AIMessage:
        self._count.call()  # counted when made: a call that fails was made too
        message = await self._model.generate(request)
        self._count.usage(message.usage_metadata)
        return message

    async def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        self._count.call()
        async for delta in self._model.stream(request):
            self._count.usage(delta.usage)  # providers report usage once, on one delta
            yield delta


def counting_source(source: ModelSource | None, count: CallCount) -> ModelSource:
    """`source` (or the real model, without one) with each model's calls counted."""

    def counted(graph: str, spec: ir.ModelSpec, make: Callable[[], ChatModel]) -> ChatModel:
        model = make() if source is None else source(graph, spec, make)
        return CountedModel(model, count)

    return counted
