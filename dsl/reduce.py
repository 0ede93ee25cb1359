"""Text → AST in one pass: Lark's LALR parser with the AST built at each reduction.

Input: the text of one file, the parser's `Tables` (Lark's analysed parse table and
per-state lexers as plain data, `dsl.tables.load_tables`; or a Lark parser to read them
from) and an `AstBuilder`. Output: the `ast.Module`, or `NotParsed` for a syntax error
(the caller then parses with Lark itself, so error reporting and recovery see exactly
Lark's exception).
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
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from .astclass import Record, record
from .build import AstBuilder
from .build_tests import At

if TYPE_CHECKING:
    from lark import Lark

# The tallest AST this path builds. Taller ones (hundreds of nested brackets, a very long
# `a or b or …`) are left to the recursive tree walk, whose limit has always decided them.
MAX_HEIGHT = 200


class TooDeep(Exception):
    """The AST would be taller than `MAX_HEIGHT`."""


Entry = tuple[Any, "int | None", "int | None", int]
Reduce = Callable[[list[Any]], Any]


@record
class _Shape(Record):
    """One grammar rule's reduction, as Lark's tree builder would shape it."""

    name: str  # the builder method (the rule's alias or name)
    size: int  # symbols in the expansion
    keep: tuple[tuple[int, bool, int], ...]  # (index, inline it, Nones before it)
    trailing_nones: int
    collapse: bool  # a `?rule` without alias: one child stands for the rule
    inline: bool  # a `_rule`: its children are spliced into the parent
    single: bool  # exactly one symbol, kept as it is (no filter)
    terminal: bool  # that one symbol is a token
    origin: str  # the rule's name, for the parse table's goto


def _shape(rule: Any, chain: list[Any]) -> _Shape:
    # Lark is imported only to read its parser into tables, never to drive them.
    from lark.parse_tree_builder import (
        ChildFilterLALR,
        ChildFilterLALR_NoPlaceholders,
        ExpandSingleChild,
    )

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
        origin=rule.origin.name,
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
            if only.__class__ is _Tok:
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


@record
class _Scan(Record):
    """One parser state's lexer: Lark's compiled terminal pattern for the terminals that
    state accepts, and its keyword rule (a NAME whose text is an accepted keyword)."""

    match: Callable[[str, int], re.Match[str] | None]
    keywords: Callable[[str], str | None] | None
    ignore: frozenset[str]


class _Lazy(dict[Any, Any]):
    """A table whose entries are made on first use (a small file touches few states)."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(key)
        return value


class Tables:
    """Lark's analysed parse table and per-state lexers as plain data (`tables_of`), which
    `dsl/tables.py` keeps between processes as JSON; only the loop that drives them and
    the reductions are ours. Each state's entries and its lexer's pattern are made on
    first use, as Lark itself compiles each state's lexer on first use, so a cold start
    pays only for the states its file reaches, and never imports Lark."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._states: dict[str, list[list[Any]]] = data["states"]
        self._lexer_of: dict[str, int] = data["lexer_of"]
        self._lexers: list[list[Any]] = data["lexers"]
        rules = data["rules"]
        self.shapes = [_Shape(r[0], r[1], tuple(map(tuple, r[2])), *r[3:]) for r in rules]
        self.by_lexer: dict[int, _Scan] = {}  # states that accept the same terminals share one
        # state → token or rule name → (shift?, next state | (rule index, size, rule name))
        self.actions = _Lazy(self._actions)
        self.scans = _Lazy(self._scan)
        self.start: int = data["start"]
        self.end: int = data["end"]

    def _actions(self, state: int) -> dict[str, tuple[bool, Any]]:
        shapes = self.shapes
        return {
            name: (True, arg) if shift else (False, (arg, shapes[arg].size, shapes[arg].origin))
            for name, shift, arg in self._states[str(state)]
        }

    def _scan(self, state: int) -> _Scan:
        index = self._lexer_of[str(state)]
        scan = self.by_lexer.get(index)
        if scan is None:
            (pattern, flags), keywords, ignore = self._lexers[index]
            scan = self.by_lexer[index] = _Scan(
                match=re.compile(pattern, flags).match,
                keywords=_keywords(keywords) if keywords is not None else None,
                ignore=frozenset(ignore),
            )
        return scan


def _keywords(patterns: list[list[Any]]) -> Callable[[str], str | None]:
    """Lark's `UnlessCallback`: the keyword a whole NAME spells, if any."""
    compiled = [re.compile(p, f) for p, f in patterns]

    def keyword(text: str) -> str | None:
        for pattern in compiled:
            m = pattern.fullmatch(text)
            if m:
                return m.lastgroup
        return None

    return functools.lru_cache(maxsize=None)(keyword)


