"""The Python API: compile an `.agent` file and get its graphs ready to run.

Input: a path to an `.agent` file. Output: `load(path)` → `{graph name: CompiledGraph}` (every
`agent` and `graph` block, qualified names for used files' graphs), `load_agent(path, name)`
→ one of them. A file with errors raises `LoadError`, whose message is every diagnostic
rendered as `agentc check` prints it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class LoadError(Exception):
    """An `.agent` file that does not compile, or a graph name it does not declare."""


def compile_program(path: str | Path) -> Any:
    """The `ir.Program` of a file, or `LoadError` with the rendered diagnostics."""
    from agentc.compiler.pipeline import compile_file

    result = compile_file(str(path))
    if result.program is None or _has_errors(result.diagnostics):
        raise LoadError(_render(result))
    return result.program


def _has_errors(diagnostics: Any) -> bool:
    has = getattr(diagnostics, "has_errors", None)
    if has is not None:
        return bool(has() if callable(has) else has)
    return any(getattr(d, "severity", None) and str(d.severity).lower().endswith("error")
               for d in diagnostics)


def _render(result: Any) -> str:
    try:
        from agentc.dsl.report import render_human
        return render_human(result.diagnostics, result.sources)
    except Exception:  # a renderer not yet there must not hide the diagnostics
        return "\n".join(str(d) for d in result.diagnostics)


def bind(program: Any, name: str, base_dir: str, checkpointer: Any = None) -> Any:
    """The graph compiled; its own `checkpoint …` declaration applies unless one is given."""
    from agentc import runtime

    if checkpointer is None:
        checkpointer = runtime.store_for(program.graph(name).checkpoint, base_dir)
    return runtime.compile(program, name, checkpointer=checkpointer, base_dir=base_dir)


def load(path: str | Path, *, checkpointer: Any = None) -> dict[str, Any]:
    """Every graph of the file, compiled (agents through the create_agent template)."""
    program = compile_program(path)
    base_dir = str(Path(path).resolve().parent)
    return {g.name: bind(program, g.name, base_dir, checkpointer) for g in program.graphs}


def load_agent(path: str | Path, name: str | None = None, *, checkpointer: Any = None) -> Any:
    """One graph of the file: `name`, or the only (else the first `agent`) graph."""
    program = compile_program(path)
    graph = pick_graph(program, name, str(path))
    return bind(program, graph.name, str(Path(path).resolve().parent), checkpointer)


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
