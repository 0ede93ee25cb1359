"""The tools node: runs the model's tool calls, inside the agent's `wrap_tool_call` chain.

Input: at bind time the agent's `ir.Graph` and the `BindEnv`; per task either one call (the
payload of the `Send` the router made, with a state snapshot when a tool reads the state:
E4) or, without a router's Sends, every call of the last AI message; and the task's
`RunContext`. Output: the tools' answers as a node update — `{"messages": [...]}` in the
order the calls were listed (E5), or the Commands the tools returned.

Seats: E1 (an unknown tool is answered and the run goes on; with middleware it reaches the
middleware first, as langchain 1.4.10's ToolNode does), E5 (several calls of one task run
concurrently and answer in listed order), A7/A9 (tools keyed by name, MCP tools merged in
at the first call); running one call (E2–E4, B8, E11) is `stdlib/tools.py`.

Timeouts. F2: when the step's `step_timeout` runs out, the calls that finished keep their
answers and each call still running is answered with an error the model reads (`STEP_CUT`
reaches this node as a cancellation it answers), so the run goes on to the model instead
of failing and no finished call runs again — a deliberate divergence from LangGraph
there (docs/divergences.md, F2: LangGraph raises after the running sync call returns).
A tool's own `timeout` (`@tool(timeout=30)`, an MCP tool's) bounds each of its calls: a
call that runs out is an error answer too; the bound sits inside the agent's
`wrap_tool_call` chain, so middleware sees the answer, not an exception. E6: when a call
fails, its siblings of the same task are waited for before the failure is raised.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...ir import Graph, HookPoint, NodeSpec
from ...runtime.algo import ParentCommand
from ...runtime.errors import AgentcRuntimeError, ToolCallError, mark_failed_tool_call
from ...runtime.events import ToolEnd, ToolError, ToolStart
from ...runtime.inline import cut_by_step, deadline_scope
from ...runtime.types import (
    BindEnv,
    Command,
    GraphInterrupt,
    RunConfig,
    RunContext,
    StreamMode,
    factory,
)
from ..messages import ToolCall, ToolMessage
from ..middleware.base import AgentRuntime, ToolCallRequest, tool_call_dict
from ..middleware.binding import bound_middleware
from ..middleware.chain import ToolHandler, tool_chain
from ..routing import last_ai_and_tool_messages
from ..tools import CallEnv, Tool, ToolResult, ToolRuntime, run_tool, unknown_tool_message
from .spec import STATE_KEY, TOOL_CALL_KEY, with_hook
from .tools import bind_tools, mcp_toolset, merged_tools

if TYPE_CHECKING:
    from ..mcp import McpToolset

Update = dict[str, Any] | Command | list[Any]

STEP_TIMEOUT_TEMPLATE = (
    "Error: the tool `{name}` did not answer before the step's time limit (`step_timeout`) "
    "ran out; it was stopped waiting for, and its answer is lost."
)
TOOL_TIMEOUT_TEMPLATE = (
    "Error: the tool `{name}` did not answer within {seconds:g} s (its timeout); it was "
    "stopped waiting for, and its answer is lost."
)


class ToolRunner:
    """Runs the tool calls of one task (a Send's one call) or of the last AI message.

    With `wrap_tool_call` middleware each call goes through their chain (first declared
    outermost); an unknown tool reaches the middleware first and is answered (E1) only by
    the innermost handler, as langchain 1.4.10's ToolNode does.
    """

    def __init__(
        self,
        tools: Mapping[str, Tool],
        wrappers: Sequence[object] = (),
        messages: str = "messages",
    ) -> None:
        self.tools = dict(tools)
        self.messages = messages  # the channel read for calls and written with answers
        self.runtime_tools = tuple(self.tools.values())
        self.handler: ToolHandler | None = tool_chain(wrappers, self.execute) if wrappers else None
        self.mcp: McpToolset | None = None  # A9: merged in once, at the first call

    async def _merge_mcp(self, mcp: McpToolset) -> None:
        merged = merged_tools(self.runtime_tools, await mcp.tools())
        self.tools = {t.name: t for t in merged}
        self.runtime_tools, self.mcp = merged, None

    async def __call__(self, state: Mapping[str, Any], ctx: RunContext) -> Update:
        if self.mcp is not None:
            await self._merge_mcp(self.mcp)
        if TOOL_CALL_KEY in state:  # a Send's one call (E5), with its state snapshot (E4)
            calls, view = [state[TOOL_CALL_KEY]], state.get(STATE_KEY) or {}
        else:
            calls, view = self.last_calls(state), state
        env = CallEnv(
            state=view, config=ctx.config, store=ctx.store, task=ctx, tools=self.runtime_tools
        )
        key = self.messages
        if len(calls) == 1:
            try:
                result = await self.run_one(calls[0], env)
                return {key: [result]} if type(result) is ToolMessage else as_update(result, key)
            except asyncio.CancelledError as exc:
                if not cut_by_step(exc):
                    raise
                return as_update(cut_message(calls[0]), key)  # F2: the step ran out
        runs = [asyncio.ensure_future(self.run_one(c, env)) for c in calls]
        together = asyncio.gather(*runs)  # E5: concurrent; the first failure raises
        try:
            await asyncio.wait([together])  # a cancel of this task reaches here as sent
        except asyncio.CancelledError as exc:
            together.cancel(exc.args[0] if exc.args else None)
            await asyncio.wait([together, *runs])  # each call hears it; finished ones stay
            together.cancelled() or together.exception()  # retrieved: no "never retrieved"
            if not cut_by_step(exc):
                raise
            results = [_answered(run, call) for run, call in zip(runs, calls, strict=True)]
        else:
            if together.exception() is not None:
                # E6: as LangGraph's ToolNode (its executor's `with` block waits), a failing
                # call is raised once its siblings finished: their effects belong to the run
                await asyncio.wait(runs)
            results = together.result()
        return _merge_updates([as_update(r, key) for r in results], key)  # E5: listed order

    def last_calls(self, state: Mapping[str, Any]) -> list[ToolCall]:
        """Every call of the last AI message of the conversation (none without one)."""
        ai, _ = last_ai_and_tool_messages(state.get(self.messages) or [])
        return list(ai.tool_calls) if ai else []

    async def run_one(self, call: ToolCall, env: CallEnv) -> ToolResult:
        try:
            if self.handler is not None:
                return await self._run_wrapped(call, env)
            t = self.tools.get(call.name)
            if t is None:
                return unknown_tool_message(call, list(self.tools))  # E1
            ctx = env.task
            if t.timeout_s is None and (ctx is None or not ctx.streams(StreamMode.EVENTS)):
                return await run_tool(t, call, env)  # `run_bounded` with nothing to do
            return await run_bounded(t, call, env)
        except (GraphInterrupt, ParentCommand, AgentcRuntimeError):
            raise  # a pause, a jump, or an error that already says what it is
        except Exception as exc:  # E3: raised as it is; what the user is shown names the call
            cause = ToolCallError(call.name, call.id or "", tuple(call.args), exc)
            mark_failed_tool_call(exc, cause)
            raise

    async def _run_wrapped(self, call: ToolCall, env: CallEnv) -> ToolResult:
        assert self.handler is not None  # without middleware, `run_one` runs the call
        runtime = ToolRuntime(
            state=env.state,
            tool_call_id=call.id,
            config=env.config,
            store=env.store,
            task=env.task,
            tools=env.tools,
        )
        request = ToolCallRequest(
            tool_call=tool_call_dict(call),
            tool=self.tools.get(call.name),
            state=env.state,
            runtime=runtime,
            available=self.runtime_tools,
        )
        return await self.handler(request)

    async def execute(self, request: ToolCallRequest) -> ToolResult:
        """The innermost handler: the (possibly edited) call run by its tool."""
        raw = request.tool_call
        call = ToolCall(name=raw["name"], args=dict(raw.get("args") or {}), id=raw.get("id"))
        if request.tool is None:
            return unknown_tool_message(call, list(self.tools))  # E1
        return await run_bounded(request.tool, call, _call_env(request))


async def run_bounded(t: Tool, call: ToolCall, env: CallEnv) -> ToolResult:
    """One call, told as `events` (start, then end or error) when a reader asked for them:
    inside the `wrap_tool_call` chain, as LangChain's tool callbacks (an unknown tool, never
    run, tells none)."""
    ctx = env.task
    if ctx is None or not ctx.streams(StreamMode.EVENTS):  # no reader: nothing built
        return await run_timed(t, call, env)
    args = dict(call.args)
    head = (
        ctx.step,
        ctx.node,
        uuid.uuid4().hex,
        ctx.ns,
        ctx.task_id,
        call.name,
        call.id or "",
        args,
    )
    ctx.emit(StreamMode.EVENTS, ToolStart(*head))
    try:
        result = await run_timed(t, call, env)
    except (GraphInterrupt, ParentCommand):
        raise  # a pause or a jump is no failure: the call tells its end when run again
    except Exception as exc:
        ctx.emit(StreamMode.EVENTS, ToolError(*head, exc))
        raise
    ctx.emit(StreamMode.EVENTS, ToolEnd(*head, result, _status(result)))
    return result


def _status(result: ToolResult) -> str:
    """A ToolMessage's own status; an answer given as Commands is a success."""
    return result.status if isinstance(result, ToolMessage) else "success"


