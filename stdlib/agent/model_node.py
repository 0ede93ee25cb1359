"""The model node: one model call per task, inside the agent's `wrap_model_call` chain.

Input: at bind time the agent's `ir.Graph` and the `BindEnv`; per task the state (its
`messages`) and the task's `RunContext`. Output: the update `{"messages": [reply, …]}`
(plus `structured_response` when the agent declares `output`), or that update and a
middleware's `Command`.

Seats: B1 (the system prompt is prepended to every call and never saved), B2 (the whole
history goes), B4/E10 (malformed unanswered calls are repaired first: `repair.py`), B5/A8
(every local tool and every provider tool, every step), B6/C3 (tool_choice None, or "any"
under tool-strategy output), B7/G1–G8 (structured output: `structured_output.py`), A4 (one
model, or one per run when configurable: `models.py`), A9 (MCP tools join at the first
call), F12 (the answer is cleared by each call that made none), D16 (streamed text passes
the middleware's scrubbers before a reader sees it).
"""

from __future__ import annotations

import dataclasses
import operator
import uuid
from collections.abc import Awaitable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...ir import Graph, HookPoint, NodeSpec, OutputStrategy
from ...runtime.events import ModelEnd, ModelError, ModelStart
from ...runtime.types import BindEnv, Command, RunContext, StreamMode, factory
from ..messages import (
    REMOVE_ALL_MESSAGES,
    AIMessage,
    BaseMessage,
    RemoveMessage,
    SystemMessage,
    new_message_id,
)
from ..middleware import base as mw
from ..middleware.base import AgentRuntime, ExtendedModelResponse, ModelResponse, StreamWatcher
from ..middleware.binding import bound_middleware
from ..middleware.chain import ModelHandler, model_chain
from ..models import ModelChooser
from ..providers.assemble import Assembler
from ..providers.base import ChatModel, MessageDelta, ModelRequest, ToolChoice, ToolDefinition
from ..structured_output import (
    StructuredOutput,
    handle_provider_strategy,
    handle_tool_strategy,
)
from ..tools import Tool
from .repair import RepairScan, needs_repair, patch_invalid_tool_calls
from .spec import agent_of, with_hook
from .tools import bind_output, bind_tools, mcp_toolset, merged_tools

if TYPE_CHECKING:
    from ..mcp import McpToolset

ModelUpdate = dict[str, Any] | list[dict[str, Any] | Command]


def split_tools(
    tools: Sequence[Tool | dict[str, Any]],
) -> tuple[tuple[ToolDefinition, ...], tuple[dict[str, Any], ...]]:
    """A request's tools as the provider reads them: local definitions, provider maps (A8)."""
    local = tuple(
        ToolDefinition(t.name, t.description, t.parameters)
        for t in tools
        if not isinstance(t, dict)
    )
    return local, tuple(t for t in tools if isinstance(t, dict))


def build_request(
    model: ChatModel,
    messages: tuple[BaseMessage, ...],
    tools: tuple[ToolDefinition, ...],
    provider: tuple[dict[str, Any], ...],
    choice: ToolChoice,
    output: StructuredOutput | None,
    options: dict[str, Any],
) -> tuple[ModelRequest, OutputStrategy | None]:
    """The provider's request, with structured output asked for as its strategy says."""
    fmt, strategy = None, None  # B6: the tool choice as given
    if output is not None:
        strategy = output.effective(model.profile, model.name, bool(tools or provider))
        if strategy is OutputStrategy.TOOL:  # G5
            tools, choice = tools + output.tools(), "any"  # B7, C3
        else:
            fmt = output.response_format()  # B7
    request = ModelRequest(
        messages=messages,
        tools=tools,
        provider_tools=provider,
        tool_choice=choice,
        response_format=fmt,
        options=options,
    )
    return request, strategy


