"""Syntax errors in plain words: Lark's `UnexpectedInput` as one located diagnostic.

Input: a `Stretch` of a `SourceFile` (the whole file or one top-level declaration), the
exception Lark raised while parsing it, and the literal text of each terminal. Output: a
`Diagnostic` whose message names what was expected in words a person knows (`}`, a node
name, a string) rather than token names, with a secondary label at the opener when a block
is never closed. Finding several errors per file is `dsl.recovery`'s job; this module words
one. Invariants: every span lies inside the file; nothing here raises for any input text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TypeAlias

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .astclass import Record, record
from .codes import Code
from .diagnostics import Diagnostic, Label, error
from .literal_errors import bad_number
from .scan import CLOSER, OPENER, WORD_AT_LINE_START, scan
from .source import SourceFile, Span
from .suggest import tuple_hint

# Terminal name → its literal text (`RBRACE` → `}`), None for a pattern (`NAME`).
PatternOf: TypeAlias = Callable[[str], str | None]

# ---------------------------------------------------------------- words for tokens

_NAMED_TERMINALS = {
    "NAME": "a name",
    "STRING": "a string",
    "LONG_STRING": "a string",
    "INT": "a number",
    "FLOAT": "a number",
    "DURATION": "a duration",
    "$END": "the end of the file",
}
_IGNORED_TERMINALS = {"GAP", "BAD_NUMBER"}

# Keywords that also count as names where a name is expected (`name` in the grammar).
SOFT_KEYWORDS = frozenset(
    {
        "model",
        "prompt",
        "tools",
        "output",
        "middleware",
        "state",
        "limits",
        "interrupt",
        "checkpoint",
        "node",
        "edge",
        "route",
        "hook",
        "use",
        "schema",
        "agent",
        "graph",
        "router",
        "template",
        "agentc",
        "as",
        "test",
        "input",
        "expect",
        "decide",
        "replay",
    }
)

# What can start a type, and what can start a value: named as one thing in messages.
_TYPE_START = frozenset({"NAME", "STRING", "LONG_STRING", "INT", "none", "true", "false", "("})
_VALUE_START = frozenset(
    {
        "NAME",
        "STRING",
        "LONG_STRING",
        "INT",
        "FLOAT",
        "DURATION",
        "none",
        "true",
        "false",
        "(",
        "[",
        "{",
        "-",
        "not",
    }
)


def _expected(exc: UnexpectedInput) -> set[str]:
    """Terminal names the parser would have taken (from its table, else Lark's guess)."""
    state = getattr(exc, "state", None)  # Lark's parser state; its shape is not promised
    if state is not None:
        try:
            actions = state.parse_conf.parse_table.states[state.position]
            return {name for name in actions if name.isupper() or name == "$END"}
        except (AttributeError, KeyError, TypeError):
            pass
    return set(getattr(exc, "expected", None) or ())


def _expected_atoms(names: Iterable[str], pattern_of: PatternOf) -> set[str]:
    """Expected terminals as literal text (`}`) or terminal name (`NAME`), names folded."""
    atoms = set()
    for name in names:
        if name in _IGNORED_TERMINALS:
            continue
        literal = pattern_of(name)
        atoms.add(literal if literal is not None else name)
    if "NAME" in atoms:
        atoms -= SOFT_KEYWORDS
    return atoms


def _words(atoms: set[str]) -> list[str]:
    """Human words for expected atoms, in a stable order: punctuation first."""
    if atoms == _TYPE_START:
        return ["a type"]
    words: list[str] = []
    if _VALUE_START <= atoms:
        atoms = atoms - _VALUE_START
        words.append("a value")
    for atom in sorted(atoms):
        word = _NAMED_TERMINALS.get(atom, f"`{atom}`")
        if word not in words:
            words.append(word)
    return sorted(words, key=lambda w: (not w.startswith("`"), w))


def _join_or(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _describe_token(token: Token) -> str:
    if token.type == "$END":
        return "the end of the file"
    if token.type in ("STRING", "LONG_STRING"):
        return "a string"
    value = str(token.value)
    if len(value) > 24:
        value = value[:21] + "..."
    return f"`{value}`"


# What a keyword must be followed by, for "expected … after `edge`".
_AFTER = {
    "edge": "a node name",
    "node": "a node name",
    "route": "a node name",
    "agent": "a name for the agent",
    "graph": "a name for the graph",
    "schema": "a name for the schema",
    "middleware": "a name or `{`",
    "router": "a name for the router",
    "template": "a name for the template",
    "use": "a quoted file path or module name",
    "as": "a name for the import",
    "hook": "a hook point (`before_model`, `before <node>` …)",
    "interrupt": "`before` or `after` and a node name",
    "by": "a router name",
    "via": "`tool`, `provider` or `auto`",
    "reduce": "a reducer name",
    "->": "a node name",
    "when": "a condition",
    "limits": "a map `{ … }`",
    "state": "`{`",
    "agentc": "a language version number",
    "prompt": "a prompt (a string)",
    "tools": "a list of tools `[…]`",
    "model": 'a model name such as `"openai:gpt-4o-mini"`',
    "output": "a schema name",
    "checkpoint": '`memory`, `none` or `sqlite("…")`',
    "=": "a value",
    ":": "a value",
    "not": "a value",
    "and": "a value",
    "or": "a value",
}


# ---------------------------------------------------------------- describing one error


@record
class Stretch(Record):
    """The part of the file one parse saw: `text[base:stop]`."""

    source: SourceFile
    base: int
    stop: int


def describe(stretch: Stretch, exc: UnexpectedInput, pattern_of: PatternOf) -> Diagnostic:
    """One diagnostic for the exception raised while parsing `stretch`."""
    open_long = _unterminated_long_string(stretch)
    if open_long is not None and open_long <= stretch.base + (exc.pos_in_stream or 0):
        return _unterminated_string(stretch, open_long + 2)
    if isinstance(exc, UnexpectedCharacters):
        return _in_route(stretch, exc, _unexpected_character(stretch, exc))
    if isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            return _unexpected_end(stretch, exc, pattern_of)
        return _tuple(
            stretch, exc, _in_route(stretch, exc, _unexpected_token(stretch, exc, pattern_of))
        )
    at = stretch.base + (exc.pos_in_stream or 0)
    return error(Code.SYNTAX, "the text does not follow the grammar", _clamped(stretch, at, at + 1))


def describe_own(stretch: Stretch, exc: UnexpectedInput, pattern_of: PatternOf) -> Diagnostic:
    """The error at the token the parser stopped at, worded as a mistake of the token's own
    statement (recovery found the statement before it is not to blame): `unexpected `edge`
    in the `agent` block`, at the token."""
    if not isinstance(exc, UnexpectedToken) or exc.token.type in ("$END", "BAD_NUMBER"):
        return describe(stretch, exc, pattern_of)
    token = exc.token
    start = stretch.base + token.start_pos
    span = _clamped(stretch, start, stretch.base + (token.end_pos or token.start_pos + 1))
    opens = scan(stretch.source.text, stretch.base, start).open_brackets
    where = f" in the {_block_name(stretch.source, opens[-1])}" if opens else ""
    words = _words(_expected_atoms(_expected(exc), pattern_of))
    notes = (f"expected one of: {', '.join(words[:12])}",) if words else ()
    found = _describe_token(token)
    return error(Code.SYNTAX, f"unexpected {found}{where}", span, "not expected here", notes=notes)


def _in_route(stretch: Stretch, exc: UnexpectedInput, d: Diagnostic) -> Diagnostic:
    """Inside `route a by r { … }` the likely slip is a label that is not a name
    (LangGraph's guides use labels such as "Rejected + Feedback"): say how to write one."""
    at = stretch.base + (exc.pos_in_stream or 0)
    opens = scan(stretch.source.text, stretch.base, at).open_brackets
    if d.help is not None or not opens or _block_name(stretch.source, opens[-1]) != "`route` block":
        return d
    return replace(
        d, help='write a label that is not a name as a string: `"Rejected + Feedback" -> node`'
    )


def _tuple(stretch: Stretch, exc: UnexpectedInput, d: Diagnostic) -> Diagnostic:
    """A Python tuple, `trigger: ("tokens", 4000)`: say how the language writes it."""
    at = stretch.base + (exc.pos_in_stream or 0)
    opens = scan(stretch.source.text, stretch.base, at).open_brackets
    hint = tuple_hint(stretch.source.text, opens[-1], at) if opens and d.help is None else None
    return replace(d, help=hint) if hint else d


def _unterminated_long_string(stretch: Stretch) -> int | None:
    """Where a triple-quoted string that never closes starts (it lexes as `""`, then junk)."""
    text = stretch.source.text
    for begin, end in scan(text, stretch.base, stretch.stop).long_strings:
        if end - begin < 6 or not text.endswith('"""', begin, end):
            return begin
    return None


def _clamped(stretch: Stretch, start: int, end: int) -> Span:
    size = len(stretch.source.text)
    start = max(0, min(start, size))
    return stretch.source.span(start, max(start, min(end, size)))


def _unexpected_character(stretch: Stretch, exc: UnexpectedCharacters) -> Diagnostic:
    text = stretch.source.text
    at = stretch.base + exc.pos_in_stream
    if text.startswith('"', at):
        return _unterminated_string(stretch, at)
    char = text[at] if at < len(text) else ""
    shown = char if char.isprintable() and not char.isspace() else repr(char)[1:-1]
    return error(
        Code.SYNTAX,
        f"unexpected character `{shown}`",
        _clamped(stretch, at, at + 1),
        "not part of the language here",
    )


def _unterminated_string(stretch: Stretch, at: int) -> Diagnostic:
    text = stretch.source.text
    triple = at >= 2 + stretch.base and text[at - 2 : at + 1] == '"""'
    start = at - 2 if triple else at
    line_end = text.find("\n", start)
    end = min(stretch.stop, line_end if line_end != -1 else len(text))
    if triple:
        return error(
            Code.UNTERMINATED_STRING,
            "unterminated triple-quoted string",
            _clamped(stretch, start, end),
            'no closing `"""` after this',
            help='close the text with `"""`',
        )
    return error(
        Code.UNTERMINATED_STRING,
        "unterminated string",
        _clamped(stretch, start, end),
        'this string has no closing `"`',
        help='close the string with `"` on the same line, or use `"""` for text over several lines',
    )


def _unexpected_end(stretch: Stretch, exc: UnexpectedToken, pattern_of: PatternOf) -> Diagnostic:
    scanned = scan(stretch.source.text, stretch.base, stretch.stop)
    here = _clamped(stretch, scanned.last_end, scanned.last_end)
    if scanned.open_brackets:
        return _unclosed(stretch, scanned.open_brackets[-1], here)
    words = _words(_expected_atoms(_expected(exc), pattern_of))
    message = "unexpected end of file"
    if words and len(words) <= 4:
        message += f", expected {_join_or(words)}"
    return error(Code.SYNTAX, message, here, "the file ends here")


def _unclosed(stretch: Stretch, opener: int, here: Span) -> Diagnostic:
    text = stretch.source.text
    closer = CLOSER[text[opener]]
    what = _block_name(stretch.source, opener)
    opened = stretch.source.pos(opener)
    return error(
        Code.UNCLOSED_BLOCK,
        f"expected `{closer}` to close the {what} opened at {opened.line}:{opened.col}",
        here,
        f"expected `{closer}` here",
        secondary=[Label(_clamped(stretch, opener, opener + 1), f"{what} opened here")],
        help=f"add `{closer}` where the {what} should end",
    )


def _block_name(source: SourceFile, opener: int) -> str:
    """`the `agent` block` when the opener's line starts with a keyword, else the bracket."""
    ch = source.text[opener]
    if ch == "{":
        line = source.pos(opener).line
        m = WORD_AT_LINE_START.match(source.line_text(line))
        if m and m.group(1) in _BLOCK_WORDS:
            return f"`{m.group(1)}` block"
        return "`{` map"
    return "`[` list" if ch == "[" else "`(`"


_BLOCK_WORDS = {"agent", "graph", "schema", "state", "middleware", "limits", "route"}


def _previous_token(exc: UnexpectedToken) -> str | None:
    state = getattr(exc, "state", None)
    stack = getattr(state, "value_stack", None) or []
    last = stack[-1] if stack else None
    # A keyword, never a user's name that happens to read `edge`.
    return str(last.value) if isinstance(last, Token) and last.type != "NAME" else None


_NAME_OR_VALUE = frozenset({"NAME", "STRING", "LONG_STRING", "INT", "{", "("})


def _unexpected_token(stretch: Stretch, exc: UnexpectedToken, pattern_of: PatternOf) -> Diagnostic:
    token = exc.token
    start = stretch.base + token.start_pos
    span = _clamped(stretch, start, stretch.base + (token.end_pos or token.start_pos + 1))
    if token.type == "BAD_NUMBER":
        return bad_number(span, str(token.value))
    found = _describe_token(token)
    atoms = _expected_atoms(_expected(exc), pattern_of)
    words = _words(atoms)
    before = scan(stretch.source.text, stretch.base, start)
    opens = before.open_brackets
    prev = _previous_token(exc)
    missing_at = _missing_at(stretch, before.last_end, start, span)
    if str(token.value) in OPENER and not _closes_something(stretch.source.text, opens, token):
        return error(
            Code.SYNTAX,
            f"unmatched `{token.value}`",
            span,
            "nothing is open here to close",
            help=f"remove this `{token.value}`, or add the opening bracket it closes",
        )
    if prev in _AFTER and atoms & _NAME_OR_VALUE:
        noun = "a type" if words == ["a type"] else _AFTER[prev]
        return error(
            Code.SYNTAX,
            f"expected {noun} after `{prev}`",
            missing_at,
            f"found {found}" if missing_at is span else f"expected {noun} here",
            secondary=_open_map_label(stretch, opens, start),
        )
    if str(token.value) == "=" and ":" in atoms:
        return error(
            Code.SYNTAX,
            "unexpected `=`: a key and its value are separated by `:`",
            span,
            "expected `:` here",
            help="write `key: value`",
        )
    if words and len(words) <= 4:
        return error(
            Code.SYNTAX,
            f"expected {_join_or(words)}, found {found}",
            missing_at,
            f"expected {_join_or(words)}" + ("" if missing_at is span else " here"),
            secondary=_open_map_label(stretch, opens, start),
        )
    where = f" in the {_block_name(stretch.source, opens[-1])}" if opens else ""
    notes = (f"expected one of: {', '.join(words[:12])}",) if words else ()
    return error(Code.SYNTAX, f"unexpected {found}{where}", span, "not expected here", notes=notes)


def _missing_at(stretch: Stretch, last_end: int, start: int, span: Span) -> Span:
    """Where a missing piece belongs: after the previous token when the one found is on a
    later line (the mistake is at the end of that line), else at the token found."""
    source = stretch.source
    if last_end > stretch.base and source.pos(last_end).line < source.pos(start).line:
        return _clamped(stretch, last_end, last_end)
    return span


def _closes_something(text: str, opens: tuple[int, ...], token: Token) -> bool:
    return any(text[at] == OPENER[str(token.value)] for at in opens)


def _open_map_label(stretch: Stretch, opens: tuple[int, ...], start: int) -> list[Label]:
    """Point at a still-open `{`/`[`/`(` of a value on an earlier line: often the cause."""
    if not opens:
        return []
    opener = opens[-1]
    source = stretch.source
    what = _block_name(source, opener)
    if what.endswith(" block") or source.pos(opener).line == source.pos(start).line:
        return []
    return [Label(_clamped(stretch, opener, opener + 1), f"this {what} is still open")]


__all__ = [
    "SOFT_KEYWORDS",
    "PatternOf",
    "Stretch",
    "describe",
    "describe_own",
]
