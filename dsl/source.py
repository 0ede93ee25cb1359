"""Source text and locations.

Input: the text of one `.agent` file and its name. Output: `SourceFile`, which maps
offsets to 1-based line/column positions, and `Span`, the end-exclusive range every AST
node, IR element and diagnostic points at. Columns count code points; byte offsets are kept
beside them for editors (HCL's line/column/byte triple).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .astclass import Record, record

_NEWLINE = re.compile("\n")


@record
class Pos(Record):
    """A point in a file: 1-based line and column (code points), 0-based offset."""

    line: int
    col: int
    offset: int


@record
class Span(Record):
    """An end-exclusive range of one file."""

    file: str
    start: Pos
    end: Pos

    def __str__(self) -> str:
        return f"{self.file}:{self.start.line}:{self.start.col}"

    def cover(self, other: Span) -> Span:
        """The smallest span holding both (same file)."""
        start = self.start if self.start.offset <= other.start.offset else other.start
        end = self.end if self.end.offset >= other.end.offset else other.end
        return Span(self.file, start, end)


@dataclass(frozen=True)
class SourceFile:
    """One file's text with a line-start index for offset ↔ position."""

    name: str
    text: str
    _line_starts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        starts = (0, *(m.end() for m in _NEWLINE.finditer(self.text)))
        object.__setattr__(self, "_line_starts", starts)

    def pos(self, offset: int) -> Pos:
        """The position of a code-point offset (clamped into the file)."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self._line_starts, offset)
        return Pos(line, offset - self._line_starts[line - 1] + 1, offset)

    def span(self, start: int, end: int) -> Span:
        return Span(self.name, self.pos(start), self.pos(max(start, end)))

    def positions(self) -> Callable[[int], Pos]:
        """`pos` for a parser's offsets (always inside the file, so unclamped), each made
        once; the line is read from a table by index, not bisected: a big file asks for
        tens of thousands of positions."""
        starts, made = self._line_starts, {}
        line_of: list[int] = []
        for line, (begin, stop) in enumerate(
            zip(starts, (*starts[1:], len(self.text) + 1), strict=True), 1
        ):
            line_of += [line] * (stop - begin)

        def pos(offset: int) -> Pos:
            found = made.get(offset)
            if found is None:
                line = line_of[offset]
                found = made[offset] = Pos(line, offset - starts[line - 1] + 1, offset)
            return found

        return pos

    def line_text(self, line: int) -> str:
        """The text of a 1-based line without its newline."""
        if not 1 <= line <= len(self._line_starts):
            return ""
        begin = self._line_starts[line - 1]
        stop = self._line_starts[line] - 1 if line < len(self._line_starts) else len(self.text)
        return self.text[begin:stop].rstrip("\r")

    def byte_offset(self, offset: int) -> int:
        """The UTF-8 byte offset of a code-point offset."""
        return len(self.text[:offset].encode("utf-8"))

    def whole(self) -> Span:
        return self.span(0, len(self.text))
