"""Parse: `.agent` text → `ParseResult(module | None, diagnostics, source)`.

Input: the text of one file and its name (or a path). Output: the AST when the text has
no syntax errors, and every syntax diagnostic otherwise (one per broken statement where
statements can be told apart, see `recovery.recover_all`). Invariant: for any input
text whatsoever this returns a `ParseResult`; user mistakes never escape as exceptions.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agentc.grammar import load_parser

from . import ast
from .build import AstBuilder
from .codes import Code
from .diagnostics import Diagnostic, error
from .reduce import NotParsed, TooDeep, parse_ast
from .source import SourceFile
from .tables import load_tables

if TYPE_CHECKING:
    from lark import Lark
    from lark.exceptions import UnexpectedInput

    from .syntax_errors import PatternOf

# Lark itself (its parser, exceptions and error recovery) is imported only for a syntax
# error or a very deep file: a file that parses needs only the cached tables (dsl/tables.py).


@dataclass(frozen=True)
class ParseResult:
    """`module` is None exactly when some diagnostic is an error."""

    module: ast.Module | None
    diagnostics: tuple[Diagnostic, ...]
    source: SourceFile

    @property
    def ok(self) -> bool:
        return self.module is not None


_LITERALS: dict[str, str | None] = {}


def _pattern_of(parser: Lark) -> PatternOf:
    """Terminal name → its literal text (`RBRACE` → `}`), None for patterns."""
    from lark.lexer import PatternStr

    if not _LITERALS:
        for term in parser.terminals:
            pattern = term.pattern
            _LITERALS[term.name] = pattern.value if isinstance(pattern, PatternStr) else None
    return lambda name: _LITERALS.get(name)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic collector waits while the body runs (re-entrant).

    Parsing and compiling allocate many small acyclic objects; the collector's passes
    over them cost as much as the work itself on large files, and more the larger the
    file (each full pass walks everything built so far), so it waits until we are done.
    A caller that goes on to compile pauses it around both, so the AST, freed by
    reference counting once compiled, is never walked at all.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def parse(text: str, filename: str = "<input>") -> ParseResult:
    """Parse one file's text; never raises for any text."""
    with collector_paused():
        return _parse(text, filename)


def _parse(text: str, filename: str) -> ParseResult:
    source = SourceFile(filename, text)
    built = _build(source)
    if built is not None:
        return built
    from lark.exceptions import LarkError, UnexpectedInput

    parser = load_parser()
    try:  # a syntax error: Lark's own tree path raises the exception recovery reads
        parser.parse(text)
    except UnexpectedInput as exc:
        return _recovered(source, parser, exc)
    except LarkError as exc:  # defensive: any other Lark failure is still a diagnostic
        return _failed(source, f"the parser could not read this file ({type(exc).__name__})")
    return _failed(source, "the parser could not read this file")  # both paths must agree


def _recovered(source: SourceFile, parser: Lark, exc: UnexpectedInput) -> ParseResult:
    """Syntax errors, plus what building the rest finds (`30x`, a bad escape) when the
    text parses once the broken statements are blanked out."""
    from .recovery import recover_all

    recovered = recover_all(source, parser.parse, exc, _pattern_of(parser))
    diagnostics = recovered.diagnostics
    if recovered.text is not None:
        built = _build(SourceFile(source.name, recovered.text))
        if built is not None:
            diagnostics = tuple(
                sorted(diagnostics + built.diagnostics, key=lambda d: d.span.start.offset)
            )
    return ParseResult(None, diagnostics, source)


def _build(source: SourceFile) -> ParseResult | None:
    """The parse of a text without syntax errors; None when it has some."""
    builder = AstBuilder(source)
    try:
        try:
            module = parse_ast(load_tables(), source.text, builder)
        except TooDeep:  # very deep nesting: the tree walk decides, as it always has
            builder = AstBuilder(source)
            module = _tree_walk(builder, source.text)
    except RecursionError:
        return _failed(source, "the file nests brackets or expressions too deeply")
    except NotParsed:
        return None
    diagnostics = tuple(builder.diagnostics)
    failed = any(d.is_error for d in diagnostics)
    return ParseResult(None if failed else module, diagnostics, source)


def _tree_walk(builder: AstBuilder, text: str) -> ast.Module:
    """The AST from Lark's own tree; `NotParsed` on a syntax error."""
    from lark.exceptions import LarkError

    try:
        tree = load_parser().parse(text)
    except LarkError:
        raise NotParsed from None
    return builder.transform(tree)


def _failed(source: SourceFile, message: str) -> ParseResult:
    return ParseResult(None, (error(Code.SYNTAX, message, source.span(0, 0)),), source)


def parse_file(path: str | Path) -> ParseResult:
    """Read (UTF-8, BOM allowed) and parse a file; an unreadable file is a diagnostic."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        source = SourceFile(name, "")
        reason = exc.strerror or type(exc).__name__
        return ParseResult(
            None,
            (error(Code.UNREADABLE, f"cannot read `{name}`: {reason.lower()}", source.span(0, 0)),),
            source,
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return undecodable(name, data, exc)
    return parse(text, name)


def undecodable(name: str, data: bytes, exc: UnicodeDecodeError) -> ParseResult:
    """The result for a file that is not UTF-8: one diagnostic at the first bad byte."""
    source = SourceFile(name, data.decode("utf-8", errors="replace"))
    at = len(data[: exc.start].decode("utf-8", errors="replace"))
    diagnostic = error(
        Code.UNREADABLE,
        f"`{name}` is not valid UTF-8",
        source.span(at, at + 1),
        f"byte 0x{data[exc.start]:02x} cannot start a UTF-8 character",
        help="save the file as UTF-8",
    )
    return ParseResult(None, (diagnostic,), source)


__all__ = ["ParseResult", "collector_paused", "parse", "parse_file", "undecodable"]
