"""agentc: a graph-definition language for LLM agents.

`agentc.load("file.agent")` compiles a file and returns its graphs ready to invoke,
`agentc.load_agent("file.agent", "name")` one of them; the import is lazy so `agentc check`
never pays for the runtime.
"""

from __future__ import annotations

from typing import Any

from .version import __version__

__all__ = ["__version__", "load", "load_agent"]


def __getattr__(name: str) -> Any:
    if name in ("load", "load_agent"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'agentc' has no attribute {name!r}")
