"""Name resolution: load what a file `use`s and build its symbol table.

Input: a parsed root `ast.Module`. Output: `FileUnit`s (symbols.py) for the root, every
`.agent` file it uses (recursively) and the prelude, plus diagnostics: unknown, duplicate
and reserved names (one nearest-name suggestion), `use` targets that cannot be found,
Python files that do not parse, and cycles between `.agent` files. Invariants: no Python is
imported (pyscan reads files with `ast`); the prelude is parsed once per process; no used
file outside the project root is read, and no text of one that is not agent text is shown.

Reference helpers (`python_ref`, `graph_ref`, `declaration`) answer "what does this dotted
name mean here" for the later passes, each returning the target or a diagnostic.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from agentc.version import __version__

from ..dsl import ast
from ..dsl.astclass import Record, record
from ..dsl.astjson import cached_parse
from ..dsl.codes import Code
from ..dsl.diagnostics import Diagnostic, Label, error
from ..dsl.parse import ParseResult, parse, undecodable
from ..dsl.source import SourceFile, Span
from . import pyscan
from .paths import (
    PRELUDE_NAME,
    inside,
    not_agent_text,
    outside_project,
    project_root,
    python_unreadable,
    resolved,
    starts_like_agent_text,
    stdlib_file,
    unreadable,
)
from .pyscan import PyModule
from .suggest import did_you_mean
from .symbols import FileUnit, Symbol, SymbolKind, item_kind, use_alias
from .use_options import mcp_options, mcp_url_problem, misplaced_options

RESERVED = frozenset({"START", "END", "__start__", "__end__"})

Parse = Callable[[str, str], ParseResult]  # dsl.parse.parse


@lru_cache(maxsize=1)
def prelude_unit() -> FileUnit:
    """The stdlib prelude, parsed and tabled once per process.

    Its AST comes from the user cache when this exact prelude was parsed before by this
    agentc (dsl/astjson.py): loading the JSON costs a fraction of parsing the text, and
    every `agentc check` pays for the prelude.
    """
    text = stdlib_file("prelude.agent").read_text(encoding="utf-8")
    module, source, diagnostics = cached_parse(text, PRELUDE_NAME, __version__, parse)
    if module is None or any(d.is_error for d in diagnostics):
        first = next(d for d in diagnostics if d.is_error)
        raise RuntimeError(f"the stdlib prelude does not parse: {first.span}: {first.message}")
    unit = FileUnit(PRELUDE_NAME, None, source, module)
    _table(unit, lambda d: None)
    return unit


@dataclass
class Loader:
    """Loads a root file and everything it uses; collects diagnostics and sources."""

    diagnostics: list[Diagnostic]
    sources: dict[str, SourceFile]
    parse: Parse
    _stack: list[Path]
    _loaded: dict[Path, FileUnit]
    with_prelude: bool = True
    project: Path | None = None  # used files stay inside it (paths.project_root)

    @classmethod
    def new(cls, with_prelude: bool = True) -> Loader:
        return cls([], {}, parse, [], {}, with_prelude)

    def report(self, d: Diagnostic) -> None:
        self.diagnostics.append(d)

    def load_root(self, module: ast.Module, source: SourceFile, path: Path | None) -> FileUnit:
        unit = FileUnit(source.name, path, source, module)
        self.sources[source.name] = source
        if path is not None:
            self._stack.append(path.resolve())
            self.project = project_root(path.parent)
        self._fill(unit)
        return unit

    def _fill(self, unit: FileUnit) -> None:
        if self.with_prelude:
            unit.prelude = prelude_unit()
            self.sources.setdefault(PRELUDE_NAME, unit.prelude.source)
        _table(unit, self.report)
        for use in unit.items(ast.UseDecl):
            self._load_use(unit, use)

    def _load_use(self, unit: FileUnit, use: ast.UseDecl) -> None:
        alias, target = use_alias(use), use.target.value
        if not alias.isidentifier():
            self.report(
                error(
                    Code.BAD_USE,
                    f'`use "{target}"` needs a name',
                    use.target.span,
                    "the file name is not an identifier",
                    help=f'add `as name`: `use "{target}" as name`',
                )
            )
            return
        if "://" not in target and (bad := misplaced_options(use)) is not None:
            self.report(bad)
        if "://" in target:  # A10: a URL names an MCP server; nothing is connected here
            self._load_mcp(unit, use, alias)
        elif target.endswith(".agent"):
            unit.agent_files[alias] = self._load_agent(unit, use, alias)
        elif target.endswith((".py",)) or "/" not in target:
            unit.python[alias] = self._load_python(unit, use)
        else:
            self.report(
                error(
                    Code.BAD_USE,
                    f"cannot use `{target}`",
                    use.target.span,
                    "not a .py file, .agent file or dotted module",
                    help="use a Python file (`./tools.py`), an `.agent` file or "
                    "a dotted module name (`pkg.tools`)",
                )
            )

    def _load_mcp(self, unit: FileUnit, use: ast.UseDecl, alias: str) -> None:
        target = use.target.value
        problem = mcp_url_problem(target)
        if problem is None:
            unit.mcp[alias] = target
            for bad in mcp_options(use)[1]:
                self.report(bad)
            return
        self.report(
            error(
                Code.MCP_URL,
                f"cannot use `{target}` as an MCP server",
                use.target.span,
                problem,
                notes=(
                    "a server named by a string must be an http(s) URL, so "
                    "a string can never launch a local program (MCP servers, A10)",
                ),
                help="serve the tools over streamable HTTP and write "
                '`use "http://127.0.0.1:PORT/mcp" as name`',
            )
        )

    def _outside(self, use: ast.UseDecl, path: Path | None) -> bool:
        """Report a used file that resolves outside the project; it is never read."""
        if path is None or self.project is None or inside(path, self.project):
            return False
        self.report(outside_project(use, self.project))
        return True

    def _load_python(self, unit: FileUnit, use: ast.UseDecl) -> PyModule | None:
        target = use.target.value
        is_file = pyscan.is_file_target(target)
        if is_file and self._outside(use, resolved(unit.base_dir / target)):
            return None  # refused whether or not it exists: nothing is said of a file outside
        found = pyscan.locate(target, unit.base_dir)
        if found is None:
            self.report(_not_found(use, unit.base_dir))
            return None
        # A dotted name found beside this file stays in the project too; installed code need not.
        if not is_file and found.is_relative_to(unit.base_dir):
            if self._outside(use, resolved(found)):
                return None
        try:
            return pyscan.scan_source(found.read_text(encoding="utf-8"), str(found))
        except (OSError, UnicodeDecodeError, RecursionError, MemoryError, SyntaxError) as exc:
            self.report(python_unreadable(use, exc))
        return None

    def _load_agent(self, unit: FileUnit, use: ast.UseDecl, alias: str) -> FileUnit | None:
        path = resolved(unit.base_dir / use.target.value)
        if path is None:
            self.report(unreadable(use, "the path is a loop of symbolic links"))
            return None
        if self._outside(use, path):
            return None
        if path in self._stack:
            chain = " → ".join(p.name for p in self._stack[self._stack.index(path) :])
            self.report(
                error(
                    Code.IMPORT_CYCLE,
                    f"`{use.target.value}` is already being loaded",
                    use.target.span,
                    "this use closes a cycle",
                    notes=(f"cycle: {chain} → {path.name}",),
                    help="move the shared declarations into a third file",
                )
            )
            return None
        if path in self._loaded:
            return self._loaded[path]
        if not path.is_file():
            self.report(_not_found(use, unit.base_dir))
            return None
        try:
            data = path.read_bytes()
        except OSError as exc:
            self.report(unreadable(use, (exc.strerror or type(exc).__name__).lower()))
            return None
        return self._parse_agent_file(unit, use, alias, path, data)

    def _parse_agent_file(
        self, parent: FileUnit, use: ast.UseDecl, alias: str, path: Path, data: bytes
    ) -> FileUnit | None:
        """Parse a used file. Its text is shown (registered in `sources`) only when it is
        UTF-8 that starts like agent text: a used file may be anything a link points at."""
        name = os.path.normpath(
            os.path.join(os.path.dirname(parent.name), os.path.relpath(path, parent.base_dir))
        )
        try:
            result = self.parse(data.decode("utf-8-sig"), name)
        except UnicodeDecodeError as exc:  # located in the used file, at the first bad byte
            self.diagnostics.extend(undecodable(name, data, exc).diagnostics)
            return None
        if not starts_like_agent_text(result):
            self.report(not_agent_text(use))
            return None
        self.sources[name] = result.source
        self.diagnostics.extend(result.diagnostics)
        if result.module is None:
            return None
        child = FileUnit(
            name, path, result.source, result.module, prefix=f"{parent.prefix}{alias}."
        )
        self._stack.append(path)
        self._fill(child)
        self._stack.pop()
        self._loaded[path] = child
        return child


def _not_found(use: ast.UseDecl, base_dir: Path) -> Diagnostic:
    target = use.target.value
    where = (
        f"no file `{target}` next to this file"
        if pyscan.is_file_target(target) or target.endswith(".agent")
        else f"no module `{target}` on the search path"
    )
    return error(
        Code.MODULE_NOT_FOUND,
        f"cannot find `{target}`",
        use.target.span,
        where,
        help="check the path; it is relative to this .agent file"
        if target.startswith(".")
        else "check the module name and the search path",
    )


def _table(unit: FileUnit, report: Callable[[Diagnostic], None]) -> None:
    """Fill `unit.symbols`; report duplicates and reserved names."""
    for item in unit.module.items:
        text, span = _declared_name(item)
        if text in RESERVED:
            report(
                error(
                    Code.RESERVED_NAME,
                    f"`{text}` is reserved",
                    span,
                    "reserved name",
                    help="choose another name",
                )
            )
            continue
        sym = Symbol(text, item_kind(item), span, item)
        earlier = unit.symbols.get(text) or (
            unit.prelude.symbols.get(text) if unit.prelude else None
        )
        if earlier is not None:
            report(_duplicate(sym, earlier))
            continue
        unit.symbols[text] = sym


def _declared_name(item: ast.Item) -> tuple[str, Span]:
    """The name an item declares, and where: a `use` without `as` names its file."""
    if isinstance(item, ast.UseDecl):
        return use_alias(item), item.alias.span if item.alias else item.span
    return item.name.text, item.name.span


def _duplicate(sym: Symbol, earlier: Symbol) -> Diagnostic:
    where = "the stdlib prelude" if earlier.span.file == PRELUDE_NAME else "this file"
    return error(
        Code.DUPLICATE_NAME,
        f"`{sym.name}` is declared twice",
        sym.span,
        f"{sym.kind.value} `{sym.name}` redeclared here",
        secondary=(Label(earlier.span, f"first declared in {where}"),),
        help="rename one of them",
    )


# ---------------------------------------------------------------- references


@record
class PyTarget(Record):
    """`tools.add` resolved: the scanned module, the `use` alias and the attribute."""

    unit: FileUnit
    alias: str
    attr: str
    module: PyModule
    use: ast.UseDecl

    @property
    def function(self) -> pyscan.PyFunction | None:
        return self.module.functions.get(self.attr)

    @property
    def cls(self) -> pyscan.PyClass | None:
        return self.module.classes.get(self.attr)

    @property
    def tool_name(self) -> str:
        """B11: the function's name, or the name given to `@tool("name")`."""
        fn = self.function
        deco = fn.decorator("tool") if fn else None
        if deco and deco.args and isinstance(deco.args[0], str):
            return deco.args[0]
        named = deco.kwarg("name_or_callable") if deco else None
        return named if isinstance(named, str) else self.attr


