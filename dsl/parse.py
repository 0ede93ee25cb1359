"""Parse: `.agent` text → `ParseResult(module | None, diagnostics, source)`.

Input: the text of one file and its name (or a path). Output: the AST when the text has
no syntax errors, and every syntax diagnostic otherwise (one per broken statement where
statements can be told apart, see `recovery.recover_all`). Invariant: for any input
text whatsoever this returns a `ParseResult`; user mistakes never escape as exceptions.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedInput
from lark.lexer import PatternStr

from agentc.grammar import load_parser

from . import ast
from .build import build_module
from .codes import Code
from .diagnostics import Diagnostic, error
from .recovery import recover_all
from .source import SourceFile
from .syntax_errors import PatternOf


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
    if not _LITERALS:
        for term in parser.terminals:
            pattern = term.pattern
            _LITERALS[term.name] = pattern.value if isinstance(pattern, PatternStr) else None
    return lambda name: _LITERALS.get(name)


def parse(text: str, filename: str = "<input>") -> ParseResult:
    """Parse one file's text; never raises for any text."""
    # Parsing allocates many small acyclic objects; the cyclic collector's passes over
    # them cost as much as the parse itself on large files, so it waits until we are done.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _parse(text, filename)
    finally:
        if was_enabled:
            gc.enable()


def _parse(text: str, filename: str) -> ParseResult:
    source = SourceFile(filename, text)
    parser = load_parser()
    try:
        tree = parser.parse(text)
    except UnexpectedInput as exc:
        return _recovered(source, parser, exc)
    except LarkError as exc:  # defensive: any other Lark failure is still a diagnostic
        return _failed(source, f"the parser could not read this file ({type(exc).__name__})")
    return _build(tree, source)


def _recovered(source: SourceFile, parser: Lark, exc: UnexpectedInput) -> ParseResult:
    """Syntax errors, plus what building the rest finds (`30x`, a bad escape) when the
    text parses once the broken statements are blanked out."""
    recovered = recover_all(source, parser.parse, exc, _pattern_of(parser))
    diagnostics = recovered.diagnostics
    if recovered.text is not None:
        try:
            tree = parser.parse(recovered.text)
        except LarkError:
            tree = None
        if tree is not None:
            built = _build(tree, SourceFile(source.name, recovered.text)).diagnostics
            diagnostics = tuple(sorted(diagnostics + built, key=lambda d: d.span.start.offset))
    return ParseResult(None, diagnostics, source)


def _build(tree: Tree[Token], source: SourceFile) -> ParseResult:
    try:
        module, diagnostics = build_module(tree, source)
    except RecursionError:
        return _failed(source, "the file nests brackets or expressions too deeply")
    except LarkError as exc:  # a VisitError wrapping RecursionError raised in a callback
        if isinstance(getattr(exc, "orig_exc", None), RecursionError):
            return _failed(source, "the file nests brackets or expressions too deeply")
        raise
    failed = any(d.is_error for d in diagnostics)
    return ParseResult(None if failed else module, diagnostics, source)


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


__all__ = ["ParseResult", "parse", "parse_file", "undecodable"]
