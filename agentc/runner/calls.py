"""The run's model calls, counted where they are made: at the model.

Input: the cassette source of `--record`/`--replay` (or None) and a `CallCount`. Output:
`counting_source(source, count)` → a model source whose every model counts each call it
answers (`generate` or `stream`) and the tokens its provider reported, in `count`, in all
and per caller (`CallCount.by`, keyed by the name the model is built under: an agent's or
sub-agent's name, `graph.node` for a model node, `node NAME` for the Python node calling a
model of its own).

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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.stdlib.messages import AIMessage, UsageMetadata
    from agentc.stdlib.models import ModelSource
    from agentc.stdlib.providers.base import ChatModel, MessageDelta, ModelRequest


@dataclass(slots=True)
class Tally:
    """One caller's model calls and reported tokens (an agent, a model node, a model a
    Python node made)."""

    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0


class CallCount:
    """Model calls and reported tokens so far, in all and per caller (`by`: the name a
    model is built under, the agent's or sub-agent's name for an agent's model); calls
    come from worker threads too."""

    def __init__(self) -> None:
        self.calls = 0
        self.tokens_in = self.tokens_out = 0
        self.by: dict[str, Tally] = {}  # in the order callers first called
        self._lock = threading.Lock()

    def call(self, who: str = "") -> None:
        with self._lock:
            self.calls += 1
            self.by.setdefault(who, Tally()).calls += 1

    def usage(self, usage: UsageMetadata | None, who: str = "") -> None:
        if usage is None:
            return
        with self._lock:
            self.tokens_in += usage.input_tokens
            self.tokens_out += usage.output_tokens
            tally = self.by.setdefault(who, Tally())
            tally.tokens_in += usage.input_tokens
            tally.tokens_out += usage.output_tokens


SHARED = "models."  # how `agentc.models` names the models Python nodes make (`stdlib/chat.py`)


class CountedModel:
    """A chat model that tells `count` of each call and its usage, then answers as `model`."""

    def __init__(self, model: ChatModel, count: CallCount, who: str = "") -> None:
        self.provider, self.name, self.profile = model.provider, model.name, model.profile
        self._model, self._count, self._who = model, count, who

    def __repr__(self) -> str:
        return repr(self._model)

    def __getattr__(self, name: str) -> Any:  # what a provider offers beyond the protocol
        return getattr(self._model, name)

    def caller(self) -> str:
        """Who is calling: the agent or model node the model was built for, else (a model a
        Python node made, shared by every node that uses it) the node running now."""
        if self._who:
            return self._who
        from agentc.runtime.context import running_task  # imported by the run already

        task = running_task()
        return f"node {task.node}" if task is not None else "outside a node"

    async def generate(self, request: ModelRequest) -> AIMessage:
        who = self.caller()
        self._count.call(who)  # counted when made: a call that fails was made too
        message = await self._model.generate(request)
        self._count.usage(message.usage_metadata, who)
        return message

    async def stream(self, request: ModelRequest) -> AsyncIterator[MessageDelta]:
        who = self.caller()
        self._count.call(who)
        async for delta in self._model.stream(request):
            self._count.usage(delta.usage, who)  # providers report usage once, on one delta
            yield delta


def counting_source(source: ModelSource | None, count: CallCount) -> ModelSource:
    """`source` (or the real model, without one) with each model's calls counted."""

    def counted(graph: str, spec: ir.ModelSpec, make: Callable[[], ChatModel]) -> ChatModel:
        model = make() if source is None else source(graph, spec, make)
        # `models.…`: a Python node's own model (`agentc.models`), told apart by its caller
        return CountedModel(model, count, "" if graph.startswith(SHARED) else graph)

    return counted
