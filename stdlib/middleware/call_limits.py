"""`model_call_limit` and `tool_call_limit` (F8, F9): how many calls a run or a thread may make.

Input: the state (`messages`, the thread counters) and the run's id (`ctx.run_id`). Output:
counter updates, or at the limit: an AI message and `jump_to: end` (exit "end"), an
exception (exit "error"), or error answers for the calls over the limit while the run goes
on (tool limit, exit "continue"). Messages are langchain 1.4.10's texts.

Counting: thread counts live in the state (saved with the thread, so they span runs only
with a checkpointer — as LangChain's); run counts are kept per run id in the middleware
object (LangGraph keeps them in an untracked channel, which every invoke, a resume included,
starts from zero — the same here, since each invoke has its own run id).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Annotated, Any, NotRequired

from ..messages import AIMessage, BaseMessage, ToolMessage
from .base import (
    AgentMiddleware,
    AgentRuntime,
    ExitBehavior,
    StateUpdate,
    ToolCallDict,
    tool_call_dict,
)
from .state import AgentState, PrivateStateAttr

RUNS_KEPT = 256  # run counters of finished runs are dropped oldest first


class RunCounters:
    """Per-run counters: {run id: {key: count}}, bounded."""

    def __init__(self) -> None:
        self.runs: OrderedDict[str, dict[str, int]] = OrderedDict()

    def of(self, run: str) -> dict[str, int]:
        counts = self.runs.get(run)
        if counts is None:
            counts = self.runs[run] = {}
            while len(self.runs) > RUNS_KEPT:
                self.runs.popitem(last=False)
        return counts


def _check_limits(thread: int | None, run: int | None) -> None:
    if thread is None and run is None:
        raise ValueError("At least one limit must be specified (thread_limit or run_limit)")


# ---------------------------------------------------------------- model calls (F8)


def model_limit_message(
    thread_count: int, run_count: int, thread_limit: int | None, run_limit: int | None
) -> str:
    parts = []
    if thread_limit is not None and thread_count >= thread_limit:
        parts.append(f"thread limit ({thread_count}/{thread_limit})")
    if run_limit is not None and run_count >= run_limit:
        parts.append(f"run limit ({run_count}/{run_limit})")
    return f"Model call limits exceeded: {', '.join(parts)}"


class ModelCallLimitExceededError(Exception):
    def __init__(
        self, thread_count: int, run_count: int, thread_limit: int | None, run_limit: int | None
    ) -> None:
        self.thread_count, self.run_count = thread_count, run_count
        self.thread_limit, self.run_limit = thread_limit, run_limit
        super().__init__(model_limit_message(thread_count, run_count, thread_limit, run_limit))


class ModelCallLimitState(AgentState):
    thread_model_call_count: NotRequired[Annotated[int, PrivateStateAttr]]
    run_model_call_count: NotRequired[Annotated[int, PrivateStateAttr]]


class ModelCallLimit(AgentMiddleware):
    """F8: compare the counts before each model call; count after it."""

    state_schema = ModelCallLimitState  # read statically by the compiler when used from Python

    def __init__(
        self, *, thread: int | None = None, run: int | None = None, exit_behavior: str = "end"
    ) -> None:
        _check_limits(thread, run)
        self.thread_limit, self.run_limit = thread, run
        self.exit_behavior = ExitBehavior(exit_behavior)
        if self.exit_behavior not in (ExitBehavior.END, ExitBehavior.ERROR):
            raise ValueError(f"Invalid exit_behavior: {exit_behavior}. Must be 'end' or 'error'")
        self.counters = RunCounters()

    def before_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate | None:
        thread_count = int(state.get("thread_model_call_count") or 0)
        run_count = self.counters.of(runtime.run_id).get("model", 0)
        over = (self.thread_limit is not None and thread_count >= self.thread_limit) or (
            self.run_limit is not None and run_count >= self.run_limit
        )
        if not over:
            return None
        if self.exit_behavior is ExitBehavior.ERROR:
            raise ModelCallLimitExceededError(
                thread_count, run_count, self.thread_limit, self.run_limit
            )
        text = model_limit_message(thread_count, run_count, self.thread_limit, self.run_limit)
        return {"jump_to": "end", "messages": [AIMessage(content=text)]}

    def after_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate:
        counts = self.counters.of(runtime.run_id)
        counts["model"] = counts.get("model", 0) + 1
        return {
            "thread_model_call_count": int(state.get("thread_model_call_count") or 0) + 1,
            "run_model_call_count": counts["model"],
        }


ModelCallLimitMiddleware = ModelCallLimit


# ---------------------------------------------------------------- tool calls (F9)


def tool_blocked_text(tool_name: str | None) -> str:
    if tool_name:
        return f"Tool call limit exceeded. Do not call '{tool_name}' again."
    return "Tool call limit exceeded. Do not make additional tool calls."


STOPPED_TEXT = (
    "Execution stopped before this tool call could run because another tool call "
    "in the same batch exceeded the limit."
)


def tool_final_text(
    thread_count: int,
    run_count: int,
    thread_limit: int | None,
    run_limit: int | None,
    tool_name: str | None,
) -> str:
    what = f"'{tool_name}' tool" if tool_name else "Tool"
    parts = []
    if thread_limit is not None and thread_count > thread_limit:
        parts.append(f"thread limit exceeded ({thread_count}/{thread_limit} calls)")
    if run_limit is not None and run_count > run_limit:
        parts.append(f"run limit exceeded ({run_count}/{run_limit} calls)")
    return f"{what} call limit reached: {' and '.join(parts)}."


class ToolCallLimitExceededError(Exception):
    def __init__(
        self,
        thread_count: int,
        run_count: int,
        thread_limit: int | None,
        run_limit: int | None,
        tool_name: str | None = None,
    ) -> None:
        self.thread_count, self.run_count = thread_count, run_count
        self.thread_limit, self.run_limit, self.tool_name = thread_limit, run_limit, tool_name
        super().__init__(
            tool_final_text(thread_count, run_count, thread_limit, run_limit, tool_name)
        )


class ToolCallLimitState(AgentState):
    thread_tool_call_count: NotRequired[Annotated[dict[str, int], PrivateStateAttr]]
    run_tool_call_count: NotRequired[Annotated[dict[str, int], PrivateStateAttr]]


class ToolCallLimit(AgentMiddleware):
    """F9: after each model call, let calls through up to the limit; answer the rest."""

    state_schema = ToolCallLimitState  # read statically by the compiler when used from Python

    def __init__(
        self,
        *,
        tool_name: str | None = None,
        thread: int | None = None,
        run: int | None = None,
        exit_behavior: str = "continue",
    ) -> None:
        _check_limits(thread, run)
        if thread is not None and run is not None and run > thread:
            raise ValueError(
                f"run_limit ({run}) cannot exceed thread_limit ({thread}). "
                "The run limit should be less than or equal to the thread limit."
            )
        self.tool_name, self.thread_limit, self.run_limit = tool_name, thread, run
        self.exit_behavior = ExitBehavior(exit_behavior)
        self.counters = RunCounters()

    @property
    def name(self) -> str:
        return (
            f"ToolCallLimitMiddleware[{self.tool_name}]"
            if self.tool_name
            else "ToolCallLimitMiddleware"
        )

    def _over(self, thread_count: int, run_count: int) -> bool:
        return (self.thread_limit is not None and thread_count + 1 > self.thread_limit) or (
            self.run_limit is not None and run_count + 1 > self.run_limit
        )

    def split(
        self, calls: list[ToolCallDict], thread_count: int, run_count: int
    ) -> tuple[list[ToolCallDict], list[ToolCallDict], int, int]:
        """The calls (of this filter) allowed and blocked, and the counts after them."""
        allowed: list[ToolCallDict] = []
        blocked: list[ToolCallDict] = []
        for call in calls:
            if self.tool_name is not None and call["name"] != self.tool_name:
                continue
            if self._over(thread_count, run_count):
                blocked.append(call)
            else:
                allowed.append(call)
                thread_count, run_count = thread_count + 1, run_count + 1
        return allowed, blocked, thread_count, run_count

    def after_model(self, state: Mapping[str, Any], runtime: AgentRuntime) -> StateUpdate | None:
        ai = next(
            (m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None
        )
        if ai is None or not ai.tool_calls:
            return None
        key = self.tool_name or "__all__"
        threads: dict[str, int] = dict(state.get("thread_tool_call_count") or {})
        runs = self.counters.of(runtime.run_id)
        thread_now, run_now = threads.get(key, 0), runs.get(key, 0)
        calls = [tool_call_dict(c) for c in ai.tool_calls]
        allowed, blocked, thread_new, run_new = self.split(calls, thread_now, run_now)
        threads[key], runs[key] = thread_new, run_new + len(blocked)
        counters = {"thread_tool_call_count": threads, "run_tool_call_count": dict(runs)}
        if not blocked:
            return counters if allowed else None
        return self._blocked(calls, blocked, counters, thread_now, key)

    def _blocked(
        self,
        calls: list[ToolCallDict],
        blocked: list[ToolCallDict],
        counters: dict[str, dict[str, int]],
        thread_now: int,
        key: str,
    ) -> StateUpdate:
        threads, runs = counters["thread_tool_call_count"], counters["run_tool_call_count"]
        if self.exit_behavior is ExitBehavior.ERROR:
            raise ToolCallLimitExceededError(
                threads[key] + len(blocked),
                runs[key],
                self.thread_limit,
                self.run_limit,
                self.tool_name,
            )
        answers: list[BaseMessage] = [_error(c, tool_blocked_text(self.tool_name)) for c in blocked]
        if self.exit_behavior is ExitBehavior.CONTINUE:
            return {**counters, "messages": answers}
        blocked_ids = {c["id"] for c in blocked}
        answers += [_error(c, STOPPED_TEXT) for c in calls if c["id"] not in blocked_ids]
        answers.append(
            AIMessage(
                content=tool_final_text(
                    threads[key] + len(blocked),
                    runs[key],
                    self.thread_limit,
                    self.run_limit,
                    self.tool_name,
                )
            )
        )
        threads[key] = thread_now  # nothing of this batch runs
        return {**counters, "jump_to": "end", "messages": answers}


def _error(call: ToolCallDict, text: str) -> ToolMessage:
    return ToolMessage(
        content=text, tool_call_id=call["id"] or "", name=call["name"], status="error"
    )


ToolCallLimitMiddleware = ToolCallLimit
