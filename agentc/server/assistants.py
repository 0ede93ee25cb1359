"""The assistants a server offers: one per agent and graph of the served files.

Input: the `.agent` files and the backends. Output: `Registry`, which finds an assistant
by its id (a UUID5 of the graph id, as LangGraph's server makes for its default
assistants) or by the graph id itself (which `langgraph dev` accepts too), and hands the
graph bound to the server's checkpointer and store (`graph`), or to a fresh in-memory
checkpointer for a stateless run (`fresh`). Also the assistant's drawing and schemas in
the API's JSON shapes. Invariants: each graph id is served once (two files declaring the
same name is a start-up error); a file that does not compile stops the start, with the
same text `agentc check` prints.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from agentc import ir
from agentc.api import bind, compile_program
from agentc.graphview import LoadedGraph
from agentc.runtime import MemoryCheckpointer
from agentc.runtime.schema import find_schema
from agentc.tracing.served import trace_served

from .backends import Backends
from .errors import not_found
from .wire import iso

T = TypeVar("T")

NAMESPACE_GRAPH = uuid.UUID("6ba7b821-9dad-11d1-80b4-00c04fd430c8")  # LangGraph's


class DuplicateGraphError(ValueError):
    """Two served files declare a graph of the same name."""


@dataclass(frozen=True, slots=True)
class Assistant:
    assistant_id: str
    graph_id: str
    program: ir.Program
    base_dir: str
    file: str
    created_at: float

    def json(self) -> dict[str, Any]:
        stamp = iso(self.created_at)
        return {
            "assistant_id": self.assistant_id,
            "graph_id": self.graph_id,
            "config": {},
            "context": {},
            "created_at": stamp,
            "updated_at": stamp,
            "metadata": {"created_by": "system", "file": shown_path(self.file)},
            "version": 1,
            "name": self.graph_id,
            "description": None,
        }


def shown_path(file: str) -> str:
    """The served file as a client may see it: relative to the server's working directory
    when inside it, else the bare file name. Never absolute: that would tell every
    client where the server's files live on its disk."""
    path = Path(file)
    if not path.is_absolute():
        return path.as_posix()
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.name


def assistant_id(graph_id: str) -> str:
    return str(uuid.uuid5(NAMESPACE_GRAPH, graph_id))


class Registry:
    def __init__(self, files: list[str], backends: Backends) -> None:
        self.backends = backends
        self.by_id: dict[str, Assistant] = {}
        self._graphs: dict[str, LoadedGraph] = {}
        now = time.time()
        for file in files:
            program = compile_program(file)
            base_dir = str(Path(file).resolve().parent)
            for g in program.graphs:
                if "." in g.name:  # a used file's graph: served by that file, if given
                    continue
                if g.name in self._graphs:
                    raise DuplicateGraphError(
                        f"{file} declares `{g.name}`, which another served file declares too"
                    )
                a = Assistant(assistant_id(g.name), g.name, program, base_dir, file, now)
                self.by_id[a.assistant_id] = a
                self._graphs[g.name] = bind(
                    program, g.name, base_dir, backends.checkpointer, backends.store
                )
                trace_served(self._graphs[g.name], g.trace, base_dir)  # `trace` line, OTEL_*

    async def checkpoints(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)`, a call of the served checkpointer: off the event loop when it
        blocks (SQLite, PostgreSQL)."""
        if self.backends.checkpointer.blocking:
            return await asyncio.to_thread(fn, *args)
        return fn(*args)

    def all(self) -> list[Assistant]:
        return list(self.by_id.values())

    def find(self, ident: str) -> Assistant:
        """By assistant id or graph id; 404 naming the graph ids served."""
        found = self.by_id.get(ident) or self.by_id.get(assistant_id(ident))
        if found is None or (found.graph_id != ident and found.assistant_id != ident):
            raise not_found("assistant", ident, known=sorted(self._graphs))
        return found

    def graph(self, a: Assistant) -> LoadedGraph:
        return self._graphs[a.graph_id]

    def graph_named(self, graph_id: str) -> LoadedGraph | None:
        return self._graphs.get(graph_id)

    def fresh(self, a: Assistant) -> LoadedGraph:
        """The graph on its own in-memory checkpointer: a stateless run's thread is gone
        when the run ends."""
        graph = bind(a.program, a.graph_id, a.base_dir, MemoryCheckpointer(), self.backends.store)
        trace_served(graph, a.program.graph(a.graph_id).trace, a.base_dir)
        return graph

    def drawing(self, a: Assistant, xray: bool | int) -> dict[str, Any]:
        """LangChain's `Graph.to_json()` of the assistant's graph."""
        drawn = self.graph(a).get_graph(xray=xray)
        nodes = [_node_json(n.id, n.name, n.kind) for n in drawn.nodes.values()]
        edges: list[dict[str, Any]] = []
        for e in drawn.edges:
            edge: dict[str, Any] = {"source": e.source, "target": e.target}
            if e.data is not None:
                edge["data"] = e.data
            if e.conditional:
                edge["conditional"] = True
            edges.append(edge)
        return {"nodes": nodes, "edges": edges}

    def schemas(self, a: Assistant) -> dict[str, Any]:
        g = a.program.graph(a.graph_id)
        return {
            "graph_id": a.graph_id,
            "input_schema": _channels(g, f"{g.name}_input", lambda c: c.input),
            "output_schema": _channels(g, f"{g.name}_output", lambda c: c.output),
            "state_schema": _channels(g, f"{g.name}_state", lambda c: True),
            "config_schema": {"title": "Configurable", "type": "object", "properties": {}},
            "context_schema": (
                find_schema(a.program, g.context) if g.context is not None else None
            ),
        }


def _node_json(node_id: str, name: str, kind: str) -> dict[str, Any]:
    """As `langgraph dev` draws a compiled graph: the end bare, every other node a
    runnable with its name."""
    if kind == "end":
        return {"id": node_id}
    return {"id": node_id, "type": "runnable", "data": {"name": name}}


def _channels(g: ir.Graph, title: str, keep: Any) -> dict[str, Any]:
    props = {c.name: dict(c.type.json_schema) for c in g.state if keep(c) and not c.ephemeral}
    return {"title": title, "type": "object", "properties": props}
