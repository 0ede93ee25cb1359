"""Layout documents and their printer (Wadler's "prettier printer", as Prettier uses it).

Input: a `Doc` built by `layout` — text, line breaks that may or must break, indented
parts, groups that print flat when they fit in `WIDTH` columns, and comments. Output: the
formatted text. Invariants: a group holding a hard break (a statement list, a comment, a
multi-line string) never prints flat, and neither does any group around it; no line ends
in spaces; the output ends in exactly one newline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

WIDTH = 100
INDENT = "  "


class Break(Enum):
    LINE = " "  # a space when flat, a newline when the group breaks
    SOFT = ""  # nothing when flat, a newline when the group breaks
    HARD = "\n"  # always a newline (and the group around it breaks)
    BLANK = "\n\n"  # an empty line, then the next part (always breaks)


@dataclass(frozen=True, slots=True)
class IfBroken:
    """Text printed only when the enclosing group breaks (a trailing comma)."""

    text: str


@dataclass(frozen=True, slots=True)
class Suffix:
    """A trailing comment: printed two spaces after the line it ends, before its newline."""

    text: str


@dataclass(frozen=True, slots=True)
class OwnLine:
    """A comment on a line of its own (after an empty line when `blank`)."""

    text: str
    blank: bool = False


@dataclass(slots=True)
class Indent:
    parts: list[Doc]


@dataclass(slots=True)
class Group:
    parts: list[Doc]
    hard: bool = field(default=False)  # True: must break (set by `close`)


Doc = str | Break | IfBroken | Suffix | OwnLine | Indent | Group


def must_break(doc: Doc) -> bool:
    """Whether `doc` forces every group around it to break (computed once per group)."""
    if isinstance(doc, Group):
        return doc.hard
    if isinstance(doc, Break):
        return doc in (Break.HARD, Break.BLANK)
    if isinstance(doc, Suffix | OwnLine):
        return True
    if isinstance(doc, str):
        return "\n" in doc
    if isinstance(doc, Indent):
        return any(must_break(p) for p in doc.parts)
    return False


def group(parts: Sequence[Doc], *, force: bool = False) -> Group:
    parts = list(parts)
    return Group(parts, force or any(must_break(p) for p in parts))


def _flat_width(parts: list[Doc], budget: int) -> int:
    """Width of `parts` printed flat, stopping once past `budget` (or -1 if unflattenable)."""
    width = 0
    stack: list[Doc] = list(reversed(parts))
    while stack and width <= budget:
        doc = stack.pop()
        if isinstance(doc, str):
            width += len(doc)
        elif isinstance(doc, Break):
            width += len(doc.value)
        elif isinstance(doc, Group | Indent):
            stack.extend(reversed(doc.parts))
    return width


@dataclass
class _Printer:
    out: list[str] = field(default_factory=list)
    column: int = 0
    newlines: int = 2  # newlines ending the output so far (2 at the start: no blank lead)
    suffixes: list[str] = field(default_factory=list)

    def text(self, text: str, indent: int) -> None:
        if not text or (self.newlines and not text.strip(" ")):
            return  # no space at the start of a line
        if self.newlines:
            self.out.append(INDENT * indent)
            self.column = len(INDENT) * indent
            self.newlines = 0
        self.out.append(text)
        last = text.rfind("\n")
        self.column = self.column + len(text) if last < 0 else len(text) - last - 1

    def newline(self, count: int = 1) -> None:
        """End the line (and leave `count - 1` empty lines); breaks in a row collapse."""
        while self.out and not self.newlines and self.out[-1].endswith(" "):
            self.out[-1] = self.out[-1].rstrip(" ")  # no space at the end of a line
            if not self.out[-1]:
                self.out.pop()
        if self.suffixes:
            self.out.append("  " + self.suffixes[0])
            self.suffixes.clear()
            self.newlines = 0
        if count > self.newlines:
            self.out.append("\n" * (count - self.newlines))
            self.newlines = count
        self.column = 0

    def result(self) -> str:
        self.newline()
        return "".join(self.out).rstrip("\n") + "\n"


def render(doc: Doc) -> str:
    """Print a document: groups flat when they fit, broken otherwise."""
    p = _Printer()
    # (indent level, flat?, doc): an explicit stack, so deep nesting cannot overflow Python's
    stack: list[tuple[int, bool, Doc]] = [(0, False, doc)]
    while stack:
        indent, flat, doc = stack.pop()
        if isinstance(doc, str):
            p.text(doc, indent)
        elif isinstance(doc, Break):
            if flat:
                p.text(doc.value, indent)
            else:
                p.newline(2 if doc is Break.BLANK else 1)
        elif isinstance(doc, IfBroken):
            if not flat:
                p.text(doc.text, indent)
        elif isinstance(doc, Suffix):
            if p.suffixes or p.newlines:  # a line ends in one comment; others get their own
                p.newline()
                p.text(doc.text, indent)
                p.newline()
            else:
                p.suffixes.append(doc.text)
        elif isinstance(doc, OwnLine):
            p.newline(2 if doc.blank else 1)
            p.text(doc.text, indent)
            p.newline()
        elif isinstance(doc, Indent):
            stack.extend((indent + 1, flat, d) for d in reversed(doc.parts))
        else:
            fits = not doc.hard and (flat or _fits(doc, p.column, stack))
            stack.extend((indent, fits, d) for d in reversed(doc.parts))
    return p.result()


def _fits(g: Group, column: int, rest: list[tuple[int, bool, Doc]]) -> bool:
    """Whether `g` flat, plus what follows it up to the next line break, fits in WIDTH."""
    budget = WIDTH - column
    width = _flat_width(g.parts, budget)
    if width > budget:
        return False
    for _, flat, doc in reversed(rest):
        if isinstance(doc, Break) and not flat:
            return True
        if isinstance(doc, str):
            width += len(doc)
        elif isinstance(doc, Group) and not flat:
            width += _head_width(doc.parts)
            return width <= budget
        if width > budget:
            return False
    return width <= budget


def _head_width(parts: list[Doc]) -> int:
    """Width of a broken group's text before its first break (`{` of `{ … }`)."""
    width = 0
    for doc in parts:
        if isinstance(doc, str):
            width += len(doc)
        else:
            break
    return width
