"""The compiler's passes, in order: the only place that sequences them.

Input: `.agent` text and its file name, or a path (read by `dsl.parse.parse_file`: UTF-8
with an optional BOM; an unreadable file is an `unreadable-file` diagnostic). Output:
`CompileResult` — the `ir.Program` (None when any error was found), every diagnostic in
file order, and every source file a diagnostic may point into (for renderers).

Order: parse (syntax errors stop here) → resolve (load used files, symbol tables) → check
(every local rule, all diagnostics collected) → lower (only without errors) → structural
graph checks on the IR (reachability, path to END; skipped when local checks failed).
Invariant: a `Program` is returned only when no diagnostic is an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import agentc.ir as ir

from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, Diagnostics
from ..dsl.parse import ParseResult, collector_paused, parse, parse_file
from ..dsl.source import SourceFile
from ..dsl.suggest import suggestion_budget
from .check import check_unit
from .check.secrets import redact
from .context import Ctx
from .lower import lower_program
from .resolve import Loader
from .structure import check_structure
from .symbols import FileUnit
from .testblocks import check_tests, missing_target, tested_path


@dataclass(frozen=True)
class CompileResult:
    program: ir.Program | None
    diagnostics: tuple[Diagnostic, ...]
    sources: Mapping[str, SourceFile]

    @property
    def ok(self) -> bool:
        return self.program is not None

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.is_error)


def compile_file(path: str | Path) -> CompileResult:
    """Read (UTF-8, a BOM allowed) and compile a file; an unreadable one is a diagnostic."""
    path = Path(path)
    with collector_paused():  # a huge good file stays linear to check too
        parsed = parse_file(path)
        if parsed.module is None:  # unreadable (a loop of symbolic links too) or broken:
            return _compile(parsed, base_dir=None)  # its diagnostics, no path to resolve
        return _compile(parsed, base_dir=path.resolve().parent)


def compile_source(
    text: str, filename: str, *, base_dir: str | Path | None = None
) -> CompileResult:
    with collector_paused():  # a huge good file stays linear to check too
        return _compile(parse(text, filename), base_dir=base_dir)


def _compile(parsed: ParseResult, *, base_dir: str | Path | None) -> CompileResult:
    # The IR is built from checked values, unvalidated (ir.trusted_build: no pydantic schema
    # is built for a check).
    with suggestion_budget(), ir.trusted_build():  # a huge broken file stays linear to check
        return _compile_checked(parsed, base_dir=base_dir)


def _compile_checked(parsed: ParseResult, *, base_dir: str | Path | None) -> CompileResult:
    filename = parsed.source.name
    sources = {filename: parsed.source}
    if parsed.module is None or any(d.is_error for d in parsed.diagnostics):
        return _result(None, list(parsed.diagnostics), sources)
    loader = Loader.new()
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    root = loader.load_root(parsed.module, parsed.source, base.resolve() / Path(filename).name)
    diagnostics = list(parsed.diagnostics) + loader.diagnostics
    sources.update(loader.sources)
    if any(d.is_error and d.code is Code.SYNTAX for d in loader.diagnostics):
        return _result(None, diagnostics, sources)
    contexts: dict[str, Ctx] = {}

    def ctx_for(unit: FileUnit) -> Ctx:
        if unit.name not in contexts:
            contexts[unit.name] = Ctx(unit, diagnostics.append)
        return contexts[unit.name]

    for unit in _units(root):
        diagnostics.extend(check_unit(ctx_for(unit)))
    if any(d.is_error for d in diagnostics):
        return _result(None, diagnostics, sources)
    program = lower_program(root, ctx_for)
    for graph in program.graphs:
        diagnostics.extend(check_structure(graph))
    diagnostics.extend(_test_checks(parsed, base, program, sources))
    failed = any(d.is_error for d in diagnostics)
    return _result(None if failed else program, diagnostics, sources)


def _test_checks(
    parsed: ParseResult, base: Path, program: ir.Program, sources: dict[str, SourceFile]
) -> list[Diagnostic]:
    """The file's `test` blocks against the tested file (`x.test.agent` tests `x.agent`)."""
    if parsed.module is None or not parsed.module.tests:
        return []
    path = base.resolve() / Path(parsed.source.name).name
    target = tested_path(path)
    if target is None:
        return list(check_tests(parsed.module.tests, program, path.name))
    if not target.is_file():
        return [missing_target(parsed.source, target, "is not there")]
    tested = compile_file(target)
    if tested.program is None:
        sources.update(tested.sources)
        return list(tested.errors) or [missing_target(parsed.source, target, "does not compile")]
    return list(check_tests(parsed.module.tests, tested.program, target.name))


def _units(root: FileUnit) -> list[FileUnit]:
    """The root and every `.agent` file it uses, each once, root first."""
    out: list[FileUnit] = []
    todo, seen = [root], set()
    while todo:
        unit = todo.pop(0)
        if id(unit) in seen:
            continue
        seen.add(id(unit))
        out.append(unit)
        todo.extend(u for u in unit.agent_files.values() if u is not None)
    return out


def _result(
    program: ir.Program | None, diagnostics: list[Diagnostic], sources: dict[str, SourceFile]
) -> CompileResult:
    ordered = Diagnostics(_dedupe(diagnostics)).sorted()
    # A refused credential is never shown, not even in the line a diagnostic quotes.
    return CompileResult(program, tuple(ordered), MappingProxyType(redact(sources, ordered)))


def _dedupe(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return list(dict.fromkeys(diagnostics))
