"""The options of a `use` line: `use "http://…/mcp" as files { timeout: 30s }`.

Input: a `use` declaration's target and its `{ … }` map (the grammar takes any map there).
Output: `McpOptions` (seconds, or None where the line says nothing) and the diagnostics of
what is wrong with the map: options on a `use` that is not an MCP server (`bad-use`), an
unknown option (`unknown-setting`, one suggestion), one given twice (`duplicate-setting`),
a value that is not a positive duration (`bad-limit`). Resolution reports the diagnostics;
lowering reads the options of a line that passed (the two read one function, so they
cannot disagree).
"""

from __future__ import annotations

import math
from urllib.parse import urlsplit

from ..dsl import ast
from ..dsl.astclass import Record, record
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, Label, error
from .suggest import did_you_mean

MCP_SCHEMES = ("http", "https")  # A10: MCPAdapter accepts a str target only as such a URL


def mcp_url_problem(target: str) -> str | None:
    """Why `target` is not an MCP server's URL (A10: http or https, with a host), or None.
    A URL Python cannot read (a stray bracket, a port that is not a number) is one too."""
    try:
        parts = urlsplit(target)
        parts.port  # noqa: B018 - reading it checks the port: a number, in range
    except ValueError as exc:
        return f"the URL cannot be read: {exc}"
    if parts.scheme.lower() not in MCP_SCHEMES:
        return f"scheme `{parts.scheme}` is not http or https"
    if not parts.hostname or any(c.isspace() for c in parts.netloc):
        return "the URL names no host" if not parts.hostname else "the host has a space in it"
    return None


# option → what it bounds (the MCP client's defaults: stdlib/mcp/client.py)
MCP_OPTIONS = {
    "timeout": "each tool call, in all (default 30s)",
    "connect_timeout": "connecting and listing the server's tools, in all (default 10s)",
}


@record
class McpOptions(Record):
    timeout_s: float | None = None
    connect_timeout_s: float | None = None


def misplaced_options(use: ast.UseDecl) -> Diagnostic | None:
    """Options on a `use` of a Python module or `.agent` file, which take none."""
    if use.options is None:
        return None
    return error(
        Code.BAD_USE,
        f'`use "{use.target.value}"` takes no options',
        use.options.span,
        "only an MCP server (an http or https URL) takes options",
        help="remove the `{ … }` after the `use` line",
    )


def mcp_options(use: ast.UseDecl) -> tuple[McpOptions, list[Diagnostic]]:
    """The line's options, each a positive duration (`30s`) or number of seconds."""
    found: dict[str, float] = {}
    seen: dict[str, ast.MapEntry] = {}
    problems: list[Diagnostic] = []
    for entry in use.options.entries if use.options is not None else ():
        key = entry.key.text
        problem = _entry_problem(key, entry, seen.get(key))
        if problem is not None:
            problems.append(problem)
            continue
        seen[key] = entry
        seconds = _seconds(entry.value)
        if seconds is None:
            problems.append(_bad_value(key, entry))
        else:
            found[key] = seconds
    return McpOptions(found.get("timeout"), found.get("connect_timeout")), problems


def _entry_problem(key: str, entry: ast.MapEntry, first: ast.MapEntry | None) -> Diagnostic | None:
    if key not in MCP_OPTIONS:
        return error(
            Code.UNKNOWN_SETTING,
            f"an MCP server has no option `{key}`",
            entry.key.span,
            "unknown option",
            notes=tuple(f"`{k}` bounds {v}" for k, v in MCP_OPTIONS.items()),
            help=did_you_mean(key, MCP_OPTIONS),
        )
    if first is not None:
        return error(
            Code.DUPLICATE_SETTING,
            f"option `{key}` is given twice",
            entry.key.span,
            "given again here",
            secondary=(Label(first.key.span, "first given here"),),
            help="keep one of them",
        )
    return None


def _seconds(value: ast.Expr) -> float | None:
    if isinstance(value, ast.DurationLit):
        seconds: float = value.seconds
    elif isinstance(value, ast.IntLit | ast.FloatLit):
        seconds = float(value.value)
    else:
        return None
    return seconds if 0 < seconds < math.inf else None


def _bad_value(key: str, entry: ast.MapEntry) -> Diagnostic:
    return error(
        Code.BAD_LIMIT,
        f"MCP option `{key}` must be a positive duration",
        entry.value.span,
        "not a positive duration",
        help=f"write a duration such as `{key}: 30s`; `{key}` bounds {MCP_OPTIONS[key]}",
    )
