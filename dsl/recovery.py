"""Syntax error recovery: every independent syntax error of a file, not just the first.

Input: a `SourceFile`, a function that parses a stretch of text (raising Lark's
`UnexpectedInput`), the exception the whole-file parse raised, and the literal text of
each terminal. Output: `Recovered` — the syntax diagnostics (worded by `dsl.syntax_errors`)
and, when it still parses, the text with every broken statement blanked out.

LALR stops at the first error, so the file is re-parsed one top-level declaration at a
time (a declaration starts at column 1 with `use`, `schema`, `agent`, `graph`,
`middleware`, `router` or `template`); inside a declaration, after each error the broken
statement of the innermost `agent`/`graph`/`schema`/`state`/`middleware` block is blanked
out and the declaration parsed again, so independent mistakes on different lines each get
their own diagnostic, and nothing is guessed where statements cannot be told apart
(one-line blocks, an unterminated string, the end of the file).
Invariants: blanking keeps every offset, line and column; at most `MAX_SYNTAX_ERRORS`
diagnostics and `MAX_RECOVERY_STEPS` parses per declaration (a step may take errors back,
so their count alone does not make recovery end; every other loop here walks a finite
sequence or pops a list); every span lies inside the file; nothing here raises for any
input text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from lark.exceptions import UnexpectedInput

from .astclass import Record, record
from .diagnostics import Diagnostic
from .scan import OPENER, first_word, lexemes, scan, track_bracket
from .source import SourceFile
from .syntax_errors import PatternOf, Stretch, describe, describe_own

MAX_SYNTAX_ERRORS = 20
# Parses of one declaration during recovery, at most: each step either reports an error,
# confirms one or takes some back, so the count of errors alone can stay the same; this
# bound (with the check that no state repeats) is what makes recovery always end.
MAX_RECOVERY_STEPS = 4 * MAX_SYNTAX_ERRORS

_TOP_LEVEL = re.compile(
    r'^(?:use[ \t]+"'
    r'|(?:schema|agent|graph)[ \t]+[A-Za-z_]\w*[ \t]*(?:"|\{)'
    r"|(?:middleware|router|template)[ \t]+[A-Za-z_]\w*[ \t]*\()",
    re.MULTILINE,
)

# A parse of one stretch of text: returns when it parses, raises `UnexpectedInput` if not.
ParseStretch: TypeAlias = Callable[[str], object]


# ---------------------------------------------------------------- top-level declarations


def segments(text: str) -> list[tuple[int, int]]:
    """Top-level declaration stretches: split where a declaration starts at column 1."""
    longs = scan(text, 0, len(text)).long_strings
    starts = [0]
    for m in _TOP_LEVEL.finditer(text):
        if m.start() > 0 and not _inside(longs, m.start()):
            starts.append(m.start())
    ends = starts[1:] + [len(text)]
    return list(zip(starts, ends, strict=True))


def _inside(spans: tuple[tuple[int, int], ...], offset: int) -> bool:
    i = bisect.bisect_right([start for start, _ in spans], offset) - 1
    return i >= 0 and spans[i][0] < offset < spans[i][1]


# ---------------------------------------------------------------- recovery


@record
class Recovered(Record):
    """The syntax errors found, and the text with every broken statement blanked out when
    that text parses (so the caller can still report what only building the AST finds,
    such as `30x`); `text` is None when recovery stopped somewhere."""

    diagnostics: tuple[Diagnostic, ...]
    text: str | None


def recover_all(
    source: SourceFile,
    parse_stretch: ParseStretch,
    first: UnexpectedInput,
    pattern_of: PatternOf,
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
    # Start of the statement before, when blanking it did not move this error (so the
    # error is its token's own statement's, and that statement is not to blame for it).
    cleared: int | None = None


def _segment_errors(
    source: SourceFile,
    base: int,
    stop: int,
    parse_stretch: ParseStretch,
    pattern_of: PatternOf,
    exc: UnexpectedInput | None,
    budget: int,
) -> tuple[list[Diagnostic], str | None]:
    """The errors of `text[base:stop]`, and the text once they are blanked (None when
    recovery stopped early): after each error the broken statement is blanked out
    (spaces, newlines kept, so every offset, line and column stays the same) and the
    stretch is parsed again; this stops where no statement boundary can be trusted."""
    found: list[_Found] = []
    current = source
    seen: set[int] = set()
    for _ in range(MAX_RECOVERY_STEPS):
        if len(found) >= budget:
            break
        if exc is None:
            try:
                parse_stretch(current.text[base:stop])
                return [f.diagnostic for f in found], current.text
            except UnexpectedInput as raised:
                exc = raised
        located = error_location(current.text, base, exc)
        if located is None:
            diagnostic = describe(Stretch(current, base, stop), exc, pattern_of)
            found.append(_Found(diagnostic, at=stop, start=stop, before=current, line_before=False))
            break
        at, anchor = located
        if found and found[-1].at == at and found[-1].line_before:
            # Blanking the statement before did not move the error: the token's own
            # statement is the broken one (`= 5` on a line of its own), already reported.
            current = found[-1].before
            region = statement_region(current.text, base, stop, at, at)
            found[-1].cleared = found[-1].start
            found[-1].start, found[-1].line_before = (region or (stop,))[0], False
            found[-1].diagnostic = describe_own(Stretch(current, base, stop), exc, pattern_of)
        else:
            blamed = statement_region(current.text, base, stop, anchor, at)
            region, restored, own = _region_after_undo(found, current, base, stop, anchor, at)
            stretch = Stretch(current, base, stop)
            diagnostic = (describe_own if own else describe)(stretch, exc, pattern_of)
            anchor = at if own else anchor
            start = (region or (stop,))[0]
            found.append(
                _Found(
                    diagnostic,
                    at,
                    start,
                    restored,
                    line_before=anchor != at,
                    cleared=blamed[0] if own and blamed else None,
                )
            )
            current = restored
        if region is None:
            break
        current = SourceFile(source.name, blank(current.text, *region))
        exc = None
        if not _first_visit(seen, current, found):
            break
    return [f.diagnostic for f in found], None


def _first_visit(seen: set[int], current: SourceFile, found: list[_Found]) -> bool:
    """False when recovery is back where it was before (the same text, the same errors
    pending): blanking and putting back statements went round a circle, and would again.
    (`state { t }` then a stray `"`: each blanking blames the other statement.)"""
    pending = tuple((f.at, f.start, f.line_before, f.before.text) for f in found)
    state = hash((current.text, pending))
    if state in seen:
        return False
    seen.add(state)
    return True


def _region_after_undo(
    found: list[_Found], current: SourceFile, base: int, stop: int, anchor: int, at: int
) -> tuple[tuple[int, int] | None, SourceFile, bool]:
    """The region to blank for an error at `at` (blamed on `anchor`), the text to blank
    it in, and whether the error is its token's own statement's. An error before the
    statements blanked last means those were the rest of this unfinished one (`x: int =`,
    then `y: str`): their errors were not their own, so they are dropped and their
    statements put back — unless the statement blamed is one already cleared (blanking it
    did not move an error after it, `prompt "p"` then `edge a -> b` in an agent): then it
    is not to blame for this error either, and the token's own statement is the broken
    one (`edge c -> END` on the next line)."""
    region = statement_region(current.text, base, stop, anchor, at)
    if region is None or not found or region[0] >= found[-1].start:
        return region, current, False
    if anchor != at and any(f.cleared == region[0] for f in found):
        return statement_region(current.text, base, stop, at, at), current, True
    while found and region[0] < found[-1].start:
        current = found.pop().before
    return statement_region(current.text, base, stop, anchor, anchor), current, False


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
    last_end = scan(text, base, at).last_end
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


def _statement_block(text: str, base: int, anchor: int) -> int | None:
    """The `{` of the innermost statement block open at `anchor`."""
    stack: list[int] = []
    for at, kind, _ in lexemes(text, base, anchor + 1):
        if kind == "bracket":
            track_bracket(text, at, stack)
    for opener in reversed(stack):
        if text[opener] == "{" and first_word(text, opener) in STATEMENT_BLOCKS:
            return opener
    return None


def _statement_start(text: str, block: int, anchor: int) -> int | None:
    """The last line start directly inside `block` (not nested deeper) at or before
    `anchor`: where the broken statement begins."""
    stack: list[int] = []
    start = None
    for at, kind, first in lexemes(text, block + 1, anchor + 1):
        if first and not stack and not (kind == "bracket" and text[at] in OPENER):
            start = at
        if kind == "bracket":
            track_bracket(text, at, stack)
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
    for pos, kind, first in lexemes(text, start, stop):
        if kind == "bracket" and text[pos] in OPENER and not stack:
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
            track_bracket(text, pos, stack)
    return None


__all__ = ["MAX_SYNTAX_ERRORS", "Recovered", "recover_all"]
