"""The agentc runtime: executes an `ir.Program` with LangGraph's Pregel semantics.

Public API: `compile(program, graph, checkpointer=…, base_dir=…)` → `CompiledGraph`
(invoke / ainvoke / stream / astream, each with per-run `interrupt_before` /
`interrupt_after`; aget_state / aget_state_history / aupdate_state and their sync
adapters get_state / get_state_history / update_state),
`interrupt(value)`, the stores `MemoryStore` and `SqliteStore` (lazy), the types of
`runtime.types`, the events of `runtime.events`, the errors of `runtime.errors`.
"""

from __future__ import annotations

from typing import Any

from agentc.runtime.checkpoint import CheckpointStore, MemoryStore
from agentc.runtime.context import interrupt
from agentc.runtime.errors import (AgentcRuntimeError, CheckpointerRequiredError,
                                   EmptyInputError, InvalidUpdateError, RecursionLimitError,
                                   ResumeError, ResumeValidationError, StepTimeoutError,
                                   UnknownStoredTypeError)
from agentc.runtime.graph import CompiledGraph, StateSnapshot, compile, store_for
from agentc.runtime.types import (Command, CommandGraph, Durability, GraphInterrupt, Interrupt,
                                  RunConfig, Send, StreamMode, factory)

__all__ = [
    "AgentcRuntimeError", "CheckpointStore", "CheckpointerRequiredError", "Command",
    "CommandGraph", "CompiledGraph", "Durability", "EmptyInputError", "GraphInterrupt",
    "Interrupt", "InvalidUpdateError", "MemoryStore", "RecursionLimitError", "ResumeError",
    "ResumeValidationError", "RunConfig", "Send", "SqliteStore", "StateSnapshot",
    "StepTimeoutError", "StreamMode", "UnknownStoredTypeError", "compile", "factory",
    "interrupt", "store_for",
]


def __getattr__(name: str) -> Any:
    if name == "SqliteStore":
        from agentc.runtime.sqlite import SqliteStore
        return SqliteStore
    raise AttributeError(name)
