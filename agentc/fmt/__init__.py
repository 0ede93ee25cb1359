"""`agentc fmt`'s engine: `.agent` text → the same program in the one canonical layout.

Input: a file's text and name. Output: `Formatted` — the formatted text, or None with the
syntax diagnostics when the parser refuses the file (nothing is guessed about a broken
file). Works from the concrete syntax: the parser's tree for the code, the text between
tokens for the comments (`comments`), a layout document per rule (`layout`) printed at 100
columns (`doc`). Invariants (tests/fmt): formatting is idempotent, keeps every comment, and
the formatted file compiles to the same IR (spans aside).
"""

from __future__ import annotations

import gc
from dataclasses import dataclass

from lark.exceptions import LarkError

from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error
from ..dsl.parse import parse
from ..dsl.source import SourceFile
from ..grammar import load_parser
from .comments import comments
from .doc import render
from .layout import layout


@dataclass(frozen=True)
class Formatted:
    text: str | None  # None: refused, see diagnostics
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return self.text is not None


def format_source(text: str, filename: str = "<input>") -> Formatted:
    """The canonical layout of `text`, or the diagnostics that stop it."""
    # As in `dsl.parse`: the tree and the layout are many small acyclic objects, and the
    # cyclic collector's passes over them cost as much as the work itself on large files.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _format(text, filename)
    finally:
        if was_enabled:
            gc.enable()


def _format(text: str, filename: str) -> Formatted:
    try:
        tree = load_parser().parse(text)
    except LarkError:
        diagnostics = tuple(d for d in parse(text, filename).diagnostics if d.is_error)
        return Formatted(None, diagnostics or _unparsed(text, filename))
    try:
        return Formatted(render(layout(tree, text, comments(text))), ())
    except RecursionError:
        source = SourceFile(filename, text)
        too_deep = error(
            Code.SYNTAX,
            "the file nests brackets or expressions too deeply to format",
            source.span(0, 0),
        )
        return Formatted(None, (too_deep,))


def _unparsed(text: str, filename: str) -> tuple[Diagnostic, ...]:
    return (
        error(
            Code.SYNTAX,
            "the parser could not read this file",
            SourceFile(filename, text).span(0, 0),
        ),
    )


__all__ = ["Formatted", "format_source"]
