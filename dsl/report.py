"""Diagnostics → text: human (rustc/Elm style), short (one line each) and JSON.

Input: diagnostics and the `SourceFile`s they point into (by file name). Output: text
(or a JSON-ready object). Colour only when asked (the CLI asks on a TTY). The human form:

    error[unknown-node]: edge target `answr` is not a node in graph `support`
      --> examples/support.agent:14:20
       |
    14 |   edge classify -> answr when route == "answer"
       |                    ^^^^^ unknown node
       |
       = help: did you mean `answer`?

A label on a span of several lines is underlined on its first line only. Columns are
1-based code points; the JSON form also carries UTF-8 byte offsets.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .astclass import Record, record
from .diagnostics import Diagnostic, Label, Severity
from .source import Pos, SourceFile, Span

JSON_SCHEMA_VERSION = 1
DEFAULT_WIDTH = 100
_TAB = "    "


# ---------------------------------------------------------------- colour


@record
class _Style(Record):
    on: bool

    def paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on and text else text


_SEVERITY_COLOUR = {Severity.ERROR: "1;31", Severity.WARNING: "1;33", Severity.NOTE: "1;36"}
_GUTTER = "1;34"
_SECONDARY = "1;34"


# ---------------------------------------------------------------- human


def render_human(
    diagnostics: Iterable[Diagnostic],
    sources: Mapping[str, SourceFile],
    color: bool = False,
    width: int = DEFAULT_WIDTH,
) -> str:
    """Every diagnostic as a snippet with carets, then one summary line per file."""
    items = list(diagnostics)
    style = _Style(color)
    blocks = [_render_one(d, sources, style, width) for d in items]
    summary = summary_lines(items, style)
    return "\n".join(blocks + summary) + ("\n" if blocks or summary else "")


def _render_one(d: Diagnostic, sources: Mapping[str, SourceFile], style: _Style, width: int) -> str:
    colour = _SEVERITY_COLOUR[d.severity]
    head = style.paint(f"{d.severity.value}[{d.code}]", colour) + style.paint(f": {d.message}", "1")
    labels = [(d.primary, True)] + [(label, False) for label in d.secondary]
    gutter = max(len(str(label.span.start.line)) for label, _ in labels)
    pad = " " * gutter
    lines = [head]
    for index, file in enumerate(_files_in_order(labels)):
        arrow = "-->" if index == 0 else ":::"
        first = next(label for label, _ in labels if label.span.file == file).span
        lines.append(
            f"{pad}{style.paint(arrow, _GUTTER)} {file}:{first.start.line}:{first.start.col}"
        )
        source = sources.get(file)
        if source is not None:
            file_labels = [(lb, p) for lb, p in labels if lb.span.file == file]
            lines.extend(_snippet(source, file_labels, gutter, style, colour, width))
    lines.extend(_footer(d, gutter, style))
    return "\n".join(lines) + "\n"


def _files_in_order(labels: Sequence[tuple[Label, bool]]) -> list[str]:
    files: list[str] = []
    for label, _ in labels:
        if label.span.file not in files:
            files.append(label.span.file)
    return files


def _snippet(
    source: SourceFile,
    labels: list[tuple[Label, bool]],
    gutter: int,
    style: _Style,
    colour: str,
    width: int,
) -> list[str]:
    bar = style.paint(" " * gutter + " |", _GUTTER)
    out = [bar]
    by_line: dict[int, list[tuple[Label, bool]]] = {}
    for label, primary in labels:
        by_line.setdefault(label.span.start.line, []).append((label, primary))
    previous = None
    for line in sorted(by_line):
        if previous is not None and line > previous + 1:
            out.append(style.paint("...", _GUTTER))
        out.extend(_annotated_line(source, line, by_line[line], gutter, style, colour, width))
        previous = line
    return out


def _annotated_line(
    source: SourceFile,
    line: int,
    labels: list[tuple[Label, bool]],
    gutter: int,
    style: _Style,
    colour: str,
    width: int,
) -> list[str]:
    text = source.line_text(line)
    shown, cut = _window(text, min(lb.span.start.col for lb, _ in labels), width)
    number = style.paint(f"{line:>{gutter}} |", _GUTTER)
    out = [f"{number} {shown}".rstrip()]
    for label, primary in sorted(labels, key=lambda item: not item[1]):
        start, length = _underline(text, label.span, line, cut)
        mark = ("^" if primary else "-") * length
        note = f" {label.text}" if label.text else ""
        painted = style.paint(mark + note, colour if primary else _SECONDARY)
        out.append(f"{style.paint(' ' * gutter + ' |', _GUTTER)} {' ' * start}{painted}".rstrip())
    return out


def _window(text: str, col: int, width: int) -> tuple[str, int]:
    """The visible part of a long line around `col`: (text shown, code points cut)."""
    text = text.replace("\t", _TAB)
    if _display_width(text) <= width:
        return text, 0
    cut = max(0, min(col - 1 - width // 3, len(text) - width + 3))
    shown = text[cut : cut + width - 3] if cut == 0 else "..." + text[cut : cut + width - 6]
    return shown + "...", cut


def _underline(text: str, span: Span, line: int, cut: int) -> tuple[int, int]:
    """(display column where the carets start, how many) for `span` on its first line."""
    start = span.start.col - 1
    if span.end.line == line:
        end = span.end.col - 1
    else:
        end = len(text)
    prefix = text[:start].replace("\t", _TAB)
    marked = text[start : max(start, end)].replace("\t", _TAB)
    shift = 3 if cut else 0
    begin = max(0, _display_width(prefix) - cut + shift)
    return begin, max(1, _display_width(marked))


def _display_width(text: str) -> int:
    if text.isascii():
        return len(text)
    return sum(
        2 if unicodedata.east_asian_width(ch) in "WF" else 0 if unicodedata.combining(ch) else 1
        for ch in text
    )


def _footer(d: Diagnostic, gutter: int, style: _Style) -> list[str]:
    if not d.notes and d.help is None:
        return []
    pad = " " * gutter
    out = [style.paint(f"{pad} |", _GUTTER)]
    out.extend(
        f"{pad} {style.paint('=', _GUTTER)} {style.paint('note', '1')}: {n}" for n in d.notes
    )
    if d.help is not None:
        out.append(f"{pad} {style.paint('=', _GUTTER)} {style.paint('help', '1')}: {d.help}")
    return out


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary_lines(diagnostics: Iterable[Diagnostic], style: _Style | None = None) -> list[str]:
    """`error: `f.agent` has 1 error and 1 warning`, one line per file, in file order."""
    style = style or _Style(False)
    counts: dict[str, list[int]] = {}
    for d in diagnostics:
        tally = counts.setdefault(d.span.file, [0, 0])
        if d.severity is Severity.ERROR:
            tally[0] += 1
        elif d.severity is Severity.WARNING:
            tally[1] += 1
    lines = []
    for file, (errors, warnings) in counts.items():
        parts = [_count(n, w) for n, w in ((errors, "error"), (warnings, "warning")) if n]
        if not parts:
            continue
        severity = Severity.ERROR if errors else Severity.WARNING
        head = style.paint(severity.value, _SEVERITY_COLOUR[severity])
        lines.append(f"{head}: `{file}` has {' and '.join(parts)}")
    return lines


# ---------------------------------------------------------------- short


def render_short(diagnostics: Iterable[Diagnostic]) -> str:
    """`file:line:col: error[code]: message`, one line per diagnostic."""
    return "".join(f"{d.span}: {d.severity.value}[{d.code}]: {d.message}\n" for d in diagnostics)


# ---------------------------------------------------------------- json


def render_json(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, SourceFile]
) -> dict[str, Any]:
    """A `json.dumps`-ready object (schema `version` 1):

    `{"version": 1, "diagnostics": [{"code", "severity", "message", "file", "span",
    "label", "secondary": [{"span", "label"}], "notes", "help"}], "summary": {"errors",
    "warnings"}}`; a span is `{"file", "start": {"line", "col", "offset", "byte"}, "end":
    {…}}`, with `byte` null when the file's text is not at hand.
    """
    items = list(diagnostics)
    return {
        "version": JSON_SCHEMA_VERSION,
        "diagnostics": [_json_diagnostic(d, sources) for d in items],
        "summary": {
            "errors": sum(d.severity is Severity.ERROR for d in items),
            "warnings": sum(d.severity is Severity.WARNING for d in items),
        },
    }


def _json_diagnostic(d: Diagnostic, sources: Mapping[str, SourceFile]) -> dict[str, Any]:
    return {
        "code": d.code,
        "severity": d.severity.value,
        "message": d.message,
        "file": d.span.file,
        "span": json_span(d.span, sources),
        "label": d.primary.text,
        "secondary": [
            {"span": json_span(lb.span, sources), "label": lb.text} for lb in d.secondary
        ],
        "notes": list(d.notes),
        "help": d.help,
    }


def json_span(span: Span, sources: Mapping[str, SourceFile]) -> dict[str, Any]:
    source = sources.get(span.file)

    def point(pos: Pos) -> dict[str, Any]:
        byte = source.byte_offset(pos.offset) if source is not None else None
        return {"line": pos.line, "col": pos.col, "offset": pos.offset, "byte": byte}

    return {"file": span.file, "start": point(span.start), "end": point(span.end)}


__all__ = [
    "render_human",
    "render_short",
    "render_json",
    "summary_lines",
    "json_span",
    "JSON_SCHEMA_VERSION",
    "DEFAULT_WIDTH",
]
