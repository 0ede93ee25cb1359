"""Turning parse-tree tokens into layout parts, with the comments between them put back.

Input: the parse tree's tokens and subtrees in source order, and the file's comments.
Output: `Doc` parts. Every comment is emitted exactly once, in source order, at the first
token, closer or statement boundary past it: a comment that followed code on its line stays
at the end of that line (`Suffix`), one on a line of its own stays on a line of its own
(`OwnLine`), with the empty line before it when the source had one. Statement lists keep
one empty line where the source had one or more, and none after `{` or before `}`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lark import Token, Tree

from .comments import Comment, blank_between, gap_end, next_char
from .doc import Break, Doc, IfBroken, Indent, OwnLine, Suffix, group

Node = Tree[Token] | Token
_TRAILING_GAP = frozenset(" \t,")


def start_of(node: Node) -> int:
    if isinstance(node, Token):
        return node.start_pos or 0
    return node.meta.start_pos


def end_of(node: Node) -> int:
    if isinstance(node, Token):
        return node.end_pos or 0
    return node.meta.end_pos


class Emitter:
    """The comment cursor and the layouts shared by every bracketed construct."""

    def __init__(self, text: str, found: list[Comment]) -> None:
        self.text = text
        self.comments = found
        self.next = 0  # index of the first comment not yet emitted
        self.last = 0  # end of the last source text emitted (token, closer or comment)
        # A comment already ends the output line being built: a second one that ended the
        # same source line gets a line of its own (as it will have on the next run).
        self.open_suffix = False
        self.own_starts: list[int] = []  # where each `OwnLine` of the last `before` starts

    def build(self, node: Node) -> list[Doc]:
        """Implemented by the layouts: one method per grammar rule."""
        raise NotImplementedError

    # ------------------------------------------------------------ comments

    def before(self, offset: int) -> list[Doc]:
        """Every comment not yet emitted that starts before `offset`."""
        out: list[Doc] = []
        self.own_starts = []
        while self.next < len(self.comments) and self.comments[self.next].start < offset:
            c = self.comments[self.next]
            if c.own_line or self.open_suffix:
                blank = c.own_line and blank_between(self.text, self.last, c.start)
                out.append(OwnLine(c.text, blank))
                self.own_starts.append(c.start)
                self.open_suffix = False
            else:
                out.append(Suffix(c.text))
                self.open_suffix = True
            self.last = c.end
            self.next += 1
        return out

    def after(self, offset: int) -> list[Doc]:
        """The comment ending the line `offset` is on, when only space and commas lie
        between: it stays at the end of that line."""
        if self.next >= len(self.comments):
            return []
        c = self.comments[self.next]
        if self.open_suffix or c.own_line or not set(self.text[offset : c.start]) <= _TRAILING_GAP:
            return []
        self.next += 1
        self.open_suffix = True  # (`last` stays: a comma before the comment is still to come)
        return [Suffix(c.text)]

    def tok(self, token: Token, text: str | None = None) -> list[Doc]:
        parts = self.before(start_of(token))
        parts.append(str(token.value) if text is None else text)
        self.last = max(self.last, end_of(token))
        parts.extend(self.after(end_of(token)))
        return parts

    def sym(self, word: str) -> list[Doc]:
        """A keyword or punctuation the tree leaves out, read at the next non-space text:
        comments before it are emitted before it, a comment after it stays after it."""
        at = gap_end(self.text, self.last)
        parts = self.before(at)
        if self.text.startswith(word, at):
            self.last = at + len(word)
        parts.append(word)
        parts.extend(self.after(self.last))
        return parts

    def closer(self, text: str, offset: int) -> list[Doc]:
        """A closing bracket at `offset`; comments before it were flushed by `dangling`."""
        self.last = max(self.last, offset + 1)
        return [text]

    def dangling(self, offset: int) -> list[Doc]:
        """Comments left before a closer: inside the brackets, each on its own line
        (a trailing one stays on the line it ended)."""
        return self.before(offset)

    # ------------------------------------------------------------ statement lists

    def statements(
        self, items: Sequence[Node], stop: int, blank_if: Callable[[Node, Node], bool] | None
    ) -> list[Doc]:
        """One item per line, an empty line where the source had one (or where `blank_if`
        asks for one), comments before `stop` kept inside."""
        out: list[Doc] = []
        prev: Node | None = None
        for item in items:
            out.extend(self._lead(item, prev, blank_if))
            out.extend(self.build(item))
            self.last = max(self.last, end_of(item))
            out.extend(self.after(end_of(item)))
            prev = item
        out.extend(self._trail(stop, first=prev is None))
        return out

    def _lead(
        self, item: Node, prev: Node | None, blank_if: Callable[[Node, Node], bool] | None
    ) -> list[Doc]:
        """The break before `item` and the comments on the lines above it."""
        start = start_of(item)
        pending = self.before(start)
        suffixes = [d for d in pending if isinstance(d, Suffix)]
        own = [d for d in pending if isinstance(d, OwnLine)]
        first_text = self.own_starts[0] if own else start
        blank = prev is not None and (
            blank_between(self.text, end_of(prev), first_text)
            or (blank_if is not None and blank_if(prev, item))
        )
        out: list[Doc] = [*suffixes, Break.BLANK if blank else Break.HARD]
        self.open_suffix = False
        for k, d in enumerate(own):
            out.append(OwnLine(d.text, d.blank and k > 0))
        if own and blank_between(self.text, self.last, start):
            out.append(Break.BLANK)
        return out

    def _trail(self, stop: int, *, first: bool) -> list[Doc]:
        pending = self.before(stop)
        out: list[Doc] = []
        for k, d in enumerate(pending):
            if isinstance(d, OwnLine):
                out.append(OwnLine(d.text, d.blank and not (first and k == 0)))
            else:
                out.append(d)
        return out

    def block(self, head: list[Doc], items: Sequence[Node], stop: int) -> list[Doc]:
        """`head { item… }`, one item per line; `head {}` when empty."""
        opened = self.sym("{")
        body = self.statements(items, stop, None)
        if not body and opened == ["{"]:
            return [*head, "{}", *self.closer("", stop), *self.after(stop + 1)]
        self.open_suffix = False  # `}` starts a line
        closing = [Break.HARD, *self.closer("}", stop), *self.after(stop + 1)]
        k = opened.index("{") + 1  # what follows the opener belongs inside the block
        return [*head, *opened[:k], Indent([*opened[k:], *body]), *closing]

    # ------------------------------------------------------------ bracketed lists

    def bracketed(
        self,
        brackets: tuple[str, str],
        items: Sequence[Node],
        stop: int,
        *,
        pad: bool,
        build: Callable[[Node], list[Doc]] | None = None,
    ) -> list[Doc]:
        """`[a, b]` / `{ a: 1 }` flat when it fits, else one item per line with a trailing
        comma. A trailing comma in the source keeps it broken (ruff's magic comma)."""
        build = build or self.build
        opener, closer = brackets
        opened = self.sym(opener)
        at = opened.index(opener)
        outside, head = opened[:at], opened[at + 1 :]  # comments before / after the opener
        inner: list[Doc] = []
        magic = False
        broken = bool(head)
        for i, item in enumerate(items):
            pending = self.before(start_of(item))
            ends: list[Doc] = [d for d in pending if isinstance(d, Suffix)]
            own: list[Doc] = [d for d in pending if not isinstance(d, Suffix)]
            broken = broken or bool(ends or own)
            if broken:  # the group breaks: each separator is a new line
                self.open_suffix = False
            if i:
                inner += [*ends, Break.LINE, *own]
            else:
                head, inner = [*head, *ends], own
            inner += build(item)
            self.last = max(self.last, end_of(item))
            trailing = self.after(end_of(item))
            broken = broken or bool(trailing)
            inner += trailing
            comma = next_char(self.text, self.last) == ","
            if i < len(items) - 1:
                inner += self.sym(",") if comma else [","]
            elif comma:  # a trailing comma in the source keeps it broken (ruff's magic comma)
                magic = True
                inner += [IfBroken(",") if d == "," else d for d in self.sym(",")]
            else:
                inner.append(IfBroken(","))
        left = self.dangling(stop)
        if not items:  # `{  # note` of an empty map: the note stays after the opener
            head = [*head, *(d for d in left if isinstance(d, Suffix))]
            left = [d for d in left if not isinstance(d, Suffix)]
        inner += left
        if broken or left:
            self.open_suffix = False
        if not inner and not head:
            return [*outside, opener, *self.closer(closer, stop), *self.after(stop + 1)]
        edge = Break.LINE if pad else Break.SOFT
        body = Indent([*head, edge, *inner])
        laid = group([opener, body, edge, *self.closer(closer, stop)], force=magic)
        return [*outside, laid, *self.after(stop + 1)]
