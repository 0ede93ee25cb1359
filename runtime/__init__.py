"""The agentc runtime: executes an `ir.Program` with LangGraph's Pregel semantics.

Public API: `compile(program, graph, checkpointer=…, store=…, base_dir=…)` → `CompiledGraph`
(invoke / ainvoke / stream / astream, each with per-run `interrupt_before` /
`interrupt_after`; aget_state / aget_state_history / aupdate_state and their sync
adapters get_state / get_state_history / update_state),
`interrupt(value)`, the checkpoint stores `MemoryStore` and `SqliteStore` (lazy), the
long-term stores (I1) `InMemoryStore` and `SqliteItemStore` with `open_store(spec)`, the types of
`runtime.types`, the events of `runtime.events`, the errors of `runtime.errors`.
"""

from __future__ import annotations

from typing import Any

from agentc.runtime.checkpoint import CheckpointStore, MemoryStore
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
from agentc.runtime.graph import CompiledGraph, StateSnapshot, compile, store_for
from agentc.runtime.store import InMemoryStore, Item, SqliteItemStore, Store, StoreError, open_store
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
    "CheckpointStore",
    "CheckpointerRequiredError",
    "Command",
    "CommandGraph",
    "CompiledGraph",
    "Durability",
    "EmptyInputError",
    "GraphInterrupt",
    "Interrupt",
    "InvalidUpdateError",
    "MemoryStore",
    "RecursionLimitError",
    "ResumeError",
    "ResumeValidationError",
    "RunConfig",
    "Send",
    "SqliteStore",
    "StateSnapshot",
    "StepTimeoutError",
    "StreamMode",
    "UnknownStoredTypeError",
    "compile",
    "factory",
    "interrupt",
    "store_for",
    "InMemoryStore",
    "Item",
    "SqliteItemStore",
    "Store",
    "StoreError",
    "StoreRequiredError",
    "open_store",
]


def __getattr__(name: str) -> Any:
    if name == "SqliteStore":
        from agentc.runtime.sqlite import SqliteStore

        return SqliteStore
    raise AttributeError(name)