async def run_timed(t: Tool, call: ToolCall, env: CallEnv) -> ToolResult:
    """One call under its tool's own timeout: a call that runs out is answered with an
    error (an async body is cancelled; a sync one runs on in its pool thread, its result
    dropped: a thread cannot be stopped)."""
    if t.timeout_s is None:
        return await run_tool(t, call, env)
    scope = asyncio.timeout(t.timeout_s)
    try:
        with deadline_scope():  # a sync body runs in the pool, where the deadline can fire
            async with scope:
                return await run_tool(t, call, env)
    except TimeoutError:
        if not scope.expired():  # the tool's own TimeoutError, not our deadline
            raise
        text = TOOL_TIMEOUT_TEMPLATE.format(name=call.name, seconds=t.timeout_s)
        return ToolMessage(content=text, name=call.name, tool_call_id=call.id or "", status="error")


def cut_message(call: ToolCall) -> ToolMessage:
    """F2: the answer of a call the step's time limit cut."""
    return ToolMessage(
        content=STEP_TIMEOUT_TEMPLATE.format(name=call.name),
        name=call.name,
        tool_call_id=call.id or "",
        status="error",
    )


def _answered(run: asyncio.Future[ToolResult], call: ToolCall) -> ToolResult:
    """A call's answer after a step cut: its own if it finished, else `cut_message`."""
    if run.cancelled():
        return cut_message(call)
    exc = run.exception()
    if exc is not None:
        raise exc
    return run.result()


