"""Syntax errors: Lark's `UnexpectedInput` as located diagnostics in plain words.

Input: a `SourceFile` and the exception Lark raised for one stretch of it (the whole file
or one top-level declaration). Output: a `Diagnostic` whose message names what was
expected in words a person knows (`}`, a node name, a string) rather than token names,
with a secondary label at the opener when a block is never closed.

Recovery: LALR stops at the first error, so `recover` re-parses the file one top-level
declaration at a time (a declaration starts at column 1 with `use`, `schema`, `agent`,
`graph`, `middleware`, `router` or `template`); inside a declaration, after each error the
broken statement of the innermost `agent`/`graph`/`schema`/`state`/`middleware` block is
blanked out and the declaration parsed again, so independent mistakes on different lines
each get their own diagnostic, and nothing is guessed where statements cannot be told
apart (one-line blocks, an unterminated string, the end of the file).
Invariants: every span lies inside the file; nothing here raises for any input text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .codes import Code
from .diagnostics import Diagnostic, Label, error
from .source import SourceFile

MAX_SYNTAX_ERRORS = 20

_CLOSER = {"{": "}", "[": "]", "(": ")"}
_OPENER = {v: k for k, v in _CLOSER.items()}

# One pass over the text: strings (possibly unterminated), comments, brackets, words.
_SCAN = re.compile(
    r'''
    (?P<long>"""(?:[^"\\]|\\[\s\S]|"(?!""))*(?:"""|\Z))
  | (?P<str>"(?:[^"\\\n]|\\[^\n])*"?)
  | (?P<comment>\#[^\n]*)
  | (?P<bracket>[{}\[\]()])
  | (?P<word>[^\s#"{}\[\]()]+)
''',
    re.VERBOSE,
)

_TOP_LEVEL = re.compile(
    r'^(?:use[ \t]+"'
    r'|(?:schema|agent|graph)[ \t]+[A-Za-z_]\w*[ \t]*(?:"|\{)'
    r"|(?:middleware|router|template)[ \t]+[A-Za-z_]\w*[ \t]*\()",
    re.MULTILINE,
)

_WORD_AT_LINE_START = re.compile(r"[ \t]*([A-Za-z_]\w*)")


# ---------------------------------------------------------------- scanning the text


@dataclass(frozen=True, slots=True)
class _Scan:
    """What a light scan of `text[start:stop]` learned."""

    open_brackets: tuple[int, ...]  # offsets of openers never closed, outermost first
    last_end: int  # end of the last thing that is not a comment or space
    long_strings: tuple[tuple[int, int], ...]


def _scan(text: str, start: int, stop: int) -> _Scan:
    stack: list[int] = []
    last_end = start
    longs: list[tuple[int, int]] = []
    for m in _SCAN.finditer(text, start, stop):
        kind = m.lastgroup
        if kind == "comment":
            continue
        last_end = m.end()
        if kind == "long":
            longs.append((m.start(), m.end()))
        elif kind == "bracket":
            _track_bracket(text, m.start(), stack)
    return _Scan(tuple(stack), last_end, tuple(longs))


def _track_bracket(text: str, at: int, stack: list[int]) -> None:
    ch = text[at]
    if ch in _CLOSER:
        stack.append(at)
    elif stack and text[stack[-1]] == _OPENER[ch]:
        stack.pop()


def segments(text: str) -> list[tuple[int, int]]:
    """Top-level declaration stretches: split where a declaration starts at column 1."""
    longs = _scan(text, 0, len(text)).long_strings
    starts = [0]
    for m in _TOP_LEVEL.finditer(text):
        if m.start() > 0 and not _inside(longs, m.start()):
            starts.append(m.start())
    ends = starts[1:] + [len(text)]
    return list(zip(starts, ends))


def _inside(spans: tuple[tuple[int, int], ...], offset: int) -> bool:
    i = bisect.bisect_right([start for start, _ in spans], offset) - 1
    return i >= 0 and spans[i][0] < offset < spans[i][1]


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
    state = getattr(exc, "state", None)
    try:
        actions = state.parse_conf.parse_table.states[state.position]
        return {name for name in actions if name.isupper() or name == "$END"}
    except (AttributeError, KeyError, TypeError):
        return set(getattr(exc, "expected", None) or ())


def _expected_atoms(names: Iterable[str], pattern_of: Callable[[str], str | None]) -> set[str]:
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


@dataclass(frozen=True, slots=True)
class Stretch:
    """The part of the file one parse saw: `text[base:stop]`."""

    source: SourceFile
    base: int
    stop: int


def describe(
    stretch: Stretch, exc: UnexpectedInput, pattern_of: Callable[[str], str | None]
) -> Diagnostic:
    """One diagnostic for the exception raised while parsing `stretch`."""
    open_long = _unterminated_long_string(stretch)
    if open_long is not None and open_long <= stretch.base + (exc.pos_in_stream or 0):
        return _unterminated_string(stretch, open_long + 2)
    if isinstance(exc, UnexpectedCharacters):
        return _unexpected_character(stretch, exc)
    if isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            return _unexpected_end(stretch, exc, pattern_of)
        return _unexpected_token(stretch, exc, pattern_of)
    at = stretch.base + (exc.pos_in_stream or 0)
    return error(Code.SYNTAX, "the text does not follow the grammar", _clamped(stretch, at, at + 1))


def _unterminated_long_string(stretch: Stretch) -> int | None:
    """Where a triple-quoted string that never closes starts (it lexes as `""`, then junk)."""
    text = stretch.source.text
    for begin, end in _scan(text, stretch.base, stretch.stop).long_strings:
        if end - begin < 6 or not text.endswith('"""', begin, end):
            return begin
    return None


def _clamped(stretch: Stretch, start: int, end: int):
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


def _unexpected_end(
    stretch: Stretch, exc: UnexpectedToken, pattern_of: Callable[[str], str | None]
) -> Diagnostic:
    scan = _scan(stretch.source.text, stretch.base, stretch.stop)
    here = _clamped(stretch, scan.last_end, scan.last_end)
    if scan.open_brackets:
        return _unclosed(stretch, scan.open_brackets[-1], here)
    words = _words(_expected_atoms(_expected(exc), pattern_of))
    message = "unexpected end of file"
    if words and len(words) <= 4:
        message += f", expected {_join_or(words)}"
    return error(Code.SYNTAX, message, here, "the file ends here")


def _unclosed(stretch: Stretch, opener: int, here) -> Diagnostic:
    text = stretch.source.text
    closer = _CLOSER[text[opener]]
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
        m = _WORD_AT_LINE_START.match(source.line_text(line))
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


def _unexpected_token(
    stretch: Stretch, exc: UnexpectedToken, pattern_of: Callable[[str], str | None]
) -> Diagnostic:
    token = exc.token
    start = stretch.base + token.start_pos
    span = _clamped(stretch, start, stretch.base + (token.end_pos or token.start_pos + 1))
    if token.type == "BAD_NUMBER":
        return bad_number(span, str(token.value))
    found = _describe_token(token)
    atoms = _expected_atoms(_expected(exc), pattern_of)
    words = _words(atoms)
    before = _scan(stretch.source.text, stretch.base, start)
    opens = before.open_brackets
    prev = _previous_token(exc)
    missing_at = _missing_at(stretch, before.last_end, start, span)
    if str(token.value) in _OPENER and not _closes_something(stretch.source.text, opens, token):
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


def _missing_at(stretch: Stretch, last_end: int, start: int, span):
    """Where a missing piece belongs: after the previous token when the one found is on a
    later line (the mistake is at the end of that line), else at the token found."""
    source = stretch.source
    if last_end > stretch.base and source.pos(last_end).line < source.pos(start).line:
        return _clamped(stretch, last_end, last_end)
    return span


def _closes_something(text: str, opens: tuple[int, ...], token: Token) -> bool:
    return any(text[at] == _OPENER[str(token.value)] for at in opens)


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


def bad_number(span, text: str) -> Diagnostic:
    """`30x`: digits followed by letters that are not a duration unit."""
    return error(
        Code.BAD_LITERAL,
        f"`{text}` is not a number or a duration",
        span,
        "not a number or a duration",
        help="write a number (`30`, `0.5`) or a duration such as `500ms`, `30s`, `2m` or `1h`",
    )


# ---------------------------------------------------------------- recovery


@dataclass(frozen=True, slots=True)
class Recovered:
    """The syntax errors found, and the text with every broken statement blanked out when
    that text parses (so the caller can still report what only building the AST finds,
    such as `30x`); `text` is None when recovery stopped somewhere."""

    diagnostics: tuple[Diagnostic, ...]
    text: str | None


def recover(
    source: SourceFile,
    parse_stretch: Callable[[str], object],
    first: UnexpectedInput,
    pattern_of: Callable[[str], str | None],
) -> tuple[Diagnostic, ...]:
    """Every syntax error we can find independently (see `recover_all`)."""
    return recover_all(source, parse_stretch, first, pattern_of).diagnostics


def recover_all(
    source: SourceFile,
    parse_stretch: Callable[[str], object],
    first: UnexpectedInput,
    pattern_of: Callable[[str], str | None],
) -> Recovered:
    """Per top-level declaration, and inside a declaration's blocks one per broken
    statement (see `statement_region`)."""
    found: list[Diagnostic] = []
    parts = segments(source.text)
    text: str | None = source.text
    for base, stop in parts:
        exc = first if len(parts) == 1 else None
        errors, fixed = _segment_errors(
            source, base, stop, parse_stretch, pattern_of, exc, MAX_SYNTAX_ERRORS - len(found)
        )
        found += errors
        if text is not None:
            text = None if fixed is None else text[:base] + fixed[base:stop] + text[stop:]
        if len(found) >= MAX_SYNTAX_ERRORS:
            text = None
            break
    if not found:
        found.append(describe(Stretch(source, 0, len(source.text)), first, pattern_of))
        text = None
    return Recovered(tuple(found), text)


@dataclass(slots=True)
class _Found:
    diagnostic: Diagnostic
    at: int  # offset of the token the parser stopped at
    start: int  # start of the statement blanked after it (`stop`: none)
    before: SourceFile  # the text as it was before that blanking
    line_before: bool  # blamed on the statement before the token's line


def _segment_errors(
    source: SourceFile,
    base: int,
    stop: int,
    parse_stretch,
    pattern_of,
    exc: UnexpectedInput | None,
    budget: int,
) -> tuple[list[Diagnostic], str | None]:
    """The errors of `text[base:stop]`, and the text once they are blanked (None when
    recovery stopped early): after each error the broken statement is blanked out
    (spaces, newlines kept, so every offset, line and column stays the same) and the
    stretch is parsed again; this stops where no statement boundary can be trusted."""
    found: list[_Found] = []
    current = source
    while len(found) < budget:
        if exc is None:
            try:
                parse_stretch(current.text[base:stop])
                return [f.diagnostic for f in found], current.text
            except UnexpectedInput as raised:
                exc = raised
        located = error_location(current.text, base, exc)
        if located is None:
            found.append(
                _Found(
                    describe(Stretch(current, base, stop), exc, pattern_of),
                    stop,
                    stop,
                    current,
                    False,
                )
            )
            break
        at, anchor = located
        if found and found[-1].at == at and found[-1].line_before:
            # Blanking the statement before did not move the error: the token's own
            # statement is the broken one (`= 5` on a line of its own), already reported.
            current = found[-1].before
            region = statement_region(current.text, base, stop, at, at)
            found[-1].start, found[-1].line_before = (region or (stop,))[0], False
        else:
            region, restored = _region_after_undo(found, current, base, stop, anchor, at)
            found.append(
                _Found(
                    describe(Stretch(current, base, stop), exc, pattern_of),
                    at,
                    (region or (stop,))[0],
                    restored,
                    anchor != at,
                )
            )
            current = restored
        if region is None:
            break
        current = SourceFile(source.name, blank(current.text, *region))
        exc = None
    return [f.diagnostic for f in found], None


def _region_after_undo(
    found: list[_Found], current: SourceFile, base: int, stop: int, anchor: int, at: int
) -> tuple[tuple[int, int] | None, SourceFile]:
    """The region to blank for an error at `at` (blamed on `anchor`), and the text to blank
    it in. An error before the statements blanked last means those were the rest of this
    unfinished one (`x: int =`, then `y: str`): their errors were not their own, so they
    are dropped and their statements put back."""
    region = statement_region(current.text, base, stop, anchor, at)
    if region is None or not found or region[0] >= found[-1].start:
        return region, current
    while found and region[0] < found[-1].start:
        current = found.pop().before
    return statement_region(current.text, base, stop, anchor, anchor), current


def blank(text: str, start: int, end: int) -> str:
    """`text` with `[start, end)` turned into spaces, line breaks kept."""
    return text[:start] + _NOT_NEWLINE.sub(" ", text[start:end]) + text[end:]


_NOT_NEWLINE = re.compile(r"[^\n]")

# Blocks whose body is a list of statements, one or more lines each: recovery resumes at
# the next statement of the innermost such block around an error.
STATEMENT_BLOCKS = frozenset({"agent", "graph", "schema", "state", "middleware"})


def error_location(text: str, base: int, exc: UnexpectedInput) -> tuple[int, int] | None:
    """`(at, anchor)`: where the parser stopped, and the offset the error is blamed on —
    the last token before it when that is on an earlier line (a piece missing at the end
    of that line), else `at`. None at the end of the text: nothing follows to resume at."""
    token = getattr(exc, "token", None)
    if token is not None and token.type == "$END":
        return None
    at = base + (token.start_pos if token is not None else exc.pos_in_stream or 0)
    last_end = _scan(text, base, at).last_end
    anchor = last_end - 1 if last_end > base and "\n" in text[last_end:at] else at
    return at, anchor


def statement_region(
    text: str, base: int, stop: int, anchor: int, at: int
) -> tuple[int, int] | None:
    """`[start, end)` of the statement holding `anchor` (an error found at `at`), when it
    sits inside a statement block and the next statement (or the block's `}`) can be found
    after it on a later line; None otherwise (recovery stops there)."""
    block = _statement_block(text, base, anchor)
    if block is None:
        return None
    start = _statement_start(text, block, anchor)
    if start is None:
        return None
    end = _next_statement(text, start, anchor, at if anchor == at else at - 1, stop)
    return None if end is None else (start, end)


def _words_from(text: str, start: int, stop: int):
    """Non-comment lexemes of `text[start:stop]`: `(offset, kind, first on its line)`."""
    for m in _SCAN.finditer(text, start, stop):
        kind = m.lastgroup
        if kind != "comment":
            at = m.start()
            line_start = text.rfind("\n", 0, at) + 1
            yield at, kind, not text[line_start:at].strip()


def _statement_block(text: str, base: int, anchor: int) -> int | None:
    """The `{` of the innermost statement block open at `anchor`."""
    stack: list[int] = []
    for at, kind, _ in _words_from(text, base, anchor + 1):
        if kind == "bracket":
            _track_bracket(text, at, stack)
    for opener in reversed(stack):
        if text[opener] == "{" and _first_word(text, opener) in STATEMENT_BLOCKS:
            return opener
    return None


def _first_word(text: str, at: int) -> str | None:
    m = _WORD_AT_LINE_START.match(text, text.rfind("\n", 0, at) + 1)
    return m.group(1) if m else None


def _statement_start(text: str, block: int, anchor: int) -> int | None:
    """The last line start directly inside `block` (not nested deeper) at or before
    `anchor`: where the broken statement begins."""
    stack: list[int] = []
    start = None
    for at, kind, first in _words_from(text, block + 1, anchor + 1):
        if first and not stack and not (kind == "bracket" and text[at] in _OPENER):
            start = at
        if kind == "bracket":
            _track_bracket(text, at, stack)
    return start


def _next_statement(text: str, start: int, anchor: int, at: int, stop: int) -> int | None:
    """Where the statement after the broken one begins: the first line after the
    anchor's that starts no deeper than the broken one with its brackets balanced — or,
    when the broken one left a bracket open, that starts with a word in its column — or
    the closing `}` of the block."""
    column = start - (text.rfind("\n", 0, start) + 1)
    anchor_line_end = text.find("\n", anchor)
    if anchor_line_end == -1:
        return None
    stack: list[int] = []
    for pos, kind, first in _words_from(text, start, stop):
        if kind == "bracket" and text[pos] in _OPENER and not stack:
            if text[pos] != "}":
                continue  # a stray `]` or `)`: part of the mistake, blanked with it
            return pos if pos > at else None  # the block's `}` (None: the error is it,
            # unless the error is a piece missing before it, when `at` is one less)
        if first and pos > anchor_line_end:
            col = pos - (text.rfind("\n", 0, pos) + 1)
            if col <= column and not stack:
                return pos
            if col == column and kind == "word":
                return pos
        if kind == "bracket":
            _track_bracket(text, pos, stack)
    return None