async def generate_reply(
    model: ChatModel,
    request: ModelRequest,
    ctx: RunContext | None,
    watchers: Sequence[StreamWatcher] = (),
) -> AIMessage:
    """The reply; the call told as `events` (start, then end or error) when a reader asked
    for them. Inside the `wrap_model_call` chain, as LangChain's chat-model callbacks: a
    retried or fallen-back call is one start/end pair per attempt."""
    if ctx is None or not ctx.streams(StreamMode.EVENTS):  # no reader: nothing built
        return await stream_reply(model, request, ctx, watchers)
    run, name, provider = uuid.uuid4().hex, model.name, model.provider
    head = (ctx.step, ctx.node, run, ctx.ns, ctx.task_id, name, provider)
    ctx.emit(StreamMode.EVENTS, ModelStart(*head, request.messages, request.options))
    try:
        reply = await stream_reply(model, request, ctx, watchers)
    except Exception as exc:
        ctx.emit(StreamMode.EVENTS, ModelError(*head, exc))
        raise
    end = ModelEnd(*head, reply, reply.usage_metadata)
    ctx.emit(StreamMode.EVENTS, end)
    return reply


async def stream_reply(
    model: ChatModel,
    request: ModelRequest,
    ctx: RunContext | None,
    watchers: Sequence[StreamWatcher] = (),
) -> AIMessage:
    """The reply; streamed as `messages` events when a reader asked for them (with
    streamed text scrubbed by PII middleware first, D16)."""
    if ctx is None or not ctx.streams(StreamMode.MESSAGES):
        return await model.generate(request)
    acc = Assembler()
    scrubbers = [s for w in watchers if (s := w.stream_scrubber()) is not None]
    message_id: str | None = None
    async for delta in model.stream(request):
        # every delta carries the id the reply will have (the provider's, else a fresh
        # one), as LangChain's chunks do: a client merges a streamed message by id (B3)
        message_id = message_id or delta.id or new_message_id()
        delta = dataclasses.replace(delta, id=message_id)
        acc.add(delta)
        if scrubbers and delta.text:
            text = delta.text
            for s in scrubbers:
                text = s.feed(text)
            delta = dataclasses.replace(delta, text=text)
        ctx.emit(StreamMode.MESSAGES, delta)
    if scrubbers:
        rest = ""
        for s in scrubbers:
            rest = s.feed(rest) + s.flush() if rest else s.flush()
        if rest:
            ctx.emit(StreamMode.MESSAGES, MessageDelta(text=rest, id=message_id))
    return acc.message()


