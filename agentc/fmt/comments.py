"""Comments and gaps of a parsed file: what the parse tree leaves out.

Input: the text of a file the parser accepted. Output: its comments in order, each with its
offsets and whether it stands on a line of its own, and small questions about the text
between tokens (is there an empty line here, which character comes next). The grammar
ignores space and comments as one token (`GAP`), so they are read back from the text;
strings are skipped whole so a `#` inside one is never a comment.
Invariant: only called on text that parsed, so every string is terminated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The grammar's strings and comments (agent.lark: LONG_STRING, STRING, GAP)
_STRING_OR_COMMENT = re.compile(
    r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*"""|"(?:[^"\\\n\r]|\\[^\n\r])*"|(?P<c>#[^\n]*)'
)
_GAP = re.compile(r"(?:[ \t\f\r\n\ufeff]+|#[^\n]*)*")


@dataclass(frozen=True, slots=True)
class Comment:
    start: int
    end: int
    text: str  # without trailing space
    own_line: bool  # nothing but indentation before it on its line


def comments(text: str) -> list[Comment]:
    out: list[Comment] = []
    for m in _STRING_OR_COMMENT.finditer(text):
        if m.group("c") is None:
            continue
        start = m.start()
        line_start = text.rfind("\n", 0, start) + 1
        own = not text[line_start:start].strip(" \t\f\r\ufeff")
        out.append(Comment(start, m.end(), m.group("c").rstrip(), own))
    return out


def blank_between(text: str, start: int, end: int) -> bool:
    """Whether an empty line lies between two offsets (comments count as text)."""
    return "\n" in text[start:end] and bool(re.search(r"\n[ \t\f\r]*\n", text[start:end]))


def gap_end(text: str, offset: int) -> int:
    """The offset of the first character at or after `offset` that is not space or a
    comment."""
    at = _GAP.match(text, offset)
    return at.end() if at else offset


def next_char(text: str, offset: int) -> str:
    """The first character at or after `offset` that is not space or a comment."""
    end = gap_end(text, offset)
    return text[end : end + 1]


def prev_char(text: str, offset: int) -> str:
    """The last character before `offset` that is not space (comments are not skipped:
    a comment cannot end right before a token on its line)."""
    stripped = text[:offset].rstrip()
    return stripped[-1:] if stripped else ""
