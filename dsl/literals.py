"""How literal text is decoded: string escapes, triple-quoted strings, durations.

Input: the raw text of one literal. Output: its value, or None for an escape the language
does not know (the builder reports it where it stands). Pure functions, no diagnostics.
"""

from __future__ import annotations

import re

UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h)")
ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\s\S])")
SIMPLE_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "0": "\0",
    '"': '"',
    "'": "'",
    "\\": "\\",
    "/": "/",
}


def dedent(text: str) -> str:
    """`inspect.cleandoc` without importing `inspect` (it is slow to import)."""
    lines = text.replace("\r\n", "\n").expandtabs().split("\n")
    indents = [len(ln) - len(ln.lstrip()) for ln in lines[1:] if ln.strip()]
    margin = min(indents) if indents else 0
    lines = [lines[0].lstrip()] + [ln[margin:] for ln in lines[1:]]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


def decode_escape(body: str) -> str | None:
    """The text of one escape (`body` is what follows the backslash), or None if unknown."""
    if body[0] in "uU" and len(body) > 1:
        return chr(min(int(body[1:], 16), 0x10FFFF))
    if body in SIMPLE_ESCAPES:
        return SIMPLE_ESCAPES[body]
    if body == "\n":  # a backslash at the end of a line joins it with the next
        return ""
    return None
