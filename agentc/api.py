"""The Python API: compile an `.agent` file and get its graphs ready to run.

Input: a path to an `.agent` file. Output: `load(path)` → `{graph name: LoadedGraph}` (every
`agent` and `graph` block, qualified names for used files' graphs; a `CompiledGraph` that
also draws itself with `get_graph()`, graphview.py), `load_agent(path, name)` → one of
them. A file with errors raises `LoadError`, whose message is every diagnostic rendered as
`agentc check` prints it. Without a name, `choose_graph` (what `agentc run`,
`agentc graph` and `agentc explain` use too) takes the file's only graph, else the one no
other graph uses (a supervisor, not its sub-agents), else raises `PickError` listing the
names; `Choice.note` is the line those commands print on stderr when they chose.

`compile_cached(path)` (what `agentc run` uses) serves the IR of a file that compiled from
the on-disk cache of `agentc/ircache.py` (keyed by the file, the installed version and the
compiler's own files; `AGENTC_NO_IR_CACHE=1` turns it off). Invariants: importing this
module imports neither the compiler nor the runtime (each loads on first use, so
`agentc check` never pays for the runtime); the types below are for the type checker only.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import ircache
from .ircache import NO_CACHE_ENV

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.compiler.pipeline import CompileResult
    from agentc.graphview import LoadedGraph
    from agentc.runtime.checkpoint import Checkpointer
    from agentc.runtime.store import Store

__all__ = [
    "NO_CACHE_ENV",
    "Choice",
    "LoadError",
    "PickError",
    "bind",
    "choose_graph",
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
    with _collector_paused():
        from agentc.compiler.pipeline import compile_file

        result = compile_file(str(path))
    return _program(result)


def compile_cached(path: str | Path) -> ir.Program:
    """`compile_program`, served from the on-disk IR cache when nothing it read changed."""
    entry = ircache.entry_for(path)
    if entry is None:
        return compile_program(path)
    cached = ircache.read(entry)
    if cached is not None:
        return cached
    with _collector_paused():
        from agentc.compiler.pipeline import compile_file

        result = compile_file(str(path))
    program = _program(result)
    ircache.write(entry, result, Path(path))
    return program


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic collector off while the compiler runs (and imports itself): its passes
    over the compiler's modules and the AST it builds free nothing (as `agentc check`)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


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
) -> LoadedGraph:
    """The graph compiled; its own `checkpoint …` and `store …` statements apply unless a
    checkpointer / long-term store (I1) is given (agentc's own: a LangGraph saver or store
    is refused, naming agentc's)."""
    import agentc.runtime as runtime
    from agentc.graphview import LoadedGraph

    graph = program.graph(name)
    if checkpointer is None:
        checkpointer = runtime.checkpointer_for(graph.checkpoint, base_dir)
    if store is None:
        store = runtime.open_store(graph.store, base_dir)
    return LoadedGraph(program, name, checkpointer=checkpointer, store=store, base_dir=base_dir)


def load(
    path: str | Path, *, checkpointer: Checkpointer | None = None, store: Store | None = None
) -> dict[str, LoadedGraph]:
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
) -> LoadedGraph:
    """One graph of the file: `name`, or the only one, or the one no other graph uses (a
    supervisor, not its sub-agents; `PickError` when that is not one). `store`: the
    long-term store its tools and middleware use (I1), else the file's `store …`. Invoked
    from a running node or tool (a supervisor's tool), it runs as a nested run of that
    task (`agentc.run_child`, runtime/child.py)."""
    program = compile_program(path)
    graph = pick_graph(program, name, str(path))
    return bind(program, graph.name, str(Path(path).resolve().parent), checkpointer, store)


class PickError(LoadError):
    """No graph to run without `--agent` / a name, or a name the file does not declare."""


@dataclass(frozen=True, slots=True)
class Choice:
    """The graph to run, and whether it was chosen for the caller among several."""

    graph: ir.Graph
    runnable: tuple[str, ...]  # the file's own agents and graphs, in file order
    defaulted: bool = False  # True: several were runnable and this is the one nothing uses

    def note(self, doing: str, do: str) -> str | None:
        """The stderr line of a choice made for the caller (`doing`/`do`: "running"/"run",
        "drawing"/"draw" …), so that the others can be asked for; None when it was not."""
        if not self.defaulted:
            return None
        others = ", ".join(n for n in self.runnable if n != self.graph.name)
        return (
            f"{doing} `{self.graph.name}`, the one agent or graph no other uses; "
            f"{do} another with --agent NAME ({others})"
        )


def pick_graph(program: ir.Program, name: str | None, path: str) -> ir.Graph:
    """The graph named `name`; without a name, `choose_graph`'s choice."""
    return choose_graph(program, name, path).graph


def choose_graph(program: ir.Program, name: str | None, path: str, verb: str = "run") -> Choice:
    """The graph named `name`. Without a name: the file's only agent or graph, else the one
    of them that no other graph of the program uses (as a subgraph or agent node, or as an
    agent tool: a supervisor, not its sub-agents); `PickError` when that is not one graph
    (`verb`: what the caller does with it, for the message: run, draw, explain)."""
    local = tuple(g.name for g in program.graphs if "." not in g.name)
    if name is not None:
        for g in program.graphs:
            if g.name == name:
                return Choice(g, local)
        raise PickError(_unknown(program, name, path))
    if not local:
        raise PickError(f"{path} declares no agent or graph to {verb}")
    if len(local) == 1:
        return Choice(program.graph(local[0]), local)
    used = used_graphs(program)
    roots = [n for n in local if n not in used]
    if len(roots) == 1:
        return Choice(program.graph(roots[0]), local, defaulted=True)
    raise PickError(_ambiguous(path, local, roots, verb))


def used_graphs(program: ir.Program) -> set[str]:
    """Names of the graphs another graph runs: subgraph/agent nodes and agents as tools."""
    import agentc.ir as ir

    used: set[str] = set()
    for g in program.graphs:
        tools = list(g.agent.tools) if g.agent is not None else []
        used.update(t.agent for t in tools if t.agent)
        for node in g.nodes:
            if node.kind in (ir.NodeKind.SUBGRAPH, ir.NodeKind.AGENT) and "graph" in node.config:
                used.add(ir.SubgraphNodeConfig.model_validate(node.config).graph)
            used.update(_tool_agents(node.config.get("tools")))
    return used


def _tool_agents(tools: object) -> list[str]:
    """The agents among a model or tools node's `tools` (ToolSpec dicts in its config)."""
    if not isinstance(tools, list):
        return []
    return [t["agent"] for t in tools if isinstance(t, dict) and isinstance(t.get("agent"), str)]


def _unknown(program: ir.Program, name: str, path: str) -> str:
    from agentc.dsl.suggest import suggest

    names = [g.name for g in program.graphs]
    near = suggest(name, names)
    guess = f"; did you mean `{near}`?" if near else "."
    listed = ", ".join(f"`{n}`" for n in names) or "none"
    return f"{path} declares no agent or graph `{name}`{guess} It declares {listed}."


def _ambiguous(path: str, local: tuple[str, ...], roots: list[str], verb: str) -> str:
    listed = ", ".join(f"`{n}`" for n in (roots or local))
    why = (
        f"{len(roots)} agents and graphs that no other uses"
        if roots
        else "agents and graphs that all use one another"
    )
    first = (roots or list(local))[0]
    return (
        f"{path} declares {why} ({listed}), so which to {verb} is unclear; "
        f"pick one with --agent NAME (e.g. --agent {first})"
    )
