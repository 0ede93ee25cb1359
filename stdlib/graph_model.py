"""The model node of a `graph { … }` block: what a LangGraph node calling a chat model does.

Input: at bind time an `ir.ModelNodeConfig` with its tools, structured output and
`wrap_model_call` hooks bound; per task the state (for a task a `Send` made, the Send's
payload) and the task's `RunContext`. Output: the node's update — the answer in `into`:
the AI message through the channel's reducer (MESSAGE), the reply's text (TEXT), or the
parsed structured answer as a plain dict (STRUCTURED); into a list channel that an
`append`/`add` reducer grows, the text or answer as a one-item list (`[text]`), as a
LangGraph node writes `{"sections": [msg.content]}` (so the `updates` stream matches).

The call's messages: the rendered `prompt` as the system message (B1: never saved), then
the rendered `input` as one user message, or else the conversation channel as it stands
(B2; no repair of unanswered calls: a LangGraph node calling a model does none). The
node's tools and provider tools are offered on every call (B5, A8). Structured output is
asked for as `output.strategy` says (B7, G5), and read as `model.with_structured_output(S)`
reads it (`structured_output.parse_answer`): no tool message joins the conversation, no
retry. A model that cannot be reached or answered (provider, script, cassette, schema) is
one `ModelNodeError` naming the node; everything else (interrupts too) passes through.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from ..ir import AnswerKind, ChannelSpec, HookPoint, ModelNodeConfig
from ..runtime.errors import AgentcRuntimeError, BindError
from ..runtime.types import BindEnv, Command, RunContext
from .agent.model_node import ModelCall
from .messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, coerce_messages
from .middleware import base as mw
from .middleware.base import AgentRuntime, ExtendedModelResponse, ModelResponse
from .middleware.binding import resolve_refs
from .models import ModelChooser
from .providers.errors import ProviderError
from .providers.resolve import UnknownModelError
from .providers.scripted import ScriptedRepliesExhausted, ScriptError
from .structured_output import StructuredOutput, StructuredOutputError, parse_answer
from .templates import render
from .tools import Tool


class ModelNodeError(AgentcRuntimeError):
    """A graph model node whose model call failed, or whose reply holds no answer."""

    code = "model-node-failed"


# Failures of modules that load httpx are recognised only once loaded (else none occurred).
_LAZY_FAILURES = (
    ("agentc.stdlib.providers.cassette", "CassetteError"),
    ("agentc.stdlib.providers.settings", "ModelOptionError"),
)


def model_failure(exc: BaseException) -> bool:
    """Whether `exc` says the model could not be built, reached or understood."""
    known = (
        ProviderError,
        ScriptError,
        ScriptedRepliesExhausted,
        UnknownModelError,
        StructuredOutputError,
    )
    if isinstance(exc, known):
        return True
    for module, name in _LAZY_FAILURES:
        cls = getattr(sys.modules.get(module), name, None)
        if isinstance(cls, type) and isinstance(exc, cls):
            return True
    return False


class GraphModelCall(ModelCall):
    """`node n = model(…)`: one model call per task, inside its `wrap_model_call` hooks."""

    def __init__(
        self,
        node: str,
        config: ModelNodeConfig,
        chooser: ModelChooser,
        tools: Sequence[Tool],
        output: StructuredOutput | None,
        wrappers: Sequence[object] = (),
        as_item: bool = False,
    ) -> None:
        super().__init__(chooser, None, tools, config.provider_tools, output, wrappers)
        self.node, self.config = node, config
        self.as_item = as_item  # `into` is a list its reducer grows: write `[answer]`
        self.conversation = config.messages or "messages"

    async def execute(self, req: mw.ModelRequest) -> ModelResponse:
        """The innermost handler: one provider call, its structured answer read once."""
        request, strategy = self.provider_request(req)
        ctx = req.runtime.task if req.runtime is not None else None
        reply = await self.generate(req.model, request, ctx)
        output = req.response_format
        if output is None or strategy is None:
            return ModelResponse(result=[reply])
        return ModelResponse(
            result=[reply], structured_response=parse_answer(output, strategy, reply)
        )

    def messages_for(self, state: Any) -> list[BaseMessage]:
        """The rendered `input` as one user message, or the conversation as it stands."""
        if self.config.input is not None:
            return [HumanMessage(content=render(self.config.input, state, self.node))]
        history = _read(state, self.conversation)
        if history is None:
            raise ModelNodeError(
                f"model node `{self.node}` reads its conversation from `{self.conversation}`, "
                "but the task's state has none",
                span=self.config.span,
                help="set the channel before this node runs, or give the node `input:`",
            )
        return coerce_messages(list(history))

    def system_for(self, state: Any) -> SystemMessage | None:
        prompt = self.config.prompt
        if prompt is None:
            return None
        return SystemMessage(content=render(prompt, state, self.node))  # B1: never saved

    async def __call__(self, state: Any, ctx: RunContext | None) -> Any:
        messages, system = self.messages_for(state), self.system_for(state)
        try:
            request = mw.ModelRequest(
                model=self.chooser.pick(ctx),
                messages=messages,
                system_message=system,
                tools=list(self.request_tools),  # B5, A8: every call
                response_format=self.output,
                state=_as_mapping(state),
                runtime=AgentRuntime.of(ctx, self.tools),
            )
            response = await self.handler(request)
        except Exception as exc:
            if not model_failure(exc):
                raise
            raise ModelNodeError(
                f"model node `{self.node}` failed: {exc}", span=self.config.span
            ) from exc
        command = None
        if isinstance(response, ExtendedModelResponse):
            response, command = response.model_response, response.command
        update = {self.config.into: self.answer(response)}
        if command is not None and command.update:
            return [update, Command(update=command.update)]
        return update

    def answer(self, response: ModelResponse) -> Any:
        """What `into` receives, as `config.answer` says."""
        if self.config.answer is AnswerKind.MESSAGE:
            return list(response.result)  # through the channel's reducer (add_messages)
        value = self.value(response)
        return [value] if self.as_item else value

    def value(self, response: ModelResponse) -> Any:
        """The reply's text (TEXT) or its structured answer as a plain value (STRUCTURED)."""
        if self.config.answer is AnswerKind.TEXT:
            reply = next((m for m in reversed(response.result) if isinstance(m, AIMessage)), None)
            if reply is None:
                raise ModelNodeError(
                    f"model node `{self.node}` got no AI message to take the text of",
                    span=self.config.span,
                )
            return reply.text
        if response.structured_response is None:
            names = ", ".join(self.output.tool_names) if self.output else "?"
            raise ModelNodeError(
                f"model node `{self.node}` got no structured answer ({names}): the model "
                "replied without one",
                span=self.config.span,
                help="say in the prompt what to answer, or use `via: provider` with a model "
                "that supports native structured output",
            )
        return plain(response.structured_response)


