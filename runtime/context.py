"""The per-task `RunContext`, the module-level `interrupt()`, and resume answers (D4, D5).

Input: the task being run and the answers known for this thread. Output: `emit` pushes
stream events; `interrupt` returns a known answer (validated against a response schema,
D5) or raises `GraphInterrupt` with a deterministic id. A context variable finds the
current task, so `agentc.runtime.interrupt(value)` works from plain functions and tools.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from agentc.runtime.errors import AgentcRuntimeError, ResumeValidationError
from agentc.runtime.events import CustomEvent, MessagesEvent
from agentc.runtime.types import GraphInterrupt, Interrupt, RunConfig, StreamMode

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
    checkpointer: Any = None  # the checkpoint store (lent to subgraphs, H3)
    resumes: dict[str, Any] = field(default_factory=dict)  # interrupt id → answer
    sink: Sink | None = None
    modes: frozenset[StreamMode] = frozenset()
    asked: int = 0  # interrupt() calls so far in this task
    run_id: str = ""  # one id per invoke/stream call (per-run counters: F8/F9 run limits)
    store: Any = None  # I1: the long-term store (`runtime.store`, InjectedStore); None: none

    def emit(self, mode: str | StreamMode, payload: Any) -> None:
        mode = StreamMode(mode)
        if self.sink is None or mode not in self.modes:
            return
        cls = MessagesEvent if mode is StreamMode.MESSAGES else CustomEvent
        if mode not in (StreamMode.MESSAGES, StreamMode.CUSTOM):
            raise AgentcRuntimeError(
                f"nodes may emit only `messages` or `custom`, not `{mode.value}`"
            )
        self.sink(cls(self.step, self.node, payload, self.ns))

    def interrupt(self, value: Any, response_schema: Any = None) -> Any:
        index, self.asked = self.asked, self.asked + 1
        iid = stable_id(self.ns, self.task_id, index)
        if iid in self.resumes:
            return validate_answer(response_schema, self.resumes[iid])
        raise GraphInterrupt((Interrupt(value, iid, schema_json(response_schema)),))


def current() -> TaskContext:
    ctx = _CURRENT.get()
    if ctx is None:
        raise AgentcRuntimeError(
            "interrupt() was called outside a running node",
            help="call it from a node, router or tool while a graph runs",
        )
    return ctx


def interrupt(value: Any, response_schema: Any = None) -> Any:
    """Pause the run with `value` (D4); on resume, return the answer (validated, D5)."""
    return current().interrupt(value, response_schema)


def _adapter(schema: Any) -> Any:
    """A pydantic TypeAdapter for a pydantic model, TypedDict or dataclass; else None (D5)."""
    if schema is None or isinstance(schema, dict):
        return None
    from typing import is_typeddict

    from pydantic import BaseModel, TypeAdapter

    if (
        (isinstance(schema, type) and issubclass(schema, BaseModel))
        or is_typeddict(schema)
        or dataclasses.is_dataclass(schema)
    ):
        return TypeAdapter(schema)
    return None


def schema_json(schema: Any) -> Any:
    adapter = _adapter(schema)
    return adapter.json_schema() if adapter is not None else schema


def validate_answer(schema: Any, answer: Any) -> Any:
    adapter = _adapter(schema)
    if adapter is None:
        return answer
    from pydantic import ValidationError

    try:
        return adapter.validate_python(answer)
    except ValidationError as exc:
        name = getattr(schema, "__name__", str(schema))
        raise ResumeValidationError(
            f"the resume answer does not match `{name}`: {exc.errors()[0]['msg']}",
            help="send an answer of the shape the interrupt asked for",
        ) from exc