class Missing:
    """A reference whose module itself is missing: already reported, stay quiet."""


MISSING = Missing()


def python_ref(unit: FileUnit, ref: ast.Ref) -> PyTarget | Diagnostic | Missing:
    """`alias.attr` in a used Python module."""
    parts = [p.text for p in ref.parts]
    if len(parts) != 2 or parts[0] not in unit.python:
        modules = list(unit.python)
        return error(
            Code.UNKNOWN_NAME,
            f"`{ref.dotted}` does not name a Python object",
            ref.span,
            "expected `module.name` from a `use`d Python module",
            help=did_you_mean(parts[0], modules)
            if modules
            else 'add `use "./file.py" as module` and write `module.name`',
        )
    module = unit.python[parts[0]]
    if module is None:
        return MISSING
    if not module.has(parts[1]):
        return error(
            Code.UNKNOWN_ATTR,
            f"`{parts[0]}` has no `{parts[1]}`",
            ref.parts[1].span,
            f"not defined in {os.path.basename(module.path)}",
            notes=tuple(
                f"`from {m} import *` may bind it, but agentc reads only this file"
                for m in module.star_imports
            ),
            help=did_you_mean(parts[1], module.all_names)
            or (f"import it by name: `from … import {parts[1]}`" if module.star_imports else None),
        )
    sym = unit.symbols.get(parts[0])
    if sym is None or not isinstance(sym.decl, ast.UseDecl):
        return MISSING  # the alias was refused where it is declared (it names a middleware…)
    return PyTarget(unit, parts[0], parts[1], module, sym.decl)


