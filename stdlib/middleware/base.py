"""The middleware protocol: LangChain v1's `AgentMiddleware` hook shapes, on agentc's types.

Input: nothing (definitions only). A middleware is an object with any of the hooks
`before_agent`, `before_model`, `after_model`, `after_agent` — `fn(state, runtime)` returning
None or a state update (which may carry `jump_to`) — and the wrappers
`wrap_model_call(request, handler)` / `wrap_tool_call(request, handler)`; each may be written
`async` instead under an `a` prefix (`abefore_model`, `awrap_model_call`, …). The agent
calls whichever one the class defines (the async one when both are), through one async core
(`chain.py`). A hook written for LangChain ports by changing its import line.

Invariants: `ModelRequest` and `ToolCallRequest` are frozen; `override(**changes)` returns a
new one (as LangChain's does). A tool call travels as LangChain's dict shape
(`{"name", "args", "id", "type"}`) so `request.tool_call["args"]` works unchanged.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...ir import JumpTarget
from ..messages import AIMessage, BaseMessage, SystemMessage

JumpTo = JumpTarget  # LangChain's name for "model" | "tools" | "end"


# ---------------------------------------------------------------- the runtime a hook gets


class AgentRuntime:
    """What a hook's `runtime` argument holds (LangGraph's `Runtime`, typed).

    `context` is the run's `configurable` mapping (agentc has no separate context schema);
    `store` the run's store; `config` its `RunConfig`; `task` the node's RunContext;
    `stream_writer(value)` emits a `custom` stream event; `tools` the agent's bound tools.
    Built once per hook call, so it only holds two references and reads the rest lazily.
    """

    __slots__ = ("task", "tools")

    def __init__(self, task: Any = None, tools: tuple[Any, ...] = ()) -> None:
        self.task, self.tools = task, tools

    @property
    def config(self) -> Any:
        return getattr(self.task, "config", None)

    @property
    def context(self) -> Any:
        return getattr(self.config, "configurable", None)

    @property
    def store(self) -> Any:
        return getattr(self.task, "store", None)

    def stream_writer(self, payload: Any) -> None:
        if self.task is not None:
            self.task.emit("custom", payload)

    @staticmethod
    def of(ctx: Any, tools: Sequence[Any] = ()) -> AgentRuntime:
        return AgentRuntime(ctx, tools if isinstance(tools, tuple) else tuple(tools))


# ---------------------------------------------------------------- model calls


@dataclass(frozen=True)
class ModelRequest:
    """One model call as middleware sees it (LangChain's `ModelRequest`).

    `messages` excludes the system message; `tools` holds the agent's `Tool`s and provider
    tool maps (A8); `response_format` is the agent's structured output (or None);
    `model_settings` become provider options (temperature …).
    """

    model: Any
    messages: list[BaseMessage]
    system_message: SystemMessage | None = None
    tool_choice: Any = None
    tools: list[Any] = field(default_factory=list)
    response_format: Any = None
    state: Mapping[str, Any] = field(default_factory=dict)
    runtime: AgentRuntime | None = None
    model_settings: dict[str, Any] = field(default_factory=dict)

    @property
    def system_prompt(self) -> str | None:
        return self.system_message.text if self.system_message is not None else None

    def override(self, **changes: Any) -> ModelRequest:
        if "system_prompt" in changes:
            if "system_message" in changes:
                raise ValueError("Cannot specify both system_prompt and system_message")
            text = changes.pop("system_prompt")
            changes["system_message"] = None if text is None else SystemMessage(content=text)
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class ModelResponse:
    """What a model handler returns: the new messages and the parsed structured answer."""

    result: list[BaseMessage]
    structured_response: Any = None


@dataclass(frozen=True)
class ExtendedModelResponse:
    """A response plus a `Command` whose update is applied after the model node's own."""

    model_response: ModelResponse
    command: Any = None


def as_model_response(value: Any) -> ModelResponse | ExtendedModelResponse:
    """A wrapper may return a ModelResponse, an ExtendedModelResponse or a bare AIMessage."""
    if isinstance(value, (ModelResponse, ExtendedModelResponse)):
        return value
    if isinstance(value, AIMessage):
        return ModelResponse(result=[value])
    raise TypeError(
        f"a model-call handler must return a ModelResponse or an AIMessage, "
        f"got {type(value).__name__}"
    )


# ---------------------------------------------------------------- tool calls


@dataclass(frozen=True)
class ToolCallRequest:
    """One tool call as middleware sees it: the call (a dict), the `Tool` (None when the
    model named an unknown tool, E1), the state and a `ToolRuntime`."""

    tool_call: dict[str, Any]
    tool: Any
    state: Mapping[str, Any]
    runtime: Any = None
    available: tuple[Any, ...] = ()  # every tool of the agent (an edit may name another)

    def override(self, **changes: Any) -> ToolCallRequest:
        return dataclasses.replace(self, **changes)


ToolResult = Any  # ToolMessage | Command


def tool_call_dict(call: Any) -> dict[str, Any]:
    """LangChain's dict shape of a tool call (key order as LangChain writes it)."""
    if isinstance(call, dict):
        return {
            "name": call.get("name"),
            "args": dict(call.get("args") or {}),
            "id": call.get("id"),
            "type": "tool_call",
        }
    return {"name": call.name, "args": dict(call.args), "id": call.id, "type": "tool_call"}


# ---------------------------------------------------------------- the base class


def hook_config(*, can_jump_to: Sequence[str] | None = None) -> Callable[[Any], Any]:
    """Mark a hook method with the jumps it may make (read statically by the compiler)."""

    def decorate(fn: Any) -> Any:
        fn.__can_jump_to__ = list(can_jump_to or [])
        return fn

    return decorate


class AgentMiddleware:
    """Subclass and define any hook; the agent calls only the hooks the class defines.

    Class attributes: `state_schema` (extra state channels, declared in the `.agent`
    middleware declaration for built-ins), `tools` (extra tools the middleware brings).
    """

    state_schema: Any = None
    tools: Sequence[Any] = ()

    @property
    def name(self) -> str:
        return type(self).__name__


class ExitBehavior(str, enum.Enum):
    END = "end"
    ERROR = "error"
    CONTINUE = "continue"
    ASK = "ask"


def control_signals() -> tuple[type[BaseException], ...]:
    """Exceptions that steer the graph and must pass every retry/fallback/error handler
    (LangGraph's GraphBubbleUp: interrupts, a Command for the parent graph)."""
    from ...runtime.algo import ParentCommand
    from ...runtime.types import GraphInterrupt

    return (GraphInterrupt, ParentCommand)
