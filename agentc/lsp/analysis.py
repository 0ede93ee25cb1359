"""One open document, checked: `agentc check`'s diagnostics in LSP form, plus the index.

Input: a document's URI and text. Output: `Analysis` — the compile result (the very
diagnostics `agentc check` prints: the same pipeline, the same base directory for `use`s),
the AST and name index of the last text that parsed, and the diagnostics as LSP data
(ranges, code with a link to its section of docs/diagnostics.md, secondary labels as
related information, severity). Invariant: nothing the file uses is imported or run (the
compiler reads Python with `ast`, as in `agentc check`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types as lsp

from ..compiler.pipeline import CompileResult, compile_source
from ..compiler.resolve import prelude_unit
from ..dsl import ast
from ..dsl.codes import Severity
from ..dsl.diagnostics import Diagnostic
from ..dsl.parse import parse
from ..fmt.fixes import Fix, fixes
from .index import Index, build_index
from .positions import file_uri, path_to_uri, span_range, uri_to_path

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.NOTE: lsp.DiagnosticSeverity.Information,
}
_HERE = Path(__file__).resolve().parent.parent
# an installed agentc ships docs/ as `agentc/docs/`; a checkout has it beside `agentc/`
_DOCS = next(
    (d / "diagnostics.md" for d in (_HERE / "docs", _HERE.parent / "docs") if d.is_dir()), None
)


@dataclass(frozen=True)
class Outline:
    """The AST and index of this text, else of it without its broken lines, else of the
    last text that parsed: names stay known while a line is being typed."""

    module: ast.Module | None
    index: Index


class Analysis:
    """Diagnostics at once (what an edit waits for); the outline when a request needs it."""

    def __init__(
        self, uri: str, filename: str, result: CompileResult, previous: Analysis | None
    ) -> None:
        self.uri = uri
        self.filename = filename  # the name spans carry: the path, or the URI if unsaved
        self.result = result
        self.source = result.sources[filename]
        # At most one link back, to an analysis whose outline is made (or to none).
        self._previous = previous if previous is None or previous._made else previous._previous
        self._outline: Outline | None = None

    @property
    def _made(self) -> bool:
        return self._outline is not None

    @property
    def outline(self) -> Outline:
        if self._outline is None:
            self._outline = self._make_outline()
            self._previous = None
        return self._outline

    @property
    def module(self) -> ast.Module | None:
        return self.outline.module

    @property
    def index(self) -> Index:
        return self.outline.index

    def _make_outline(self) -> Outline:
        parsed = parse(self.source.text, self.filename)
        module = parsed.module or _without_broken_lines(
            self.source.text, parsed.diagnostics, self.filename
        )
        if module is None and self._previous is not None:
            return self._previous.outline
        if module is None:
            module = ast.Module(version=None, items=(), span=self.source.span(0, 0))
        return Outline(module, build_index(module, prelude_unit().module))

    @property
    def base_dir(self) -> Path:
        path = uri_to_path(self.uri)
        return path.parent if path is not None else Path.cwd()

    def fixes(self) -> list[Fix]:
        return fixes(self.result.diagnostics, self.source)


def analyse(uri: str, text: str, previous: Analysis | None = None) -> Analysis:
    path = uri_to_path(uri)
    filename = str(path) if path is not None else uri
    base_dir = path.parent if path is not None else Path.cwd()
    result = compile_source(text, filename, base_dir=base_dir)
    return Analysis(uri, filename, result, previous)


def _without_broken_lines(
    text: str, diagnostics: tuple[Diagnostic, ...], filename: str
) -> ast.Module | None:
    """The AST of the text with each line a syntax error is on blanked out (offsets kept),
    so names stay known while a line is being typed."""
    lines = text.split("\n")
    for d in diagnostics:
        for n in range(d.span.start.line - 1, min(d.span.end.line, len(lines))):
            lines[n] = " " * len(lines[n])
    return parse("\n".join(lines), filename).module


def doc_link(code: str) -> lsp.CodeDescription | None:
    if _DOCS is None:
        return None
    return lsp.CodeDescription(href=f"{path_to_uri(_DOCS)}#{code}")


def lsp_diagnostics(a: Analysis) -> list[lsp.Diagnostic]:
    return [_convert(a, d) for d in a.result.diagnostics]


def _convert(a: Analysis, d: Diagnostic) -> lsp.Diagnostic:
    here = d.span.file == a.filename
    source = a.source if here else a.result.sources.get(d.span.file)
    if here:
        where = span_range(a.source, d.span)
        message = d.message
    else:  # a mistake in a file this one uses: shown at the top, with its place
        where = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(0, 0))
        message = f"{d.span}: {d.message}"
    lines = [message]
    if d.primary.text:
        lines.append(d.primary.text)
    lines += [f"note: {n}" for n in d.notes]
    if d.help:
        lines.append(f"help: {d.help}")
    related = []
    for label in (d.primary,) * (not here) + d.secondary:
        label_source = a.result.sources.get(label.span.file) or source
        uri = file_uri(label.span.file, a.filename, a.uri)
        if uri is None or label_source is None:
            continue
        location = lsp.Location(uri=uri, range=span_range(label_source, label.span))
        related.append(lsp.DiagnosticRelatedInformation(location, label.text or d.message))
    return lsp.Diagnostic(
        range=where,
        message="\n".join(lines),
        severity=_SEVERITY[d.severity],
        code=d.code.value,
        code_description=doc_link(d.code.value),
        source="agentc",
        related_information=related or None,
    )
