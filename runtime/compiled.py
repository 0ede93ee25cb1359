"""The public API: `compile(program, graph)` → `CompiledGraph` with invoke / ainvoke /
stream / astream and the state calls (get_state, get_state_history, update_state).

Input: an `ir.Program`, a graph name, an optional `Checkpointer`, an optional long-term `Store`
(I1) and optionally the node cache to use. Output: results as plain dicts of output channels (+
`__interrupt__` when paused by `interrupt()`), typed events (`mode=`) or LangGraph's chunks
(`stream_mode=`, chunks.py). Every call takes a `RunConfig` or LangGraph's config dict
(config_dict.py). Each run's `context` (`RunConfig.context` or the `context=` keyword) is checked
against the graph's `context` schema before step one. One async core (`run`, which an `observer`
may watch: observe.py); the sync API is one adapter (`syncrun`): with no event loop running in the
calling thread it drives a private per-thread loop (and runs a lone sync task inline); called from
inside a running loop, it runs the core on a fresh thread and waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncGenerator, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

import agentc.ir as ir
from agentc.runtime import snapshots
from agentc.runtime.algo import ParentCommand
from agentc.runtime.bind import (
    BoundGraph,
    Env,
    _file_module,  # the one module object per `use`d file
    bind_graph,
)
from agentc.runtime.cache import NodeCache
from agentc.runtime.checkpoint import Checkpointer, MemoryCheckpointer
from agentc.runtime.checkpoint.pgopen import open_postgres_checkpointer
from agentc.runtime.child import arun_child, nests, run_child
from agentc.runtime.chunks import INTERRUPT_KEY, ChunkShape, chunk_shape, langgraph_chunks
from agentc.runtime.config_dict import (
    ConfigArg,
    invoke_config,
    own_checkpointer,
    own_store,
    run_config,
    saved_config,
    with_context,
)
from agentc.runtime.errors import (
    CheckpointerRequiredError,
    GraphStructureError,
    InvalidConfigError,
    InvalidUpdateError,
)
from agentc.runtime.events import Event
from agentc.runtime.executor import Loop, Outcome, RunSpec
from agentc.runtime.observe import RunObserver, observed
from agentc.runtime.records import dataclass
from agentc.runtime.schema import find_schema, program_defs, run_context
from agentc.runtime.serde import TypeAllowlist, allowlist
from agentc.runtime.snapshots import StateSnapshot
from agentc.runtime.store import Store
from agentc.runtime.syncrun import iterate, run_sync, running_loop
from agentc.runtime.types import Durability, RunConfig, StreamMode

ALL_NODES = "*"  # interrupt_before="*": every node (as LangGraph)
Context = object  # a mapping, or a dataclass / pydantic instance (read as its fields)
Modes = StreamMode | str | Iterable[StreamMode | str]
LangGraphModes = str | Sequence[str]  # `stream_mode=`: LangGraph's chunks (`chunks.py`)
Streamed = Any  # what `stream` yields: an `Event` (`mode=`), a chunk (`stream_mode=`)


def compile(
    program: ir.Program,
    graph: str,
    *,
    checkpointer: Checkpointer | None = None,
    store: Store | None = None,
    base_dir: str = ".",
    cache: NodeCache | None = None,
) -> CompiledGraph:
    """Bind `graph` of `program` (imports every ImportRef once) into a runnable graph.

    `store` is the long-term store its tasks see as `ctx.store` (I1: none by default; the
    graph's own `store …` statement is opened by the caller, as `agentc.api` does).
    `cache` replaces the graph's own node cache (a test's, on a clock it steps)."""
    return CompiledGraph(
        program, graph, checkpointer=checkpointer, store=store, base_dir=base_dir, cache=cache
    )


def checkpointer_for(spec: ir.CheckpointSpec, base_dir: str = ".") -> Checkpointer | None:
    """The store a graph's `checkpoint …` declaration asks for (the CLI picks the path)."""
    import os

    if spec.kind is ir.CheckpointKind.MEMORY:
        return MemoryCheckpointer()
    if spec.kind is ir.CheckpointKind.SQLITE:
        from agentc.runtime.checkpoint.sqlite import SqliteCheckpointer

        return SqliteCheckpointer(
            os.path.join(base_dir, spec.path or ".agentc/state.db"),
            types=None if spec.types is None else type_allowlist(spec.types, base_dir),
        )
    if spec.kind is ir.CheckpointKind.POSTGRES:
        types = None if spec.types is None else type_allowlist(spec.types, base_dir)
        return open_postgres_checkpointer(spec.path, spec.url_env, types=types, span=spec.span)
    return None


