"""The per-task `RunContext`, the module-level `interrupt()`, and resume answers (D4, D5).

Input: the task being run and the answers known for this thread. Output: `emit` pushes
stream events; `interrupt` returns a known answer (validated against a response schema,
D5) or raises `GraphInterrupt` with a deterministic id.

How code finds its task: it is handed it. A node or router written `fn(state, ctx)` gets
it as `ctx`, a tool as `ToolRuntime.task` (its `.context` is the run's context), a
middleware hook as `runtime.task`. Code that is handed none (a plain function or tool body
calling `agentc.runtime.interrupt()`, as in LangGraph) finds it through `current()`, which
reads the one context variable of the runtime. The step runner sets it around each node
and router call, in whichever thread runs the call (`enter` / `leave`); a sync node or
tool body in the pool runs in a copy of the caller's context (`inline.in_pool`,
`asyncio.to_thread`), so it sees the task, and any other context variable set around the
run. There is no other ambient channel.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextvars import ContextVar, Token
from dataclasses import field
from typing import TYPE_CHECKING, Any

from pydantic import PydanticUserError, TypeAdapter, ValidationError

from agentc.runtime.errors import AgentcRuntimeError, ResponseSchemaError, ResumeValidationError
from agentc.runtime.events import RUN_EVENTS, CustomEvent, MessagesEvent
from agentc.runtime.records import dataclass
from agentc.runtime.types import GraphInterrupt, Interrupt, RunConfig, StreamMode

if TYPE_CHECKING:
    from agentc.runtime.checkpoint import Checkpointer
    from agentc.runtime.store import Store

_CURRENT: ContextVar[TaskContext | None] = ContextVar("agentc_task", default=None)

Sink = Callable[[Any], None]


def stable_id(*parts: Any) -> str:
    """A short deterministic id (task ids, interrupt ids)."""
    return hashlib.blake2b("|".join(map(str, parts)).encode(), digest_size=12).hexdigest()


@dataclass(slots=True)
class TaskContext:
    """What a node gets as `ctx` (implements `types.RunContext`)."""

    step: int
    node: str
    config: RunConfig
    task_id: str
    ns: str = ""
    checkpointer: Checkpointer | None = None  # lent to child graphs (H3, `child.py`)
    resumes: dict[str, Any] = field(default_factory=dict)  # interrupt id → answer
    sink: Sink | None = None
    modes: frozenset[StreamMode] = frozenset()
    asked: int = 0  # interrupt() calls so far in this task
    run_id: str = ""  # one id per invoke/stream call (per-run counters: F8/F9 run limits)
    store: Store | None = None  # I1: the long-term store (InjectedStore); None: none
    # a lone task of a run on the sync API's private loop: a subgraph it runs may run its
    # own lone sync nodes inline too (`child.py`), nothing else shares that loop
    inline: bool = False
    children: int = 0  # nested runs started so far in this task (`child.run_child`)

    @property
    def context(self) -> Any:
        """The run's context (`RunConfig.context`, checked against the graph's schema)."""
        return self.config.context

    def streams(self, mode: StreamMode) -> bool:
        return self.sink is not None and mode in self.modes

    def emit(self, mode: str | StreamMode, payload: Any) -> None:
        mode = StreamMode(mode)
        if self.sink is None or mode not in self.modes:
            return
        if mode is StreamMode.EVENTS and isinstance(payload, RUN_EVENTS):
            self.sink(payload)  # built whole by the model or tools node that made the call
            return
        cls = MessagesEvent if mode is StreamMode.MESSAGES else CustomEvent
        if mode not in (StreamMode.MESSAGES, StreamMode.CUSTOM):
            raise AgentcRuntimeError(
                f"nodes may emit only `messages` or `custom`, not `{mode.value}`"
            )
        self.sink(cls(self.step, self.node, payload, self.ns))

    def interrupt(self, value: Any, response_schema: Any = None) -> Any:
        index, self.asked = self.asked, self.asked + 1
        # D4: unique per thread (LangGraph hashes a namespace that holds the checkpoint
        # id), stable for one pending question: the same task of the same step on the
        # same thread asks it again on resume. A thread-less run cannot be resumed, so
        # its run id keeps two runs' questions apart.
        owner = self.config.thread_id if self.config.thread_id is not None else self.run_id
        iid = stable_id(owner, self.ns, self.task_id, index)
        if iid in self.resumes:
            return validate_answer(response_schema, self.resumes[iid])
        raise GraphInterrupt((Interrupt(value, iid, schema_json(response_schema)),))


# `enter(ctx)` makes `ctx` the task `current()` finds, until `leave(token)`: the context
# variable's own methods, so a node's call pays no Python frame for either
enter: Callable[[TaskContext | None], Token[TaskContext | None]] = _CURRENT.set
leave: Callable[[Token[TaskContext | None]], None] = _CURRENT.reset


def running_task() -> TaskContext | None:
    """The task whose code is running in this context, or None outside any run."""
    return _CURRENT.get()


def current(caller: str = "interrupt()") -> TaskContext:
    """The task whose node, router or tool is running (for code not handed its `ctx`)."""
    ctx = _CURRENT.get()
    if ctx is None:
        raise AgentcRuntimeError(
            f"{caller} was called outside a running node",
            help="call it from a node, router or tool while a graph runs",
        )
    return ctx


def interrupt(value: Any, response_schema: Any = None) -> Any:
    """Pause the run with `value` (D4); on resume, return the answer (validated, D5)."""
    return current().interrupt(value, response_schema)


# LangGraph's `get_*` helpers, for Python nodes and tools that are not handed their `ctx`.
# Each reads the running task; outside a run each says which helper was misplaced.


def get_stream_writer() -> Callable[[Any], None]:
    """A function that sends its argument as a `custom` stream event of the current task
    (a no-op when nobody streams `custom`). Bound to the task it was asked in."""
    ctx = current("get_stream_writer()")

    def write(payload: Any) -> None:
        ctx.emit(StreamMode.CUSTOM, payload)

    return write


def get_store() -> Store | None:
    """The run's long-term store (I1); None when the run has none."""
    return current("get_store()").store


