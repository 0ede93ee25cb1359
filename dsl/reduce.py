"""Text → AST in one pass: Lark's LALR parser with the AST built at each reduction.

Input: the text of one file, the process-wide Lark parser (`grammar.load_parser`) and an
`AstBuilder`. Output: the `ast.Module`, or `NotParsed` for a syntax error (the caller then
parses with Lark itself, so error reporting and recovery see exactly Lark's exception).
No `lark.Tree` is built: Lark's parse table and per-state lexers are driven by one loop
here, and each reduction calls the builder's method for its rule directly.

Invariant: the AST, spans included, is the one `AstBuilder.transform` makes from the tree
of `load_parser().parse(text)`. The rule shapes (which children are kept, inlined or
padded with `None` for an absent `[…]`, and which `?rule`s collapse to their one child) are
read from the parse-tree builder Lark made for that parser, so they cannot drift. Spans
follow Lark's `propagate_positions`: a rule covers its first through last token, filtered
punctuation included; a `?rule` that collapses to a token passes on only the token's place.

Every value on the parser's stack for a rule is `(value, start, end, height)`: the built
value, the character offsets its rule covers (None when it covers no token) and the height
of the tree Lark would have built; for a `_rule` (Lark's inlined repetitions) the value is
its list of children.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, NamedTuple

from lark import Lark, Token
from lark.parse_tree_builder import (
    ChildFilterLALR,
    ChildFilterLALR_NoPlaceholders,
    ExpandSingleChild,
)
from lark.parsers.lalr_analysis import Shift

from .build import AstBuilder
from .build_tests import At

# The tallest AST this path builds. Taller ones (hundreds of nested brackets, a very long
# `a or b or …`) are left to the recursive tree walk, whose limit has always decided them.
MAX_HEIGHT = 200


class TooDeep(Exception):
    """The AST would be taller than `MAX_HEIGHT`."""


Entry = tuple[Any, "int | None", "int | None", int]
Reduce = Callable[[list[Any]], Any]


@dataclass(frozen=True, slots=True)
class _Shape:
    """One grammar rule's reduction, as Lark's tree builder would shape it."""

    name: str  # the builder method (the rule's alias or name)
    size: int  # symbols in the expansion
    keep: tuple[tuple[int, bool, int], ...]  # (index, inline it, Nones before it)
    trailing_nones: int
    collapse: bool  # a `?rule` without alias: one child stands for the rule
    inline: bool  # a `_rule`: its children are spliced into the parent
    single: bool  # exactly one symbol, kept as it is (no filter)
    terminal: bool  # that one symbol is a token


def _shape(rule: Any, chain: list[Any]) -> _Shape:
    name = rule.alias or rule.options.template_source or rule.origin.name
    size = len(rule.expansion)
    keep: tuple[tuple[int, bool, int], ...] = tuple((i, False, 0) for i in range(size))
    trailing = 0
    filtered = False
    for wrapper in chain:
        if isinstance(wrapper, functools.partial) and wrapper.func is ChildFilterLALR:
            keep = tuple(wrapper.args[0])
            trailing = wrapper.args[1]
            filtered = True
        elif (
            isinstance(wrapper, functools.partial)
            and wrapper.func is ChildFilterLALR_NoPlaceholders
        ):
            keep = tuple((i, inline, 0) for i, inline in wrapper.args[0])
            filtered = True
    return _Shape(
        name=name,
        size=size,
        keep=keep,
        trailing_nones=trailing,
        collapse=ExpandSingleChild in chain,
        inline=rule.origin.name.startswith("_"),
        single=size == 1 and not filtered,
        terminal=size == 1 and rule.expansion[0].is_term,
    )


@functools.cache
def _shapes(parser: Lark) -> tuple[tuple[Any, _Shape], ...]:
    """Each rule of the parser with its shape (computed once per process)."""
    builders = parser._parse_tree_builder.rule_builders  # noqa: SLF001 — the shapes Lark uses
    return tuple((rule, _shape(rule, chain)) for rule, chain in builders)


def _bounds(s: list[Any]) -> tuple[int | None, int | None]:
    """The first and last character offsets the stack slice `s` covers."""
    start = end = None
    for c in s:
        if c.__class__ is tuple:
            if c[1] is not None:
                start = c[1]
                break
        else:
            start = c.start_pos
            break
    if start is None:
        return None, None
    for c in reversed(s):
        if c.__class__ is tuple:
            if c[2] is not None:
                end = c[2]
                break
        else:
            end = c.end_pos
            break
    return start, end


def _children(shape: _Shape, s: list[Any]) -> tuple[list[Any], int]:
    """The rule's children as Lark's tree builder keeps them, and their tallest height."""
    children: list[Any] = []
    height = 0
    for i, inline, nones in shape.keep:
        if nones:
            children.extend([None] * nones)
        c = s[i]
        if c.__class__ is not tuple:
            children.append(c)
            continue
        if c[3] > height:
            height = c[3]
        if not inline:
            children.append(c[0])
        elif children:
            children.extend(c[0])
        else:  # a left-recursive repetition: grow its list in place
            children = c[0]
    if shape.trailing_nones:
        children.extend([None] * shape.trailing_nones)
    return children, height


def _single_token(s: list[Any]) -> Entry:
    tok = s[0]
    return (tok, tok.start_pos, tok.end_pos, 0)


def _reducer(shape: _Shape, method: Callable[[At, list[Any]], Any] | None) -> Reduce:
    """The callback Lark's parser calls with the stack slice of one reduction."""
    if shape.collapse and shape.single:
        return _single_token if shape.terminal else itemgetter(0)
    if shape.single and shape.terminal and not shape.inline:  # `name: NAME`, `int_lit: INT`
        assert method is not None

        def reduce_token(s: list[Any]) -> Entry:
            tok = s[0]
            start, end = tok.start_pos, tok.end_pos
            return (method((start, end), s), start, end, 1)

        return reduce_token

    def reduce(s: list[Any]) -> Entry:
        start, end = _bounds(s)
        children, height = _children(shape, s)
        if shape.inline:
            return (children, start, end, height)
        if shape.collapse and len(children) == 1:
            only = children[0]
            if only is None:
                return (None, None, None, 0)
            if isinstance(only, (Token, _Tok)):
                return (only, only.start_pos, only.end_pos, 0)
            return (only, start, end, height)
        if height >= MAX_HEIGHT:
            raise TooDeep
        assert method is not None
        at: At = None if start is None or end is None else (start, end)
        return (method(at, children), start, end, height + 1)

    return reduce