class ModelCall:
    """The model node: middleware wrappers (first declared outermost) around one call.

    Everything is fixed at bind time; the chain of `wrap_model_call`/`dynamic_prompt`
    handlers is built once and reads the task's context from `request.runtime`.
    """

    def __init__(
        self,
        chooser: ModelChooser,
        system: SystemMessage | None,
        tools: Sequence[Tool],
        provider_tools: Sequence[dict[str, Any]],
        output: StructuredOutput | None,
        wrappers: Sequence[object] = (),
        watchers: Sequence[StreamWatcher] = (),
    ) -> None:
        self.chooser, self.system, self.output = chooser, system, output
        self.watchers = tuple(watchers)  # D16: middleware that scrub streamed text
        self.tools = tuple(tools)
        self.provider_tools = tuple(provider_tools)
        self.request_tools: list[Tool | dict[str, Any]] = [*self.tools, *provider_tools]
        self.mcp: McpToolset | None = None  # A9: its tools join at the first call
        self.handler: ModelHandler = model_chain(wrappers, self.execute)
        self.wrapped = bool(wrappers)  # middleware may edit `request.messages` in place
        self.scans: dict[int, RepairScan] = {}
        self._split: tuple[tuple[Tool | dict[str, Any], ...], Any] = ((), ((), ()))

    def split(
        self, tools: Sequence[Tool | dict[str, Any]]
    ) -> tuple[tuple[ToolDefinition, ...], tuple[dict[str, Any], ...]]:
        """`split_tools(tools)`, kept for the last list seen: a request's tools are the
        node's own unless middleware changed them, so each call need not rebuild them."""
        seen, split = self._split
        if len(tools) != len(seen) or not all(map(operator.is_, tools, seen)):
            seen, split = tuple(tools), split_tools(tools)
            self._split = seen, split
        return split

    def provider_request(self, req: mw.ModelRequest) -> tuple[ModelRequest, OutputStrategy | None]:
        messages = (
            (req.system_message, *req.messages) if req.system_message else tuple(req.messages)
        )  # B1, B2
        tools, provider = self.split(req.tools)  # B5, A8
        return build_request(
            req.model,
            messages,
            tools,
            provider,
            req.tool_choice,
            req.response_format,
            dict(req.model_settings),
        )

    def generate(
        self, model: ChatModel, request: ModelRequest, ctx: RunContext | None
    ) -> Awaitable[AIMessage]:
        """The reply (`generate_reply`; with no reader of `events` or `messages`, the
        provider's own call, without the two layers that would find nothing to tell)."""
        if ctx is None or not (ctx.streams(StreamMode.EVENTS) or ctx.streams(StreamMode.MESSAGES)):
            return model.generate(request)
        return generate_reply(model, request, ctx, self.watchers)

    async def execute(self, req: mw.ModelRequest) -> ModelResponse:
        """The innermost handler: one provider call and its structured answer (G1–G8)."""
        request, strategy = self.provider_request(req)
        ctx = req.runtime.task if req.runtime is not None else None
        reply = await self.generate(req.model, request, ctx)
        output = req.response_format
        if output is not None and strategy is OutputStrategy.TOOL:
            outcome = handle_tool_strategy(output, reply)
        elif output is not None and strategy is OutputStrategy.PROVIDER:
            outcome = handle_provider_strategy(output, reply)
        else:
            return ModelResponse(result=[reply])
        return ModelResponse(
            result=list(outcome.messages), structured_response=outcome.structured_response
        )

    async def __call__(self, state: Mapping[str, Any], ctx: RunContext | None) -> ModelUpdate:
        history: Sequence[BaseMessage] | None = state.get("messages")
        if history is None:
            history = ()
        repaired = (
            patch_invalid_tool_calls(list(history)) if needs_repair(self.scans, history) else None
        )  # B4/E10
        if repaired is not None:
            messages = repaired
        else:  # the runtime's read-only snapshot, copied only for middleware
            messages = list(history) if self.wrapped else history
        tools, request_tools = self.tools, self.request_tools
        if self.mcp is not None:  # A9/B10: the server's tools, listed once
            tools = merged_tools(self.tools, await self.mcp.tools())
            request_tools = [*tools, *self.provider_tools]
        request = mw.ModelRequest(
            model=self.chooser.pick(ctx),
            messages=messages,  # type: ignore[arg-type]  # a read-only view without middleware
            system_message=self.system,
            tools=list(request_tools),
            response_format=self.output,
            state=state,
            runtime=AgentRuntime(ctx, tools),  # `tools`: a tuple (`AgentRuntime.of`'s work)
        )
        response = await self.handler(request)
        command = None
        if isinstance(response, ExtendedModelResponse):
            response, command = response.model_response, response.command
        update = self.update(response, repaired)
        if command is not None and command.update:
            return [update, Command(update=command.update)]
        return update

    def update(self, response: ModelResponse, repaired: list[BaseMessage] | None) -> dict[str, Any]:
        new = list(response.result)
        update: dict[str, Any] = {"messages": new}
        if repaired is not None:  # the repaired history replaces the saved one
            update["messages"] = [RemoveMessage(id=REMOVE_ALL_MESSAGES), *repaired, *new]
        if response.structured_response is not None:
            update["structured_response"] = response.structured_response
        elif self.output is not None:  # F12: a call with no answer clears the old one
            update["structured_response"] = None
        return update


@factory
def model_node(spec: NodeSpec, graph: Graph, env: BindEnv) -> ModelCall:
    agent = agent_of(graph)
    bound = bound_middleware(graph, env)
    call = ModelCall(
        chooser=ModelChooser(agent.model, env.base_dir, graph=graph.name),
        system=SystemMessage(content=agent.prompt) if agent.prompt is not None else None,
        tools=bind_tools(graph, env),
        provider_tools=[p.definition for p in agent.provider_tools],  # A8
        output=bind_output(agent, env),
        wrappers=with_hook(bound, HookPoint.WRAP_MODEL_CALL, HookPoint.DYNAMIC_PROMPT),
        watchers=[b.obj for b in bound if isinstance(b.obj, StreamWatcher)],
    )
    call.mcp = mcp_toolset(graph, env)
    return call
