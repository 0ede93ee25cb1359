"""agentc: a graph-definition language for LLM agents.

`agentc.load("file.agent")` compiles a file and returns its graphs ready to invoke,
`agentc.load_agent("file.agent", "name")` one of them (agentc/api.py).

Input: nothing at import. Output: `__version__`, and `load` / `load_agent` on first use.
Invariants: importing `agentc` imports neither the compiler nor the runtime, so
`agentc check` never pays for the runtime.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:  # the checker sees the real signatures; at run time `__getattr__` loads them
    from .api import load, load_agent

__all__ = ["__version__", "load", "load_agent"]


def __getattr__(name: str) -> Any:
    if name in ("load", "load_agent"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'agentc' has no attribute {name!r}")
