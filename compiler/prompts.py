"""Prompt templates of graph model nodes: `"Write a joke about {topic}"`.

Input: a string literal (`prompt:` or `input:` of a `model(…)` node) and the file it was
written in. Output: `PromptTemplate` — the literal text and `ir.TemplateField`s in order
(`{{` and `}}` are literal braces), each field with the span of its placeholder in the
file — and a diagnostic per malformed placeholder. A placeholder is `{name}` or
`{name.key…}`, names being identifiers; Python's other format forms (`{0}`, `{x!r}`,
`{x:>4}`) are refused, so a template means the same to every reader.

Spans: the template means what the string's value says (escapes decoded, a triple-quoted
string dedented), but a diagnostic must point into the file. Braces are never produced
by dedenting, so the n-th brace of the value is the n-th brace of the literal as written;
when an escape made a brace (`\\u007b`) the counts differ and every placeholder is
located at the whole string instead.
Invariant: pure; the AST is only read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import agentc.ir as ir

from ..dsl import ast
from ..dsl.astclass import Record, record
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, error
from ..dsl.source import SourceFile, Span

_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_HELP = "write `{channel}` or `{channel.key}`, and `{{` / `}}` for a literal brace"


@record
class Placeholder(Record):
    """One `{name.key}`: the field, the placeholder's span, and each part's span."""

    field: ir.TemplateField
    span: Span
    part_spans: tuple[Span, ...]  # name, then each key (the placeholder's span if unknown)


@dataclass
class PromptTemplate:
    parts: list[str | ir.TemplateField] = field(default_factory=list)
    placeholders: list[Placeholder] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)

    def to_ir(self, span: ir.SourceSpan) -> ir.Template:
        return ir.Template(parts=list(self.parts), span=span)


class _Locator:
    """Value index of a brace → its span in the file (or the whole string)."""

    def __init__(self, lit: ast.StringLit, source: SourceFile | None) -> None:
        self.lit, self.source = lit, source
        self.raw: list[int] = []
        self.value: dict[int, int] = {}
        if source is None or source.name != lit.span.file:
            return
        start = lit.span.start.offset
        text = source.text[start : lit.span.end.offset]
        raw = [start + i for i, ch in enumerate(text) if ch in "{}"]
        cooked = [i for i, ch in enumerate(lit.value) if ch in "{}"]
        if len(raw) == len(cooked):
            self.raw = raw
            self.value = {v: n for n, v in enumerate(cooked)}

    def span(self, first: int, last: int) -> Span:
        """The span from the brace at value index `first` to the one at `last`."""
        if first not in self.value or last not in self.value or self.source is None:
            return self.lit.span
        a, b = self.raw[self.value[first]], self.raw[self.value[last]]
        return self.source.span(a, b + 1)

    def inner(self, first: int, last: int, inner: str) -> tuple[Span, ...] | None:
        """Spans of the dotted parts between two braces, if written as the value reads."""
        if first not in self.value or self.source is None:
            return None
        a = self.raw[self.value[first]] + 1
        if self.source.text[a : a + len(inner)] != inner:
            return None  # an escape inside the braces: offsets do not line up
        spans, at = [], a
        for part in inner.split("."):
            spans.append(self.source.span(at, at + len(part)))
            at += len(part) + 1
        return tuple(spans)


def parse_template(lit: ast.StringLit, source: SourceFile | None) -> PromptTemplate:
    out = PromptTemplate()
    where = _Locator(lit, source)
    text, buf, i = lit.value, [], 0
    while i < len(text):
        ch = text[i]
        if text.startswith("{{", i) or text.startswith("}}", i):
            buf.append(ch)
            i += 2
        elif ch == "{":
            end = text.find("}", i + 1)
            if end < 0:
                out.problems.append(_bad("`{` is never closed", where.span(i, i)))
                buf.append(text[i:])
                break
            inner = text[i + 1 : end]
            if _FIELD.fullmatch(inner) is None:
                out.problems.append(_bad(_what(inner), where.span(i, end)))
            else:
                _flush(out, buf)
                _placeholder(out, where, inner, i, end)
            i = end + 1
        elif ch == "}":
            out.problems.append(_bad("`}` closes no placeholder", where.span(i, i)))
            i += 1
        else:
            buf.append(ch)
            i += 1
    _flush(out, buf)
    return out


def _placeholder(out: PromptTemplate, where: _Locator, inner: str, i: int, end: int) -> None:
    name, *path = inner.split(".")
    span = where.span(i, end)
    parts = where.inner(i, end, inner) or (span,) * (1 + len(path))
    f = ir.TemplateField(name=name, path=path)
    out.parts.append(f)
    out.placeholders.append(Placeholder(f, span, parts))


def _flush(out: PromptTemplate, buf: list[str]) -> None:
    if buf:
        out.parts.append("".join(buf))
        buf.clear()


def _what(inner: str) -> str:
    if not inner.strip():
        return "an empty placeholder `{}`"
    shown = inner if len(inner) <= 24 else inner[:21] + "..."
    return f"`{{{shown}}}` is not a placeholder"


def _bad(message: str, span: Span) -> Diagnostic:
    return error(
        Code.BAD_TEMPLATE, message, span, "expected {channel} or {channel.key}", help=_HELP
    )