def get_config() -> RunConfig:
    """The run's `RunConfig` (thread id, tags, configurable, context)."""
    return current("get_config()").config


def get_context() -> Any:
    """The run's context (`invoke(…, context=…)`), or None when none was given."""
    return current("get_context()").context


def _adapter(schema: Any) -> TypeAdapter[Any] | None:
    """D5, as LangGraph: a JSON-schema dict (or None) is used as is; any other schema is a
    type read through pydantic's TypeAdapter (a pydantic model, TypedDict, dataclass …)."""
    if schema is None or isinstance(schema, dict):
        return None
    try:
        adapter: TypeAdapter[Any] = TypeAdapter(schema)
        adapter.json_schema()  # a forward reference fails here, not on first use
        return adapter
    except PydanticUserError as exc:  # LangGraph lets pydantic's own error through
        name = getattr(schema, "__name__", repr(schema))
        raise ResponseSchemaError(
            f"the interrupt's response_schema `{name}` is not a type pydantic can read: "
            f"{str(exc).splitlines()[0]}",
            help="give a pydantic model, a typing_extensions.TypedDict, a dataclass, or a "
            "JSON-schema dict",
        ) from None


def schema_json(schema: Any) -> Any:
    adapter = _adapter(schema)
    return adapter.json_schema() if adapter is not None else schema


def validate_answer(schema: Any, answer: Any) -> Any:
    adapter = _adapter(schema)
    if adapter is None:
        return answer
    try:
        return adapter.validate_python(answer)
    except ValidationError as exc:
        name = getattr(schema, "__name__", str(schema))
        raise ResumeValidationError(
            f"the resume answer does not match `{name}`: {exc.errors()[0]['msg']}",
            help="send an answer of the shape the interrupt asked for",
        ) from exc
