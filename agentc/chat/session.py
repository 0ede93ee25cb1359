"""One chat: the graph bound to one thread, driven a turn at a time.

Input: the compiled program, the chosen graph, the `.agent` file's folder, `--thread`,
`--model`, the run context and the durability. Output: `ChatSession` — `turn(value)` runs
one turn (streamed through a `ChatView`; a review pause is asked inline through the
`Reader` and the run resumed) and says how it ended (`Ending`); `undo`, `new_thread`,
`state` and `switch_model` serve the slash commands. Invariants: the file's checkpointer
keeps the thread (without a `checkpoint` line, the CLI's SQLite store `.agentc/state.db`,
as `agentc run`); `checkpoint memory` or `checkpoint none` get a saver in this process's
memory, and `Keeping.kept` says the thread is gone at exit. After `/undo` the next turn is
addressed at the checkpoint gone back to, and forks the thread there (time travel); each
later leg of that turn (a resume after a pause) continues from the thread's latest state.
Each leg runs on its own event loop, so a question is asked with no loop running: Ctrl-C
at a review prompt is a plain `KeyboardInterrupt`, and Ctrl-C while an answer streams
cancels that run (what it saved stays on the thread).
"""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, TextIO

from agentc.runner.errors import UsageError
from agentc.runner.inputs import with_model
from agentc.runner.pauses import answer as answer_pauses
from agentc.runner.session import DEFAULT_STORE, close_provider_clients, open_checkpointer

from .history import Undo, undo_target

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.runtime import Checkpointer, CompiledGraph, RunConfig, StateSnapshot
    from agentc.runtime.executor import Outcome

    from .reader import Reader
    from .view import ChatView


class Ending(enum.Enum):
    """How a turn ended."""

    DONE = "done"  # the graph reached its end
    STOPPED = "stopped"  # Ctrl-C while it ran
    UNANSWERED = "unanswered"  # paused, and the pause was not answered
    HELD = "held"  # paused at a breakpoint, and the user chose not to go on
    CLOSED = "closed"  # paused, and the input ended before an answer


@dataclass(frozen=True, slots=True)
class Setup:
    """What a chat is started with (the command line, read and checked)."""

    program: ir.Program  # as the file compiled, before any model switch
    graph: ir.Graph
    base_dir: str  # the `.agent` file's folder: Python modules and scripts are found there
    thread: str | None
    context: dict[str, Any] | None
    durability: str


@dataclass(frozen=True, slots=True)
class Keeping:
    """Whether the thread outlives the chat, and where it is kept."""

    kept: bool
    where: str  # `.agentc/state.db`, the file's SQLite path, or "memory"


def open_saver(graph: ir.Graph, base_dir: str) -> tuple[Checkpointer, Keeping]:
    """The file's checkpointer (the CLI's SQLite default without a `checkpoint` line);
    `checkpoint none` or `memory`: this process's memory, not kept after exit."""
    import agentc.ir as ir
    from agentc.runtime import MemoryCheckpointer

    spec = graph.checkpoint
    saver = open_checkpointer(graph, base_dir)
    if saver is None or spec.kind is ir.CheckpointKind.MEMORY:
        return saver or MemoryCheckpointer(), Keeping(False, "memory")
    if spec.kind is ir.CheckpointKind.NONE:
        return saver, Keeping(True, DEFAULT_STORE)
    where = spec.path if spec.kind is ir.CheckpointKind.SQLITE and spec.path else spec.kind.value
    return saver, Keeping(True, str(where))