def tables_of(parser: Lark) -> dict[str, Any]:
    """The plain data (JSON: lists, dicts with str keys, str, int, bool) `Tables` is made
    of, read from Lark's parser: each state's actions (token or rule name, shift?, next
    state or rule index), each rule's shape, and each state's lexer (its compiled
    pattern, its keyword patterns, the terminals it ignores)."""
    from lark.parsers.lalr_analysis import Shift  # reading Lark's tables needs Lark

    frontend = parser.parser
    contextual: Any = frontend.lexer.lexer  # behind the `_WholeWords` post-lexer, a no-op
    table = frontend.parser.parser.parse_table
    shape_of = dict(_shapes(parser))
    index: dict[int, int] = {}  # id(rule) → its index
    rules: list[list[Any]] = []

    def rule(r: Any) -> int:
        found = index.get(id(r))
        if found is None:
            found = index[id(r)] = len(rules)
            sh = shape_of[r]
            keep = [list(k) for k in sh.keep]
            rest = [sh.trailing_nones, sh.collapse, sh.inline, sh.single, sh.terminal, sh.origin]
            rules.append([sh.name, sh.size, keep, *rest])
        return found

    states = {
        str(state): [
            [name, True, arg] if action is Shift else [name, False, rule(arg)]
            for name, (action, arg) in acts.items()
        ]
        for state, acts in table.states.items()
    }
    lexer_index: dict[int, int] = {}
    lexers: list[list[Any]] = []
    lexer_of: dict[str, int] = {}
    for state in table.states:
        lexer = contextual.lexers[state]
        if id(lexer) not in lexer_index:
            lexer_index[id(lexer)] = len(lexers)
            lexers.append(_lexer_data(lexer))
        lexer_of[str(state)] = lexer_index[id(lexer)]
    start, end = table.start_states["start"], table.end_states["start"]
    return {
        "states": states,
        "rules": rules,
        "lexers": lexers,
        "lexer_of": lexer_of,
        "start": start,
        "end": end,
    }


def _lexer_data(lexer: Any) -> list[Any]:
    (pattern,) = lexer.scanner._mres  # noqa: SLF001 — one pattern per state in this grammar
    unless = lexer.callback.get("NAME")
    assert set(lexer.callback) <= {"NAME"}, lexer.callback
    keywords = None
    if unless is not None:
        keywords = [[p.pattern, p.flags] for p in unless.scanner._mres]  # noqa: SLF001
    return [[pattern.pattern, pattern.flags], keywords, sorted(lexer.ignore_types)]


@functools.cache
def _tables(parser: Lark) -> Tables:
    return Tables(tables_of(parser))


def parse_ast(tables: Tables | Lark, text: str, builder: AstBuilder) -> Any:
    """The AST of `text`; raises `NotParsed` on a syntax error and `TooDeep` when the AST
    would be taller than `MAX_HEIGHT`. `tables`: `dsl.tables.load_tables()`, or a Lark
    parser to read them from."""
    parts = tables if isinstance(tables, Tables) else _tables(tables)

    def reducer(index: int) -> Reduce:
        shape = parts.shapes[index]
        plain = shape.inline or (shape.collapse and shape.single)
        return _reducer(shape, None if plain else getattr(builder, shape.name, None))

    return _drive(parts, _Lazy(reducer), text)


def _drive(parts: Tables, reduces: _Lazy, text: str) -> Any:
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
