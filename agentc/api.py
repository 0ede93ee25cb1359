"""The Python API: compile an `.agent` file and get its graphs ready to run.

Input: a path to an `.agent` file. Output: `load(path)` → `{graph name: CompiledGraph}` (every
`agent` and `graph` block, qualified names for used files' graphs), `load_agent(path, name)`
→ one of them. A file with errors raises `LoadError`, whose message is every diagnostic
rendered as `agentc check` prints it.

`compile_cached(path)` (what `agentc run` uses) serves the IR of a file that compiled from
the on-disk cache of `agentc/ircache.py` (keyed by the file, the installed version and the
compiler's own files; `AGENTC_NO_IR_CACHE=1` turns it off). Invariants: importing this
module imports neither the compiler nor the runtime (each loads on first use, so
`agentc check` never pays for the runtime); the types below are for the type checker only.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from . import ircache
from .ircache import NO_CACHE_ENV

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.compiler.pipeline import CompileResult
    from agentc.runtime.checkpoint import Checkpointer
    from agentc.runtime.compiled import CompiledGraph
    from agentc.runtime.store import Store

__all__ = [
    "NO_CACHE_ENV",
    "LoadError",
    "bind",
    "compile_cached",
    "compile_program",
    "load",
    "load_agent",
    "pick_graph",
]


class LoadError(Exception):
    """An `.agent` file that does not compile, or a graph name it does not declare."""


def compile_program(path: str | Path) -> ir.Program:
    """The `ir.Program` of a file, or `LoadError` with the rendered diagnostics."""
    from agentc.compiler.pipeline import compile_file

    return _program(compile_file(str(path)))


def compile_cached(path: str | Path) -> ir.Program:
    """`compile_program`, served from the on-disk IR cache when nothing it read changed."""
    entry = ircache.entry_for(path)
    if entry is None:
        return compile_program(path)
    cached = ircache.read(entry)
    if cached is not None:
        return cached
    from agentc.compiler.pipeline import compile_file

    result = compile_file(str(path))
    program = _program(result)
    ircache.write(entry, result, Path(path))
    return program


def _program(result: CompileResult) -> ir.Program:
    """The result's program; `LoadError` when it has errors (the compiler then gives none)."""
    if result.program is None:
        from agentc.dsl.report import render_human

        raise LoadError(render_human(result.diagnostics, result.sources))
    return result.program


def bind(
    program: ir.Program,
    name: str,
    base_dir: str,
    checkpointer: Checkpointer | None = None,
    store: Store | None = None,
) -> CompiledGraph:
    """The graph compiled; its own `checkpoint …` and `store …` statements apply unless a
    checkpointer / long-term store (I1) is given."""
    import agentc.runtime as runtime

    graph = program.graph(name)
    if checkpointer is None:
        checkpointer = runtime.checkpointer_for(graph.checkpoint, base_dir)
    if store is None:
        store = runtime.open_store(graph.store, base_dir)
    return runtime.compile(program, name, checkpointer=checkpointer, store=store, base_dir=base_dir)


def load(
    path: str | Path, *, checkpointer: Checkpointer | None = None, store: Store | None = None
) -> dict[str, CompiledGraph]:
    """Every graph of the file, compiled (agents through the create_agent template)."""
    program = compile_program(path)
    base_dir = str(Path(path).resolve().parent)
    return {g.name: bind(program, g.name, base_dir, checkpointer, store) for g in program.graphs}


def load_agent(
    path: str | Path,
    name: str | None = None,
    *,
    checkpointer: Checkpointer | None = None,
    store: Store | None = None,
) -> CompiledGraph:
    """One graph of the file: `name`, or the only (else the first `agent`) graph. `store`:
    the long-term store its tools and middleware use (I1), else the file's `store …`."""
    program = compile_program(path)
    graph = pick_graph(program, name, str(path))
    return bind(program, graph.name, str(Path(path).resolve().parent), checkpointer, store)


def pick_graph(program: ir.Program, name: str | None, path: str) -> ir.Graph:
    """The graph named `name`; without a name the file's only graph, else its first agent."""
    import agentc.ir as ir

    if name is not None:
        for g in program.graphs:
            if g.name == name:
                return g
        names = ", ".join(f"`{g.name}`" for g in program.graphs) or "none"
        raise LoadError(f"{path} declares no agent or graph `{name}`; it declares {names}")
    local = [g for g in program.graphs if "." not in g.name]
    if not local:
        raise LoadError(f"{path} declares no agent or graph to run")
    if len(local) == 1:
        return local[0]
    agents = [g for g in local if g.kind is ir.GraphKind.AGENT]
    return (agents or local)[0]
