"""agentc: a graph-definition language for LLM agents.

`agentc.load("file.agent")` compiles a file and returns its graphs ready to invoke,
`agentc.load_agent("file.agent", "name")` one of them (agentc/api.py); they take LangGraph's
config dicts and `stream_mode=`, and draw themselves (`graph.get_graph().draw_mermaid()`).
A graph's Python nodes use the same names LangGraph's do: `agentc.Command`, `agentc.Send`,
`agentc.interrupt`, `agentc.get_stream_writer()`, `agentc.get_store()`,
`agentc.get_config()`, `agentc.get_context()`, and `agentc.models.init_chat_model(...)`.
A Python node or tool runs another graph as a nested run of its task with
`graph.invoke(input)` (as in LangGraph), `agentc.run_child(graph, input)` or
`await agentc.arun_child(graph, input)` (runtime/child.py). The stores a graph may be given
in place of its file's own: `agentc.MemoryCheckpointer()`, `agentc.SqliteCheckpointer(path)`,
`agentc.InMemoryStore()`, `agentc.SqliteStore(path)`. LangGraph's names for what agentc
names otherwise (`InMemorySaver`, `StateGraph`, …) raise an AttributeError that says which.

Input: nothing at import. Output: `__version__`, and the names above on first use.
Invariants: importing `agentc` imports neither the compiler nor the runtime, so
`agentc check` never pays for the runtime.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:  # the checker sees the real signatures; at run time `__getattr__` loads them
    from .api import load, load_agent
    from .runtime.checkpoint import MemoryCheckpointer
    from .runtime.checkpoint.sqlite import SqliteCheckpointer
    from .runtime.child import arun_child, run_child
    from .runtime.context import get_config, get_context, get_store, get_stream_writer, interrupt
    from .runtime.store import InMemoryStore, SqliteStore
    from .runtime.types import Command, RunConfig, Send

# name → the module that defines it, imported on first use
_LAZY = {
    "load": "agentc.api",
    "load_agent": "agentc.api",
    "run_child": "agentc.runtime.child",
    "arun_child": "agentc.runtime.child",
    "Command": "agentc.runtime.types",
    "Send": "agentc.runtime.types",
    "RunConfig": "agentc.runtime.types",
    "interrupt": "agentc.runtime.context",
    "get_stream_writer": "agentc.runtime.context",
    "get_store": "agentc.runtime.context",
    "get_config": "agentc.runtime.context",
    "get_context": "agentc.runtime.context",
    "MemoryCheckpointer": "agentc.runtime.checkpoint",
    "SqliteCheckpointer": "agentc.runtime.checkpoint.sqlite",
    "InMemoryStore": "agentc.runtime.store",
    "SqliteStore": "agentc.runtime.store",
}

# LangGraph's names for what agentc calls otherwise: the AttributeError says which to use
_MEMORY = "agentc.MemoryCheckpointer() (or `checkpoint memory` in the .agent file)"
_SQLITE = 'agentc.SqliteCheckpointer("state.db") (or `checkpoint sqlite("state.db")` in the file)'
_LANGGRAPH = {
    "InMemorySaver": _MEMORY,
    "MemorySaver": _MEMORY,
    "SqliteSaver": _SQLITE,
    "AsyncSqliteSaver": _SQLITE,
    "StateGraph": "a `graph NAME { … }` block in a .agent file, run with agentc.load(path)",
    "create_agent": "an `agent NAME { … }` block in a .agent file, run with "
    "agentc.load_agent(path)",
}

__all__ = [
    "Command",
    "InMemoryStore",
    "MemoryCheckpointer",
    "RunConfig",
    "Send",
    "SqliteCheckpointer",
    "SqliteStore",
    "__version__",
    "arun_child",
    "get_config",
    "get_context",
    "get_store",
    "get_stream_writer",
    "interrupt",
    "load",
    "load_agent",
    "run_child",
]
assert set(__all__) == {"__version__", *_LAZY}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None and name in _LANGGRAPH:
        raise AttributeError(f"agentc has no {name} (a LangGraph name): use {_LANGGRAPH[name]}")
    if module is None:
        raise AttributeError(f"module 'agentc' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
