"""Diagnostics: user mistakes as data.

A `Diagnostic` has a stable kebab-case code, a severity, a headline, a primary label (span
plus what is wrong *here*), optional secondary labels, notes (facts) and one `help` (an
imperative sentence). Passes return them; they never raise for a user's mistake. Every code
is a member of `codes.Code` (one table: slug, summary, severity) and documented in
`docs/diagnostics.md`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .astclass import Record, record
from .codes import Code, Severity
from .source import Span


@record
class Label(Record):
    span: Span
    text: str | None = None


@record
class Diagnostic(Record):
    code: Code
    severity: Severity
    message: str
    primary: Label
    secondary: tuple[Label, ...] = ()
    notes: tuple[str, ...] = ()
    help: str | None = None

    @property
    def span(self) -> Span:
        return self.primary.span

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


def error(
    code: Code,
    message: str,
    span: Span,
    label: str | None = None,
    *,
    secondary: Iterable[Label] = (),
    notes: Iterable[str] = (),
    help: str | None = None,
) -> Diagnostic:
    return Diagnostic(
        code, Severity.ERROR, message, Label(span, label), tuple(secondary), tuple(notes), help
    )


def warning(
    code: Code,
    message: str,
    span: Span,
    label: str | None = None,
    *,
    secondary: Iterable[Label] = (),
    notes: Iterable[str] = (),
    help: str | None = None,
) -> Diagnostic:
    return Diagnostic(
        code, Severity.WARNING, message, Label(span, label), tuple(secondary), tuple(notes), help
    )


@dataclass
class Diagnostics:
    """An ordered, appendable collection of diagnostics."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        self.items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.items.extend(diagnostics)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.items)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.WARNING]

    def sorted(self) -> list[Diagnostic]:
        """File order: by file, then offset, errors before warnings at one place."""
        return sorted(
            self.items,
            key=lambda d: (d.span.file, d.span.start.offset, d.severity is not Severity.ERROR),
        )

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)
