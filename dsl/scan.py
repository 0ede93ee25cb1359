"""A light scan of raw `.agent` text, for syntax errors and their recovery.

Input: the text of a file (possibly broken anywhere) and a stretch of it. Output: its
lexemes — strings (possibly unterminated), comments, brackets, words — and what a pass over
them learns: the brackets still open, where the last real lexeme ends, the triple-quoted
strings. No grammar here: this is what can be trusted of a text the parser refused.
Invariants: every offset returned lies inside the stretch scanned; nothing raises for any
text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .astclass import Record, record

CLOSER = {"{": "}", "[": "]", "(": ")"}
OPENER = {v: k for k, v in CLOSER.items()}

# One pass over the text: strings (possibly unterminated), comments, brackets, words.
_LEXEME = re.compile(
    r'''
    (?P<long>"""(?:[^"\\]|\\[\s\S]|"(?!""))*(?:"""|\Z))
  | (?P<str>"(?:[^"\\\n]|\\[^\n])*"?)
  | (?P<comment>\#[^\n]*)
  | (?P<bracket>[{}\[\]()])
  | (?P<word>[^\s#"{}\[\]()]+)
''',
    re.VERBOSE,
)

WORD_AT_LINE_START = re.compile(r"[ \t]*([A-Za-z_]\w*)")


@record
class Scan(Record):
    """What a light scan of `text[start:stop]` learned."""

    open_brackets: tuple[int, ...]  # offsets of openers never closed, outermost first
    last_end: int  # end of the last thing that is not a comment or space
    long_strings: tuple[tuple[int, int], ...]


def scan(text: str, start: int, stop: int) -> Scan:
    stack: list[int] = []
    last_end = start
    longs: list[tuple[int, int]] = []
    for m in _LEXEME.finditer(text, start, stop):
        kind = m.lastgroup
        if kind == "comment":
            continue
        last_end = m.end()
        if kind == "long":
            longs.append((m.start(), m.end()))
        elif kind == "bracket":
            track_bracket(text, m.start(), stack)
    return Scan(tuple(stack), last_end, tuple(longs))


def track_bracket(text: str, at: int, stack: list[int]) -> None:
    """Push an opener at `at`, or pop the opener it closes (a stray closer changes nothing)."""
    ch = text[at]
    if ch in CLOSER:
        stack.append(at)
    elif stack and text[stack[-1]] == OPENER[ch]:
        stack.pop()


def lexemes(text: str, start: int, stop: int) -> Iterator[tuple[int, str | None, bool]]:
    """Non-comment lexemes of `text[start:stop]`: `(offset, kind, first on its line)`."""
    for m in _LEXEME.finditer(text, start, stop):
        kind = m.lastgroup
        if kind != "comment":
            at = m.start()
            line_start = text.rfind("\n", 0, at) + 1
            yield at, kind, not text[line_start:at].strip()


def first_word(text: str, at: int) -> str | None:
    """The word that starts the line holding `at` (after indentation), if any."""
    m = WORD_AT_LINE_START.match(text, text.rfind("\n", 0, at) + 1)
    return m.group(1) if m else None


__all__ = [
    "CLOSER",
    "OPENER",
    "WORD_AT_LINE_START",
    "Scan",
    "first_word",
    "lexemes",
    "scan",
    "track_bracket",
]
