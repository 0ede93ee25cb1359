"""MCP tools (A9, A10, B10, D22, D23, E12, H5): `use "http://…/mcp" as files` in a file,
the server's tools given to the model. `client.py` speaks JSON-RPC over streamable HTTP;
`tools.py` turns the server's tools into agent tools and its replies into tool messages."""

from .client import McpError, McpServerRequestError, McpTimeoutError
from .tools import (
    McpToolError,
    McpToolNameClashError,
    McpToolNotFoundError,
    McpToolset,
    UnconvertibleContent,
    convert_block,
    open_schema,
    refuse_shadowing,
)

__all__ = [
    "McpError",
    "McpServerRequestError",
    "McpTimeoutError",
    "McpToolError",
    "McpToolNameClashError",
    "McpToolNotFoundError",
    "McpToolset",
    "UnconvertibleContent",
    "convert_block",
    "open_schema",
    "refuse_shadowing",
]