@record
class GraphTarget(Record):
    unit: FileUnit
    symbol: Symbol

    @property
    def qualified(self) -> str:
        return self.unit.qualify(self.symbol.name)


def graph_ref(
    unit: FileUnit,
    ref: ast.Ref,
    kinds: tuple[SymbolKind, ...] = (SymbolKind.AGENT, SymbolKind.GRAPH),
    what: str = "agent",
) -> GraphTarget | Diagnostic | Missing:
    """`calculator` in this file or `shared.calculator` in a used `.agent` file."""
    parts = [p.text for p in ref.parts]
    owner = unit
    if len(parts) == 2 and parts[0] in unit.agent_files:
        owner = unit.agent_files[parts[0]]
        if owner is None:
            return MISSING
    elif len(parts) != 1:
        return error(
            Code.UNKNOWN_NAME,
            f"`{ref.dotted}` does not name an {what}",
            ref.span,
            "unknown name",
            help=did_you_mean(parts[0], unit.agent_files),
        )
    name = parts[-1]
    sym = owner.symbols.get(name)
    if sym is None or sym.kind not in kinds:
        candidates = (s.name for s in owner.symbols.values() if s.kind in kinds)
        return error(
            Code.UNKNOWN_NAME,
            f"unknown {what} `{ref.dotted}`",
            ref.parts[-1].span,
            f"no {what} of that name" + ("" if owner is unit else f" in {owner.name}"),
            help=did_you_mean(name, candidates),
        )
    return GraphTarget(owner, sym)


def declaration(unit: FileUnit, ref: ast.Ref, kind: SymbolKind) -> Symbol | None:
    """A declared middleware/router/template visible here (file, used file, prelude)."""
    parts = [p.text for p in ref.parts]
    used = unit.agent_files.get(parts[0]) if len(parts) == 2 else None
    if len(parts) == 1:
        sym = unit.lookup(parts[0])
    elif used is not None:
        sym = used.lookup(parts[1])
    else:
        return None
    return sym if sym is not None and sym.kind is kind else None
