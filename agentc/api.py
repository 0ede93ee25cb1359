"""The Python API: compile an `.agent` file and get its graphs ready to run.

Input: a path to an `.agent` file. Output: `load(path)` → `{graph name: CompiledGraph}` (every
`agent` and `graph` block, qualified names for used files' graphs), `load_agent(path, name)`
→ one of them. A file with errors raises `LoadError`, whose message is every diagnostic
rendered as `agentc check` prints it.

`compile_cached(path)` (what `agentc run` uses) keeps the IR of a file that compiled on disk
(`$XDG_CACHE_HOME/agentc/ir/`), so a later run skips parsing and checking: the entry's key
is the file's path and text plus a stamp of the toolchain (size and mtime of every
compiler, dsl, grammar and stdlib source), and it is used only while every file the IR
depends on (used `.agent` files, `use`d Python files) still has the recorded hash. A
program that names Python outside agentc by module name is not cached (its file is not
known without importing). `AGENTC_NO_IR_CACHE=1` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

NO_CACHE_ENV = "AGENTC_NO_IR_CACHE"
_TOOLCHAIN = ("compiler", "dsl", "grammar", "stdlib")  # the sources an IR is built by


class LoadError(Exception):
    """An `.agent` file that does not compile, or a graph name it does not declare."""


def compile_program(path: str | Path) -> Any:
    """The `ir.Program` of a file, or `LoadError` with the rendered diagnostics."""
    from agentc.compiler.pipeline import compile_file

    result = compile_file(str(path))
    if result.program is None or _has_errors(result.diagnostics):
        raise LoadError(_render(result))
    return result.program


def compile_cached(path: str | Path) -> Any:
    """`compile_program`, served from the on-disk IR cache when nothing it read changed."""
    if os.environ.get(NO_CACHE_ENV):
        return compile_program(path)
    try:
        text = Path(path).read_bytes()
    except OSError:
        return compile_program(path)  # the compiler reports the unreadable file
    entry = _cache_dir() / f"{_digest(str(Path(path).resolve()).encode(), text)}.json"
    cached = _read_entry(entry)
    if cached is not None:
        return cached
    from agentc.compiler.pipeline import compile_file

    result = compile_file(str(path))
    if result.program is None or _has_errors(result.diagnostics):
        raise LoadError(_render(result))
    _write_entry(entry, result.program, _dependencies(result, Path(path)))
    return result.program


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "agentc" / "ir"


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    h.update(_toolchain_stamp().encode())
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()[:40]


def _toolchain_stamp() -> str:
    """Size and mtime of every source the compiler reads or is made of (cheap: stats only)."""
    root = Path(__file__).resolve().parent.parent
    stamp = []
    for folder in _TOOLCHAIN:
        for dirpath, _, files in os.walk(root / folder):
            for name in sorted(files):
                if name.endswith((".py", ".lark", ".agent", ".json")):
                    st = os.stat(os.path.join(dirpath, name))
                    stamp.append(f"{dirpath}/{name}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(sorted(stamp))


def _file_hash(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _dependencies(result: Any, root: Path) -> dict[str, str] | None:
    """Every file the IR depends on → its hash; None when one cannot be named (no cache)."""
    deps: dict[str, str] = {}
    base = root.resolve().parent
    for name in result.sources:
        if Path(name).is_file():
            deps[str(Path(name).resolve())] = _file_hash(Path(name)) or ""
    for ref in _import_refs(result.program.model_dump(mode="json")):
        if ref.get("is_file"):
            where = (base / ref["module"]).resolve()
            if not where.is_file():
                return None
            deps[str(where)] = _file_hash(where) or ""
        elif not str(ref.get("module", "")).startswith("agentc."):
            return None
    return deps


def _import_refs(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        found = [value] if {"module", "attr"} <= value.keys() else []
        return found + [r for v in value.values() for r in _import_refs(v)]
    if isinstance(value, list):
        return [r for v in value for r in _import_refs(v)]
    return []


def _write_entry(entry: Path, program: Any, deps: dict[str, str] | None) -> None:
    if deps is None:
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(
            json.dumps({"deps": deps, "program": program.model_dump(mode="json")}), encoding="utf-8"
        )
        os.replace(tmp, entry)
    except OSError:
        pass  # no writable cache: compile each time


def _read_entry(entry: Path) -> Any:
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if any(_file_hash(Path(p)) != h for p, h in data.get("deps", {}).items()):
        return None
    import agentc.ir as ir

    try:
        return ir.Program.model_validate(data["program"])
    except (ValueError, KeyError):
        return None  # an entry from another IR version: recompile


def _has_errors(diagnostics: Any) -> bool:
    has = getattr(diagnostics, "has_errors", None)
    if has is not None:
        return bool(has() if callable(has) else has)
    return any(
        getattr(d, "severity", None) and str(d.severity).lower().endswith("error")
        for d in diagnostics
    )


def _render(result: Any) -> str:
    try:
        from agentc.dsl.report import render_human

        return render_human(result.diagnostics, result.sources)
    except Exception:  # a renderer not yet there must not hide the diagnostics
        return "\n".join(str(d) for d in result.diagnostics)


def bind(
    program: Any, name: str, base_dir: str, checkpointer: Any = None, store: Any = None
) -> Any:
    """The graph compiled; its own `checkpoint …` and `store …` statements apply unless a
    checkpointer / long-term store (I1) is given."""
    import agentc.runtime as runtime

    graph = program.graph(name)
    if checkpointer is None:
        checkpointer = runtime.checkpointer_for(graph.checkpoint, base_dir)
    if store is None:
        store = runtime.open_store(graph.store, base_dir)
    return runtime.compile(program, name, checkpointer=checkpointer, store=store, base_dir=base_dir)


def load(path: str | Path, *, checkpointer: Any = None, store: Any = None) -> dict[str, Any]:
    """Every graph of the file, compiled (agents through the create_agent template)."""
    program = compile_program(path)
    base_dir = str(Path(path).resolve().parent)
    return {g.name: bind(program, g.name, base_dir, checkpointer, store) for g in program.graphs}


def load_agent(
    path: str | Path, name: str | None = None, *, checkpointer: Any = None, store: Any = None
) -> Any:
    """One graph of the file: `name`, or the only (else the first `agent`) graph. `store`:
    the long-term store its tools and middleware use (I1), else the file's `store …`."""
    program = compile_program(path)
    graph = pick_graph(program, name, str(path))
    return bind(program, graph.name, str(Path(path).resolve().parent), checkpointer, store)


def pick_graph(program: Any, name: str | None, path: str) -> Any:
    local = [g for g in program.graphs if "." not in g.name]
    if name is not None:
        for g in program.graphs:
            if g.name == name:
                return g
        names = ", ".join(f"`{g.name}`" for g in program.graphs) or "none"
        raise LoadError(f"{path} declares no agent or graph `{name}`; it declares {names}")
    if not local:
        raise LoadError(f"{path} declares no agent or graph to run")
    if len(local) == 1:
        return local[0]
    agents = [g for g in local if g.kind.value == "agent"]
    return (agents or local)[0]