# Reducers that concatenate a list write onto a list channel (`reduce append | add`, and
# `operator.add` named from Python, as LangGraph's `Annotated[list, operator.add]`).
_LIST_REDUCERS = frozenset(
    {"agentc.runtime.reducers:append", "agentc.runtime.reducers:add", "operator:add"}
)


def writes_items(channel: ChannelSpec | None) -> bool:
    """Whether a node writes into `channel` as a list of new items (its reducer grows a
    list): `append` always makes a list; `add` only concatenates lists on a list channel."""
    ref = channel.reducer if channel is not None else None
    if channel is None or ref is None or ref.is_file or ref.key not in _LIST_REDUCERS:
        return False
    return ref.attr == "append" or channel.type.json_schema.get("type") == "array"


def _read(state: Any, key: str) -> Any:
    if isinstance(state, Mapping):
        return state.get(key)
    return getattr(state, key, None)


def _as_mapping(state: Any) -> Mapping[str, Any]:
    """The state as hooks read it: a typed Send payload as its fields, else as it is."""
    if isinstance(state, Mapping):
        return state
    value = plain(state)
    return value if isinstance(value, Mapping) else {}


def plain(value: Any) -> Any:
    """A parsed answer as a plain value: a pydantic model or dataclass as a dict."""
    if isinstance(value, BaseModel):
        return value.model_dump()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


# ---------------------------------------------------------------- hooks of graph blocks


class _FunctionHook:
    """A plain `fn(request, handler)` written as a graph's `hook wrap_… = python(fn)`,
    shaped as the middleware object the wrapper chain reads (`a`-prefixed when async)."""

    def __init__(self, fn: Any, point: HookPoint) -> None:
        name = point.value
        setattr(self, f"a{name}" if inspect.iscoroutinefunction(fn) else name, fn)
        self.name = getattr(fn, "__name__", name)


def bind_wrappers(
    entries: Sequence[Any], env: BindEnv, point: HookPoint, node: str
) -> list[object]:
    """A node's `wrap` hooks (`{"$import": …}` maps) as objects the wrapper chain calls."""
    out: list[object] = []
    for entry in entries:
        obj = resolve_refs(entry, env)
        name = point.value
        if hasattr(obj, name) or hasattr(obj, f"a{name}"):
            out.append(obj)  # a decorated hook or a middleware object
        elif callable(obj):
            out.append(_FunctionHook(obj, point))
        else:
            raise BindError(
                f"the `{name}` hook of node `{node}` is not a function: {obj!r}",
                help=f"write `def hook(request, handler)` or decorate it with `@{name}`",
            )
    return out
