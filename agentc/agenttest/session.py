"""One test's conversation with the tested graph: runs, resumes, and what each turn did.

Input: the compiled program, the chosen graph, the test's model source and the folder of
the tested file. Output: `Session.send(value)` runs a turn, `Session.resume(answer)`
answers a pause; `Session.turn` is what happened since the last `send` (`Turn`).
Invariants: always an in-memory checkpointer on a fresh thread (a test never touches
`.agentc/state.db`); the file's Python modules are imported afresh for each test
(`fresh_modules`), so module-level state such as a cached scripted model does not leak
from one test into the next.
"""

from __future__ import annotations

import contextlib
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import agentc.ir as ir
from agentc.runtime import Command, CompiledGraph, MemoryCheckpointer, RunConfig, StreamMode
from agentc.runtime import compile as compile_graph
from agentc.runtime import events as ev
from agentc.stdlib.agent import ModelSource, model_source

USER_MODULES = "agentc_user_"  # runtime/bind.py's prefix for a `use`d Python file


@dataclass
class Turn:
    """What one turn (an `input` and the decisions that resumed it) did."""

    route: list[str] = field(default_factory=list)
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # {name, args}, in order
    usage: dict[str, int] = field(default_factory=dict)
    interrupts: list[Any] = field(default_factory=list)  # pending after the latest run
    values: dict[str, Any] = field(default_factory=dict)
    seen_messages: int = 0  # messages in the state when the turn began

    def count(self, key: str, n: int = 1) -> None:
        self.usage[key] = self.usage.get(key, 0) + n


@contextlib.contextmanager
def fresh_modules() -> Iterator[None]:
    """The user's Python modules imported anew inside the block, the outer ones restored."""
    outer = {k: m for k, m in sys.modules.items() if k.startswith(USER_MODULES)}
    for key in outer:
        del sys.modules[key]
    try:
        yield
    finally:
        for key in [k for k in sys.modules if k.startswith(USER_MODULES)]:
            del sys.modules[key]
        sys.modules.update(outer)


class Session:
    def __init__(
        self, program: ir.Program, graph: ir.Graph, base_dir: str, source: ModelSource
    ) -> None:
        self.graph = graph
        with model_source(source, base_dir=base_dir):
            self.compiled: CompiledGraph = compile_graph(
                program,
                graph.name,
                checkpointer=MemoryCheckpointer(),
                base_dir=base_dir,
            )
        self.source, self.base_dir = source, base_dir
        self.config = RunConfig(thread_id=uuid.uuid4().hex[:12])
        self.turn = Turn()
        self.pending: list[Any] = []  # the runtime's `Interrupt`s the run is paused on

    async def send(self, value: Any) -> None:
        self.turn = Turn(seen_messages=len(self.turn.values.get("messages") or []))
        await self._run(value)

    async def resume(self, answer: Any) -> None:
        await self._run(Command(resume=answer))

    async def _run(self, value: Any) -> None:
        step_nodes: dict[int, list[str]] = {}
        modes = frozenset({StreamMode.UPDATES, StreamMode.EVENTS})

        def sink(event: object) -> None:
            self._observe(event, step_nodes)

        spec = self.compiled.spec(self.config, modes=modes, sink=sink, inline_sync=True)
        with model_source(self.source, base_dir=self.base_dir):
            outcome = await self.compiled.run(value, spec)
        for step in sorted(step_nodes):  # one step's nodes in name order: they ran together
            self.turn.route += sorted(step_nodes[step])
        self.turn.count("steps", len(step_nodes))
        self.pending = list(outcome.interrupts) if outcome.paused else []
        self.turn.interrupts = [i.value for i in self.pending]
        self.turn.values = dict(outcome.values)
        self._tool_calls()

    def _observe(self, event: object, step_nodes: dict[int, list[str]]) -> None:
        if isinstance(event, ev.UpdatesEvent) and not event.node.startswith("__"):
            step_nodes.setdefault(event.step, []).append(event.node)
        elif isinstance(event, ev.ModelEnd):
            self.turn.count("model_calls")
            usage = event.usage
            for key in ("input_tokens", "output_tokens", "total_tokens"):
                n = usage.get(key) if isinstance(usage, dict) else getattr(usage, key, None)
                if isinstance(n, int):
                    self.turn.count(key, n)
        elif isinstance(event, ev.ToolStart) and not event.ns:
            self.turn.count("tool_calls")

    def _tool_calls(self) -> None:
        """The tool calls the model asked for in this turn, in the order it asked."""
        messages = list(self.turn.values.get("messages") or [])[self.turn.seen_messages :]
        calls = []
        for message in messages:
            for call in getattr(message, "tool_calls", None) or ():
                calls.append({"name": call.name, "args": dict(call.args)})
        self.turn.tool_calls = calls