def type_allowlist(refs: list[ir.ImportRef], base_dir: str) -> TypeAllowlist:
    """D6: dotted refs are compared by name (nothing imported); a `use`d file's classes are
    taken from the file, which the run's bind imports anyway."""
    files = [r for r in refs if r.is_file]
    classes = [getattr(_file_module(base_dir, r.module), r.attr) for r in files]
    return allowlist((f"{r.module}:{r.attr}" for r in refs if not r.is_file), classes)


class CompiledGraph:
    def __init__(
        self,
        program: ir.Program,
        graph: str,
        *,
        checkpointer: Checkpointer | None = None,
        store: Store | None = None,
        base_dir: str = ".",
        env: Env | None = None,
        cache: NodeCache | None = None,
    ) -> None:
        own_checkpointer(checkpointer), own_store(store)  # not LangGraph's: "use X"
        self.program = program
        self.graph = program.graph(graph)
        self.env = env or Env(program, base_dir, self._compile_sibling)
        self.bound: BoundGraph = bind_graph(program, self.graph, self.env)
        self.checkpointer = checkpointer
        self.store = store  # I1: separate from the checkpointer; lent to subgraphs and agent tools
        self.observer: RunObserver | None = None  # watches top-level runs (agentc.tracing)
        # one node cache per compiled graph, shared by its runs (LangGraph's InMemoryCache)
        cached = any(n.cache is not None for n in self.graph.nodes)
        self.cache = cache if cache is not None else NodeCache() if cached else None
        ctx = self.graph.context
        self.context_schema = (
            (ctx, find_schema(program, ctx), program_defs(program)) if ctx is not None else None
        )
        limits = self.graph.limits
        self.limit = int(limits.steps.value)
        self.step_timeout = float(limits.step_timeout_s.value) if limits.step_timeout_s else None
        self.interrupt_before = frozenset(
            i.node for i in self.graph.interrupts if i.when is ir.InterruptWhen.BEFORE
        )
        self.interrupt_after = frozenset(
            i.node for i in self.graph.interrupts if i.when is ir.InterruptWhen.AFTER
        )

    def _compile_sibling(self, name: str) -> CompiledGraph:
        return CompiledGraph(self.program, name, env=self.env)

    @property
    def name(self) -> str:
        return self.graph.name

    # ---- the async core

    def spec(
        self,
        config: RunConfig | None,
        *,
        durability: Durability | str | None = None,
        modes: frozenset[StreamMode] = frozenset(),
        sink: Any = None,
        ns: str = "",
        checkpointer: Checkpointer | None = None,
        inline_sync: bool = False,
        breakpoints: Breakpoints | None = None,
        store: Store | None = None,
    ) -> RunSpec:
        """One run's settings. `checkpointer` / `store` given (a parent lending its own to a
        subgraph, H3 / I1) replace the graph's. Durability (F11): the caller's, else the
        file's `checkpoint …(durability: …)`, else async as LangGraph."""
        config = config or RunConfig()
        durability = durability or self.graph.checkpoint.durability or Durability.ASYNC
        saver = checkpointer if checkpointer is not None else self.checkpointer
        if saver is not None and config.thread_id is None and not ns:
            raise CheckpointerRequiredError(
                f"graph `{self.name}` has a checkpointer, so a run needs a thread id (F10)",
                help='pass RunConfig(thread_id="…")',
            )
        limit = config.recursion_limit if config.recursion_limit is not None else self.limit
        before, after = self.interrupt_before, self.interrupt_after
        if breakpoints is not None:
            before = self._nodes_named(breakpoints.before, before, "interrupt_before")
            after = self._nodes_named(breakpoints.after, after, "interrupt_after")
        return RunSpec(
            config,
            limit,
            Durability(durability),
            modes,
            sink,
            ns,
            saver,
            inline_sync,
            self.step_timeout,
            self.graph.limits.steps.span,
            before,
            after,
            store if store is not None else self.store,
            self.cache,
        )

    def _nodes_named(
        self, names: Iterable[str] | str | None, default: frozenset[str], what: str
    ) -> frozenset[str]:
        """D7: a run's own breakpoints replace the graph's; `"*"` means every node."""
        if names is None:
            return default
        if names == ALL_NODES or (not isinstance(names, str) and ALL_NODES in names):
            return frozenset(self.bound.nodes)
        chosen = frozenset([names] if isinstance(names, str) else names)
        unknown = sorted(chosen - self.bound.nodes.keys())
        if unknown:
            raise GraphStructureError(
                f"{what} names `{unknown[0]}`, which is not a node of graph `{self.name}`",
                help=f"known nodes: {', '.join(sorted(self.bound.nodes))}",
            )
        return chosen

    async def run(self, value: Any, spec: RunSpec) -> Outcome:
        if self.context_schema is not None:  # checked before step one
            name, schema, defs = self.context_schema
            context = run_context(self.name, name, schema, spec.config.context, defs)
            spec = replace(spec, config=replace(spec.config, context=context))
        try:
            return await observed(self.observer, self.bound, value, spec)
        except ParentCommand as pc:
            if spec.ns:
                raise
            raise InvalidUpdateError(
                f"a node returned Command(graph=PARENT), but graph `{self.name}` is not "
                "running inside another graph"
            ) from pc

    async def ainvoke(
        self,
        value: Any,
        config: ConfigArg = None,
        *,
        durability: Durability | str | None = None,
        interrupt_before: Iterable[str] | str | None = None,
        interrupt_after: Iterable[str] | str | None = None,
        context: Context = None,
        stream_mode: str | None = None,
    ) -> dict[str, Any]:
        """The output channels at the run's end (+ `__interrupt__` when it paused).
        `config`: a `RunConfig` or LangGraph's config dict (`config_dict.py`); `context`:
        a mapping, dataclass or pydantic instance; `stream_mode`: "values" only, as this
        returns (LangGraph's other modes return chunks: `stream`)."""
        config = invoke_config(config, stream_mode)
        if nests(value, config, durability, interrupt_before, interrupt_after, context):
            return await arun_child(self, value)  # inside a running task (H3, D4)
        spec = self.spec(
            with_context(config, context),
            durability=durability,
            breakpoints=_breakpoints(interrupt_before, interrupt_after),
        )
        return _result(await self.run(value, spec))

    async def astream(
        self,
        value: Any,
        config: ConfigArg = None,
        *,
        mode: Modes | None = None,
        stream_mode: LangGraphModes | None = None,
        durability: Durability | str | None = None,
        interrupt_before: Iterable[str] | str | None = None,
        interrupt_after: Iterable[str] | str | None = None,
        context: Context = None,
        subgraphs: bool = False,
    ) -> AsyncGenerator[Streamed, None]:
        """The run's typed events in `mode` (default `values`), or, given LangGraph's
        `stream_mode` instead, LangGraph's chunks of the same run (`chunks.py`). As
        LangGraph, a subgraph's (or an agent tool's) `messages` and `custom` events, whose
        `ns` names where they come from, show only with `subgraphs=True`; `events` (model
        and tool calls) show from every level."""
        if mode is not None and stream_mode is not None:
            raise InvalidConfigError(
                "stream() takes mode= (agentc's typed events) or stream_mode= (LangGraph's "
                "chunks), not both",
                help="drop one of them",
            )
        shape = None if stream_mode is None else chunk_shape(stream_mode, subgraphs)
        spec = self.spec(
            with_context(run_config(config), context),
            durability=durability,
            modes=_modes(StreamMode.VALUES if mode is None else mode, shape),
            breakpoints=_breakpoints(interrupt_before, interrupt_after),
        )
        events = self._events(value, spec, subgraphs)
        stream = events if shape is None else langgraph_chunks(events, shape)
        async with contextlib.aclosing(stream):  # closing it stops the run (`_events`)
            async for item in stream:
                yield item

    async def _events(
        self, value: Any, spec: RunSpec, subgraphs: bool
    ) -> AsyncGenerator[Event, None]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Any] = asyncio.Queue()
        owner = threading.get_ident()

        def sink(event: Any) -> None:  # nodes in worker threads emit too
            # `events` show every level, as LangChain's `astream_events` (their `ns` tells)
            if not subgraphs and getattr(event, "ns", "") and event.mode is not StreamMode.EVENTS:
                return
            if threading.get_ident() == owner:
                queue.put_nowait(event)
            else:
                loop.call_soon_threadsafe(queue.put_nowait, event)

        task = asyncio.ensure_future(self.run(value, replace(spec, sink=sink)))
        task.add_done_callback(lambda _: queue.put_nowait(_DONE))
        try:
            while (event := await queue.get()) is not _DONE:
                yield event
            task.result()
        finally:
            if not task.done():
                task.cancel()

    # ---- the sync adapter

    def invoke(
        self,
        value: Any,
        config: ConfigArg = None,
        *,
        durability: Durability | str | None = None,
        interrupt_before: Iterable[str] | str | None = None,
        interrupt_after: Iterable[str] | str | None = None,
        context: Context = None,
        stream_mode: str | None = None,
    ) -> dict[str, Any]:
        """`ainvoke` from sync code (inside a running task: a nested run of that task)."""
        config = invoke_config(config, stream_mode)
        if nests(value, config, durability, interrupt_before, interrupt_after, context):
            return run_child(self, value)  # inside a running task: a nested run (H3, D4)
        inline = running_loop() is None
        spec = self.spec(
            with_context(config, context),
            durability=durability,
            inline_sync=inline,
            breakpoints=_breakpoints(interrupt_before, interrupt_after),
        )
        return _result(run_sync(lambda: self.run(value, spec)))

    def stream(
        self,
        value: Any,
        config: ConfigArg = None,
        *,
        mode: Modes | None = None,
        stream_mode: LangGraphModes | None = None,
        durability: Durability | str | None = None,
        interrupt_before: Iterable[str] | str | None = None,
        interrupt_after: Iterable[str] | str | None = None,
        context: Context = None,
        subgraphs: bool = False,
    ) -> Iterator[Streamed]:
        """`astream` from sync code."""
        yield from iterate(
            self.astream(
                value,
                config,
                mode=mode,
                stream_mode=stream_mode,
                durability=durability,
                interrupt_before=interrupt_before,
                interrupt_after=interrupt_after,
                context=context,
                subgraphs=subgraphs,
            )
        )

    def clear_cache(self, nodes: Iterable[str] | str | None = None) -> None:
        """Forget the cached results of every node, or of the named ones."""
        if self.cache is not None:
            self.cache.clear(nodes)

    def get_state(self, config: ConfigArg) -> StateSnapshot | None:
        return run_sync(lambda: self.aget_state(config))

    def get_state_history(self, config: ConfigArg) -> list[StateSnapshot]:
        return run_sync(lambda: self.aget_state_history(config))

    def update_state(
        self, config: ConfigArg, values: dict[str, Any] | None, as_node: str | None = None
    ) -> RunConfig:
        return run_sync(lambda: self.aupdate_state(config, values, as_node))

    # ---- saved state (async core; blocking stores are called off the event loop)

    def _loop(self, config: RunConfig | None, durability: Durability | str | None = None) -> Loop:
        if self.checkpointer is None or config is None or config.thread_id is None:
            raise CheckpointerRequiredError(
                "reading or changing saved state needs a checkpointer and a thread id",
                help="compile with a checkpointer and pass RunConfig(thread_id=…)",
            )
        return Loop(self.bound, self.spec(config, durability=durability))

    async def aget_state(self, config: ConfigArg) -> StateSnapshot | None:
        """The thread's latest state, or the checkpoint `config.checkpoint_id` names."""
        return await snapshots.read_state(self._loop, saved_config(config))

    async def aget_state_history(self, config: ConfigArg) -> list[StateSnapshot]:
        """Every saved state of the thread, newest first."""
        return await snapshots.read_history(self._loop, saved_config(config))

    async def aupdate_state(
        self, config: ConfigArg, values: dict[str, Any] | None, as_node: str | None = None
    ) -> RunConfig:
        """Apply `values` as if `as_node` wrote them; the next tasks follow from that node."""
        return await snapshots.write_state(self._loop, saved_config(config), values, as_node)


@dataclass(frozen=True, slots=True)
class Breakpoints:
    """A run's own `interrupt_before` / `interrupt_after` (None: the graph's)."""

    before: Iterable[str] | str | None = None
    after: Iterable[str] | str | None = None


def _breakpoints(before: Any, after: Any) -> Breakpoints | None:
    return None if before is None and after is None else Breakpoints(before, after)


_DONE = object()


def _result(outcome: Outcome) -> dict[str, Any]:
    if outcome.interrupts:
        return {**outcome.values, INTERRUPT_KEY: list(outcome.interrupts)}
    return outcome.values


def _modes(mode: Modes, shape: ChunkShape | None) -> frozenset[StreamMode]:
    if shape is not None:
        return frozenset(shape.modes)
    if isinstance(mode, (str, StreamMode)):
        return frozenset({StreamMode(mode)})
    return frozenset(StreamMode(m) for m in mode)