class NotParsed(Exception):
    """The text is not in the language (or lexes in a way this path does not follow):
    Lark's own parse of it raises the syntax error to report."""


class _Tok(NamedTuple):
    """A token: what the builder reads of Lark's `Token`, at a tuple's cost."""

    type: str
    value: str
    start_pos: int
    end_pos: int


_new_tok = tuple.__new__
_END = "$END"


@dataclass(frozen=True, slots=True)
class _Scan:
    """One parser state's lexer: Lark's compiled terminal pattern for the terminals that
    state accepts, and its keyword rule (a NAME whose text is an accepted keyword)."""

    match: Callable[[str, int], re.Match[str] | None]
    keywords: Callable[[str], str | None] | None
    ignore: frozenset[str]


def _scan(lexer: Any) -> _Scan:
    (pattern,) = lexer.scanner._mres  # noqa: SLF001 — one pattern per state in this grammar
    unless = lexer.callback.get("NAME")
    assert set(lexer.callback) <= {"NAME"}, lexer.callback
    keywords = None
    if unless is not None:
        keywords = functools.lru_cache(maxsize=None)(unless.scanner.fullmatch)
    return _Scan(match=pattern.match, keywords=keywords, ignore=lexer.ignore_types)


class _Lazy(dict[Any, Any]):
    """A table whose entries are made on first use (a small file touches few states)."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(key)
        return value


class _Parsers:
    """Lark's analysed parse table and contextual lexer, reused; only the loop that drives
    them and the reductions are ours. Each state's entries are converted on first use, as
    Lark itself compiles each state's lexer on first use, so a cold start pays only for
    the states its file reaches."""

    def __init__(self, parser: Lark) -> None:
        frontend = parser.parser
        contextual: Any = frontend.lexer.lexer  # behind the `_WholeWords` post-lexer, a no-op
        self.lexers: dict[Any, Any] = contextual.lexers
        self.table = frontend.parser.parser.parse_table
        self.shape_of = dict(_shapes(parser))
        self.rules: list[Any] = []  # the table's own rule objects, by index
        self.shapes: list[_Shape] = []
        self.index: dict[int, int] = {}  # id(rule) → its index
        self.by_lexer: dict[int, _Scan] = {}  # states that accept the same terminals share one
        # state → token or rule name → (shift?, next state | (rule index, size, rule name))
        self.actions = _Lazy(self._actions)
        self.scans = _Lazy(self._scan)
        self.start = self.table.start_states["start"]
        self.end = self.table.end_states["start"]

    def _actions(self, state: Any) -> dict[str, tuple[bool, Any]]:
        return {
            name: (True, arg)
            if action is Shift
            else (False, (self._rule(arg), len(arg.expansion), arg.origin.name))
            for name, (action, arg) in self.table.states[state].items()
        }

    def _rule(self, rule: Any) -> int:
        found = self.index.get(id(rule))
        if found is None:
            found = self.index[id(rule)] = len(self.rules)
            self.rules.append(rule)
            self.shapes.append(self.shape_of[rule])
        return found

    def _scan(self, state: Any) -> _Scan:
        lexer = self.lexers[state]
        if id(lexer) not in self.by_lexer:
            self.by_lexer[id(lexer)] = _scan(lexer)
        return self.by_lexer[id(lexer)]


@functools.cache
def _parsers(parser: Lark) -> _Parsers:
    return _Parsers(parser)


def parse_ast(parser: Lark, text: str, builder: AstBuilder) -> Any:
    """The AST of `text`; raises `NotParsed` on a syntax error and `TooDeep` when the AST
    would be taller than `MAX_HEIGHT`."""
    parts = _parsers(parser)

    def reducer(index: int) -> Reduce:
        shape = parts.shapes[index]
        plain = shape.inline or (shape.collapse and shape.single)
        return _reducer(shape, None if plain else getattr(builder, shape.name, None))

    return _drive(parts, _Lazy(reducer), text)


def _drive(parts: _Parsers, reduces: _Lazy, text: str) -> Any:
    """Lark's LALR loop and contextual lexer (`ParserState.feed_token`,
    `BasicLexer.next_token`) in one loop, without line counting or `Token` objects."""
    actions, scans, end_state = parts.actions, parts.scans, parts.end
    states = [parts.start]
    values: list[Any] = []
    pos, size_of_text = 0, len(text)
    while True:
        if pos < size_of_text:
            scan = scans[states[-1]]
            m = scan.match(text, pos)
            if m is None:
                raise NotParsed
            kind, end = m.lastgroup, m.end()
            if kind in scan.ignore:
                pos = end
                continue
            value = m.group()
            if kind == "NAME" and scan.keywords is not None:
                kind = scan.keywords(value) or kind
            token = _new_tok(_Tok, (kind, value, pos, end))
            pos = end
        else:
            kind = _END
            token = None
        while True:
            found = actions[states[-1]].get(kind)
            if found is None:
                raise NotParsed
            shift, arg = found
            if shift:
                if token is None:
                    raise NotParsed
                states.append(arg)
                values.append(token)
                break
            rule, size, origin = arg
            if size:
                s = values[-size:]
                del states[-size:]
                del values[-size:]
            else:
                s = []
            value = reduces[rule](s)
            shift, goto = actions[states[-1]][origin]
            states.append(goto)
            values.append(value)
            if token is None and goto == end_state:
                return value[0]


__all__ = ["MAX_HEIGHT", "NotParsed", "TooDeep", "parse_ast"]