def _call_env(request: ToolCallRequest) -> CallEnv:
    """What the call may be given, from the runtime the (possibly edited) request holds."""
    rt, state = request.runtime, request.state
    if isinstance(rt, (ToolRuntime, AgentRuntime)):
        return CallEnv(
            state=state,
            config=rt.config or RunConfig(),
            store=rt.store,
            task=rt.task,
            tools=rt.tools or request.available,
        )
    return CallEnv(state=state, tools=request.available)


def as_update(result: ToolResult, key: str = "messages") -> Update:
    """A tool's answer as a node update: messages in a dict, Commands as they are."""
    if isinstance(result, ToolMessage):
        return {key: [result]}
    if isinstance(result, list):
        return [{key: [r]} if isinstance(r, ToolMessage) else r for r in result]
    return result


def _merge_updates(updates: list[Update], key: str = "messages") -> Update:
    if all(isinstance(u, dict) and set(u) == {key} for u in updates):
        return {key: [m for u in updates if isinstance(u, dict) for m in u[key]]}
    flat: list[Any] = []
    for u in updates:
        flat.extend(u if isinstance(u, list) else [u])
    return flat


@factory
def tool_node(spec: NodeSpec, graph: Graph, env: BindEnv) -> ToolRunner:
    wraps = with_hook(bound_middleware(graph, env), HookPoint.WRAP_TOOL_CALL)
    runner = ToolRunner({t.name: t for t in bind_tools(graph, env)}, wraps)
    runner.mcp = mcp_toolset(graph, env)
    return runner
