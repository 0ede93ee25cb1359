"""Where things are, in the editor's terms: spans ↔ LSP ranges, URIs ↔ paths.

Input: our `Span`s (1-based lines, code-point columns, code-point offsets) and the text they
point into. Output: LSP `Range`s and `Position`s (0-based lines, UTF-16 code units, the
protocol's default encoding), and back. A character outside the Basic Multilingual Plane
is one code point but two UTF-16 units; both directions account for it.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp

from ..compiler.paths import PRELUDE_NAME, stdlib_file
from ..dsl.source import Pos, SourceFile, Span


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def position(source: SourceFile, pos: Pos) -> lsp.Position:
    line_text = source.line_text(pos.line)
    return lsp.Position(line=pos.line - 1, character=_utf16_len(line_text[: pos.col - 1]))


def span_range(source: SourceFile, span: Span) -> lsp.Range:
    return lsp.Range(start=position(source, span.start), end=position(source, span.end))


def offset_of(source: SourceFile, where: lsp.Position) -> int:
    """The code-point offset of an LSP position (clamped into the line)."""
    start = source.pos(0)
    lines = source.text.split("\n")
    line = min(max(where.line, 0), len(lines) - 1) if lines else 0
    offset = sum(len(t) + 1 for t in lines[:line]) + start.offset
    units = 0
    for i, ch in enumerate(lines[line] if lines else ""):
        if units >= where.character:
            return offset + i
        units += 2 if ord(ch) > 0xFFFF else 1
    return offset + (len(lines[line]) if lines else 0)


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def path_to_uri(path: Path) -> str:
    return path.resolve().as_uri()


def file_uri(span_file: str, current: str, current_uri: str) -> str | None:
    """The URI of the file a span points into: this document, the prelude, or a file on
    disk (the names spans carry are the paths the compiler was given)."""
    if span_file == current:
        return current_uri
    if span_file == PRELUDE_NAME:
        return path_to_uri(stdlib_file("prelude.agent"))
    path = Path(span_file)
    return path_to_uri(path) if path.is_absolute() and path.is_file() else None
