"""The agentc runtime: executes an `ir.Program` with LangGraph's Pregel semantics.

Public API: `compile(program, graph, checkpointer=…, store=…, base_dir=…)` → `CompiledGraph`
(invoke / ainvoke / stream / astream, each with per-run `interrupt_before` /
`interrupt_after`; aget_state / aget_state_history / aupdate_state and their sync
adapters get_state / get_state_history / update_state),
`interrupt(value)`, the checkpoint stores `MemoryCheckpointer` and `SqliteCheckpointer` (lazy), the
long-term stores (I1) `InMemoryStore` and `SqliteStore` with `open_store(spec)`, the types of
`runtime.types`, the events of `runtime.events`, the errors of `runtime.errors`.
"""

from __future__ import annotations

from typing import Any

from agentc.runtime.checkpoint import Checkpointer, MemoryCheckpointer
from agentc.runtime.compiled import CompiledGraph, StateSnapshot, checkpointer_for, compile
from agentc.runtime.context import interrupt
from agentc.runtime.errors import (
    AgentcRuntimeError,
    CheckpointerRequiredError,
    EmptyInputError,
    InvalidUpdateError,
    RecursionLimitError,
    ResumeError,
    ResumeValidationError,
    StepTimeoutError,
    StoreRequiredError,
    UnknownStoredTypeError,
)
from agentc.runtime.store import InMemoryStore, Item, SqliteStore, Store, StoreError, open_store
from agentc.runtime.types import (
    Command,
    CommandGraph,
    Durability,
    GraphInterrupt,
    Interrupt,
    RunConfig,
    Send,
    StreamMode,
    factory,
)

__all__ = [
    "AgentcRuntimeError",
    "Checkpointer",
    "CheckpointerRequiredError",
    "Command",
    "CommandGraph",
    "CompiledGraph",
    "Durability",
    "EmptyInputError",
    "GraphInterrupt",
    "Interrupt",
    "InvalidUpdateError",
    "MemoryCheckpointer",
    "RecursionLimitError",
    "ResumeError",
    "ResumeValidationError",
    "RunConfig",
    "Send",
    "SqliteCheckpointer",
    "StateSnapshot",
    "StepTimeoutError",
    "StreamMode",
    "UnknownStoredTypeError",
    "compile",
    "factory",
    "interrupt",
    "checkpointer_for",
    "InMemoryStore",
    "Item",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreRequiredError",
    "open_store",
]


def __getattr__(name: str) -> Any:
    if name == "SqliteCheckpointer":
        from agentc.runtime.checkpoint.sqlite import SqliteCheckpointer

        return SqliteCheckpointer
    raise AttributeError(name)