class ChatSession:
    """The graph, its saver and store, and the chat's place on its thread."""

    def __init__(self, setup: Setup) -> None:
        import agentc.runtime as runtime

        self.setup = setup
        self.saver, self.keeping = open_saver(setup.graph, setup.base_dir)
        self.store = runtime.open_store(setup.graph.store, setup.base_dir)  # I1
        self.model: str | None = None
        self.compiled = self.bind(setup.program)
        self.thread = setup.thread or _new_id()
        self.fork: str | None = None  # the checkpoint `/undo` went back to

    @property
    def config(self) -> RunConfig:
        """Where the next turn runs: the thread, at the checkpoint `/undo` went back to."""
        from agentc.runtime import RunConfig

        base = RunConfig(thread_id=self.thread)
        base = base if self.setup.context is None else replace(base, context=self.setup.context)
        return base if self.fork is None else replace(base, checkpoint_id=self.fork)

    def bind(self, program: ir.Program) -> CompiledGraph:
        import agentc.runtime as runtime

        return runtime.compile(
            program,
            self.setup.graph.name,
            checkpointer=self.saver,
            store=self.store,
            base_dir=self.setup.base_dir,
        )

    # ---- the slash commands

    def switch_model(self, spec: str) -> None:
        """The agent's model replaced for the following turns (as `agentc run --model`)."""
        graph = self.setup.graph
        if graph.agent is None:
            raise UsageError(
                f"`{graph.name}` is a graph block: its model nodes name their own models, "
                "so there is no agent model to switch"
            )
        self.compiled = self.bind(with_model(self.setup.program, graph.name, spec))
        self.model = spec

    def new_thread(self) -> str:
        self.thread, self.fork = _new_id(), None
        return self.thread

    def state(self) -> StateSnapshot | None:
        return self.compiled.get_state(self.config)

    def undo(self) -> Undo | None:
        """Go back before the user's last message on this branch (None: nothing to undo)."""
        target = undo_target(self.compiled, self.config)
        if target is not None:
            self.fork = target.checkpoint_id
        return target

    # ---- a turn

    def turn(self, value: Any, view: ChatView, reader: Reader, out: TextIO) -> Ending:
        """Run one turn: stream it, ask at each pause and resume, until it ends."""
        from agentc.runtime import Command

        while True:
            try:
                outcome = self.leg(value, view)
            except KeyboardInterrupt:
                view.stop()
                return Ending.STOPPED
            if not outcome.paused:
                return Ending.DONE
            try:
                answer = self.ask(outcome, reader, out)
            except KeyboardInterrupt:
                print(file=out)
                return Ending.UNANSWERED
            except EOFError:
                return Ending.CLOSED
            if answer is HOLD:
                return Ending.HELD
            # a breakpoint goes on with no new input; a question is answered
            value = Command(resume=answer) if outcome.interrupts else None

    def resume(self, view: ChatView, reader: Reader, out: TextIO) -> Ending | None:
        """A thread continued while it waits at a review (`--thread`): asked now, and the
        run resumed; None when nothing waits."""
        from agentc.runtime import Command

        snap = self.state()
        if snap is None or not snap.interrupts:
            return None
        print("the thread waits for an answer to a review:", file=out)
        try:
            answer = answer_pauses(list(snap.interrupts), out, reader.answer)
        except KeyboardInterrupt:
            print(file=out)
            return Ending.UNANSWERED
        except EOFError:
            return Ending.CLOSED
        return self.turn(Command(resume=answer), view, reader, out)

    def leg(self, value: Any, view: ChatView) -> Outcome:
        """One run of the graph, on a loop of its own (see the module's invariants)."""
        import asyncio

        config = self.config
        try:
            return asyncio.run(self._run(value, config, view))
        finally:
            # the fork was taken by the run's first checkpoint: later legs (resumes)
            # continue from the thread's latest state, not from the undone place again
            self.fork = None

    async def _run(self, value: Any, config: RunConfig, view: ChatView) -> Outcome:
        from agentc.runtime import StreamMode

        spec = self.compiled.spec(
            config,
            modes=frozenset({StreamMode.UPDATES, StreamMode.MESSAGES}),
            sink=view.sink,
            inline_sync=True,
            durability=self.setup.durability,
        )
        try:
            return await self.compiled.run(value, spec)
        finally:
            await close_provider_clients()

    def ask(self, outcome: Outcome, reader: Reader, out: TextIO) -> Any:
        """The resume value of a pause: the reviews answered inline (as `agentc run` asks
        on a terminal); at a breakpoint (`interrupt before …`), whether to go on (None:
        continue with no new input; `HOLD`: stay paused)."""
        if outcome.interrupts:
            return answer_pauses(list(outcome.interrupts), out, reader.answer)
        nodes = ", ".join(f"`{n}`" for n in self.next_nodes()) or "the next step"
        text = reader.answer(f"paused before {nodes} (the file's `interrupt`); go on? [Y/n] ")
        return HOLD if text.strip().lower().startswith("n") else None

    def next_nodes(self) -> tuple[str, ...]:
        snap = self.compiled.get_state(replace(self.config, checkpoint_id=None))
        return snap.next if snap is not None else ()


class _Hold:
    """The type of `HOLD`: the user chose to stay at a breakpoint."""


HOLD: Final = _Hold()


def _new_id() -> str:
    return uuid.uuid4().hex[:12]
