"""The agentc runtime: executes an `ir.Program` with LangGraph's Pregel semantics.

Public API: `compile(program, graph, checkpointer=…, store=…, base_dir=…, cache=…)` →
`CompiledGraph` (invoke / ainvoke / stream / astream, each with per-run `interrupt_before` /
`interrupt_after` and `context`; aget_state / aget_state_history / aupdate_state and their
sync adapters get_state / get_state_history / update_state; clear_cache), `interrupt(value)`
and the helpers for code not handed its `ctx` (`get_stream_writer()`, `get_store()`,
`get_config()`, `get_context()`), the node cache `NodeCache` (one per compiled graph; pass
`cache=NodeCache(clock)` to choose its clock), the checkpoint stores `MemoryCheckpointer`
and `SqliteCheckpointer` (lazy), the long-term stores (I1) `InMemoryStore` and
`SqliteStore` with `open_store(spec)`, the types of `runtime.types`, the events of
`runtime.events`, the errors of `runtime.errors` (and `failed_nodes` /
`describe_node_failure` for an exception a node raised).
"""

from __future__ import annotations

from typing import Any

from agentc.runtime.cache import NodeCache
from agentc.runtime.checkpoint import (
    Checkpointer,
    CheckpointQuery,
    MemoryCheckpointer,
    SavedCheckpoint,
)
from agentc.runtime.compiled import CompiledGraph, StateSnapshot, checkpointer_for, compile
from agentc.runtime.context import get_config, get_context, get_store, get_stream_writer, interrupt
from agentc.runtime.errors import (
    AgentcRuntimeError,
    CheckpointerRequiredError,
    CheckpointWriteError,
    DamagedCheckpointError,
    EmptyInputError,
    InvalidConfigError,
    InvalidContextError,
    InvalidSendError,
    InvalidUpdateError,
    RecursionLimitError,
    ResumeError,
    ResumeValidationError,
    StepTimeoutError,
    StoreRequiredError,
    ThreadBusyError,
    UndeclaredTargetError,
    UnknownStoredTypeError,
    describe_node_failure,
    failed_nodes,
)
from agentc.runtime.store import (
    DamagedStoreError,
    InMemoryStore,
    Item,
    SqliteStore,
    Store,
    StoreError,
    open_store,
)
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
    "CheckpointWriteError",
    "DamagedCheckpointError",
    "DamagedStoreError",
    "Command",
    "CommandGraph",
    "CompiledGraph",
    "Durability",
    "EmptyInputError",
    "InvalidConfigError",
    "InvalidContextError",
    "InvalidSendError",
    "GraphInterrupt",
    "Interrupt",
    "InvalidUpdateError",
    "MemoryCheckpointer",
    "CheckpointQuery",
    "SavedCheckpoint",
    "NodeCache",
    "RecursionLimitError",
    "ResumeError",
    "ResumeValidationError",
    "RunConfig",
    "Send",
    "SqliteCheckpointer",
    "StateSnapshot",
    "StepTimeoutError",
    "StreamMode",
    "ThreadBusyError",
    "UndeclaredTargetError",
    "UnknownStoredTypeError",
    "compile",
    "describe_node_failure",
    "factory",
    "failed_nodes",
    "get_config",
    "get_context",
    "get_store",
    "get_stream_writer",
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
