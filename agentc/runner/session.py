"""One `agentc run` session: the graph bound to its state, then driven across pauses.

Input: the compiled program, the chosen graph, the working folder, `--thread`, the model
source of `--record`/`--replay` and the run context (`--context`). Output: `bind` → the
`CompiledGraph` and its `RunConfig`; `keeps_threads` (not `checkpoint memory`) and
`has_saved_run` (the thread holds something to continue); `drive` → the final state (with
`__interrupt__` when the run stopped at a pause nobody answered). Invariants: the file's own
`checkpoint …` applies; a file that says nothing gets the CLI's embedded SQLite store
`.agentc/state.db` under the current directory (F10), and `checkpoint none` refuses
`--thread`; the long-term store is the file's `store …` or none (I1); pooled provider
clients are closed when the run ends, however it ends.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import UsageError
from .pauses import NO_ANSWER

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.runtime import Checkpointer, CompiledGraph, RunConfig
    from agentc.stdlib.agent import ModelSource

    from .transcript import Transcript

DEFAULT_STORE = ".agentc/state.db"


def open_checkpointer(graph: ir.Graph, base_dir: str) -> Checkpointer | None:
    """The file's checkpointer; without a `checkpoint` line, the CLI's SQLite default."""
    import agentc.ir as ir
    import agentc.runtime as runtime

    spec = graph.checkpoint
    if spec.kind is ir.CheckpointKind.NONE and spec.span is None:
        from agentc.runtime.checkpoint.sqlite import SqliteCheckpointer

        Path(DEFAULT_STORE).parent.mkdir(parents=True, exist_ok=True)
        return SqliteCheckpointer(DEFAULT_STORE)
    return runtime.checkpointer_for(spec, base_dir)


def keeps_threads(graph: ir.Graph) -> bool:
    """Whether a thread of this graph outlives the process: not with `checkpoint memory`
    (its threads are gone when the run ends, so no `--thread` can continue them)."""
    import agentc.ir as ir

    return graph.checkpoint.kind is not ir.CheckpointKind.MEMORY


def has_saved_run(compiled: CompiledGraph, config: RunConfig, pending: bool = False) -> bool:
    """Whether the run's thread holds a saved run (a thread never run holds none, so a run
    with no input has nothing to start from); with `pending`, one with steps still to run
    (paused), which a run with no input continues."""
    saver = compiled.checkpointer
    thread = config.thread_id
    last = saver.get(thread, "") if saver is not None and thread is not None else None
    return last is not None and (bool(last.next) or not pending)


def bind(
    program: ir.Program,
    graph: ir.Graph,
    base_dir: str,
    thread: str | None,
    source: ModelSource | None = None,
    context: Mapping[str, Any] | None = None,
) -> tuple[CompiledGraph, RunConfig]:
    """The graph compiled with its checkpointer and store, and the run's thread and
    context (`--context`: what nodes read as `ctx.context`, kept across resumes)."""
    import agentc.runtime as runtime

    saver = open_checkpointer(graph, base_dir)
    if saver is None and thread:
        raise UsageError(
            f"`--thread` needs saved state, but `{graph.name}` says "
            "`checkpoint none`; remove that line or drop --thread"
        )
    memory = runtime.open_store(graph.store, base_dir)  # I1: none unless the file says so

    def compile_it() -> CompiledGraph:
        return runtime.compile(
            program, graph.name, checkpointer=saver, store=memory, base_dir=base_dir
        )

    if source is None:
        compiled = compile_it()
    else:
        from agentc.stdlib.agent import model_source

        with model_source(source):
            compiled = compile_it()
    thread_id = thread or (uuid.uuid4().hex[:12] if saver is not None else None)
    if context is None:
        return compiled, runtime.RunConfig(thread_id=thread_id)
    return compiled, runtime.RunConfig(thread_id=thread_id, context=context)


def drive(
    compiled: CompiledGraph,
    value: Any,
    config: RunConfig,
    printer: Transcript,
    durability: str = "sync",
) -> dict[str, Any]:
    """Run, printing as the runtime reports; at an interrupt ask and resume."""
    import asyncio  # ~20 ms: paid by runs, not by usage errors

    return asyncio.run(_drive(compiled, value, config, printer, durability))


async def _drive(
    compiled: CompiledGraph, value: Any, config: RunConfig, printer: Transcript, durability: str
) -> dict[str, Any]:
    from agentc.runtime import Command, StreamMode

    modes = {StreamMode.UPDATES, StreamMode.DEBUG, StreamMode.CUSTOM}
    if printer.stream:
        modes.add(StreamMode.MESSAGES)
    try:
        while True:
            spec = compiled.spec(
                config,
                modes=frozenset(modes),
                sink=printer.sink,
                inline_sync=True,
                durability=durability,
            )
            try:
                outcome = await compiled.run(value, spec)
            except BaseException:
                printer.break_off()  # the error's paragraph must not join a streamed line
                raise
            if not outcome.paused:
                return outcome.values
            if not outcome.interrupts:  # a breakpoint (D7): the thread holds the run
                return {**outcome.values, "__interrupt__": []}
            answer = printer.ask(list(outcome.interrupts))
            if answer is NO_ANSWER:
                return {**outcome.values, "__interrupt__": list(outcome.interrupts)}
            value = Command(resume=answer)
    finally:
        await close_provider_clients()


async def close_provider_clients() -> None:
    """Close pooled HTTP clients if a network provider was used (no import otherwise)."""
    http = sys.modules.get("agentc.stdlib.providers.http")
    if http is not None:
        await http.close_clients()
