"""The types nodes, tools and routers exchange with the runtime.

Input: nothing (definitions only). This is the binding contract between `runtime/` and
`stdlib/` (and users' Python): what a node receives and may return, how a router answers,
and how an `ImportRef` in the IR names either a plain callable or a *factory* that builds one
from its IR spec.

- A node is `fn(state)` or `fn(state, ctx)` (sync or async), where `state` is a read-only
  mapping of channel values (or, for a task started by a `Send`, the Send's `arg`) and `ctx`
  is a `RunContext`. It returns an update: a dict of channel writes, a `Command`, a list of
  those, or None.
- A router is `fn(state)` or `fn(state, ctx)` returning a label, a list of labels, a `Send`
  or a list of `Send`s; labels go through the branch's `routes` map.
- An `ImportRef` whose object carries `__agentc_factory__` is called once at bind time as
  `factory(spec, graph, env)` (spec: the `ir.NodeSpec` or `ir.BranchSpec`; graph: the
  `ir.Graph`; env: a `BindEnv`) and returns the node or router callable.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from agentc.runtime.errors import InvalidConfigError
from agentc.runtime.records import dataclass

if TYPE_CHECKING:
    import agentc.ir as ir
    from agentc.runtime.compiled import CompiledGraph
    from agentc.runtime.store import Store

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def factory(fn: F) -> F:
    """Mark `fn` as a factory: the runtime calls it with (spec, graph, env) at bind time."""
    fn.__agentc_factory__ = True  # type: ignore[attr-defined]
    return fn


def state_only(fn: F) -> F:
    """Mark a router that reads only the state it is given, never the running task
    (`get_config`, `get_store`, `interrupt`): the runtime calls it without making a task
    context for it (the stdlib's agent routers, called twice per tool round trip)."""
    fn.__agentc_state_only__ = True  # type: ignore[attr-defined]
    return fn


@dataclass(frozen=True, slots=True)
class Send:
    """Start one task of `node` in the next step with `arg` as its input (C2, E5)."""

    node: str
    arg: Any


class CommandGraph(str, enum.Enum):
    CURRENT = "current"
    PARENT = "parent"


@dataclass(frozen=True, slots=True)
class Command:
    """What a node or tool returns to write state and steer the graph, or what a caller
    passes to resume an interrupted run (`resume`)."""

    update: Mapping[str, Any] | list[tuple[str, Any]] | None = None
    goto: str | Send | list[str | Send] | None = None
    resume: Any = None
    graph: CommandGraph = CommandGraph.CURRENT


@dataclass(frozen=True, slots=True)
class RunConfig:
    """Per-run settings: the typed replacement for LangGraph's `config` dict (which every
    method taking a `RunConfig` also reads: `config_dict.run_config`)."""

    thread_id: str | None = None
    checkpoint_id: str | None = None
    recursion_limit: int | None = None  # None: the graph's own bound limit (F1, H2)
    configurable: Mapping[str, Any] = field(default_factory=dict)  # e.g. a per-run model (A4)
    tags: tuple[str, ...] = ()
    # LangGraph's `metadata`: the caller's labels for the run, readable by its nodes
    # (`get_config().metadata`); nothing in the runtime reads them
    metadata: Mapping[str, Any] = field(default_factory=dict)
    # The run's context (LangGraph's `context=`): read-only values for every node, tool and
    # middleware of the run and of its subgraphs, checked against `Graph.context`'s schema
    # before step one. Not saved in checkpoints: a resumed run is given it again.
    context: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        limit = self.recursion_limit
        if limit is not None and (type(limit) is not int or limit < 1):
            raise InvalidConfigError(
                f"RunConfig(recursion_limit={limit!r}): the recursion limit is the most "
                "supersteps a run may take, a whole number of 1 or more "
                f"(got {_kind(limit)})",
                help="pass e.g. recursion_limit=25, or None for the graph's own limit",
            )


def _kind(value: Any) -> str:
    if type(value) is int:
        return "zero" if value == 0 else "a negative number"
    return f"a value of type `{type(value).__name__}`"


class RunContext(Protocol):
    """What a node may use besides its state; built by the runtime for each task
    (`context.TaskContext` implements it)."""

    step: int
    node: str
    config: RunConfig
    task_id: str
    ns: str  # the checkpoint namespace: "" at the top, `node:task_id` inside a subgraph (H3)
    run_id: str  # one id per invoke/stream call (per-run counters: F8/F9)
    store: Store | None  # I1: the run's long-term store; not the checkpointer

    @property
    def context(self) -> Any:
        """The run's context (`RunConfig.context`, with its schema's defaults); None: none."""
        ...

    def emit(self, mode: str | StreamMode, payload: Any) -> None:
        """Send a stream event (`messages` deltas, `custom` values) to stream readers."""
        ...

    def streams(self, mode: StreamMode) -> bool:
        """Whether a stream reader of this run asked for `mode` (worth producing events)."""
        ...

    def interrupt(self, value: Any, response_schema: Any = None) -> Any:
        """Pause the run with `value`; on resume return the answer (D4, D5)."""
        ...


@dataclass(frozen=True, slots=True)
class Slot(Generic[T]):
    """A per-program cache slot, declared by the layer that fills it (the agent's bound
    middleware, its MCP toolset): `env.shared(SLOT, graph.name, make)` builds the value once
    per graph of a bound program, so every node of that graph shares it."""

    name: str


class BindEnv(Protocol):
    """What a factory may use at bind time (`bind.Env` implements it)."""

    @property
    def program(self) -> ir.Program: ...

    @property
    def base_dir(self) -> str:
        """The directory of the `.agent` file, for file-relative ImportRefs."""
        ...

    def load(self, ref: ir.ImportRef) -> Any:
        """Import the object an `ir.ImportRef` names (user modules only at run time)."""
        ...

    def subgraph(self, name: str) -> CompiledGraph:
        """The compiled graph for another graph of the program (agent/subgraph nodes)."""
        ...

    def shared(self, slot: Slot[T], graph: str, make: Callable[[], T]) -> T:
        """The value of `slot` for `graph`, made by `make` on first use."""
        ...


class GraphInterrupt(Exception):
    """Raised inside a node by `interrupt()`; the runtime catches it and pauses the run."""

    def __init__(self, interrupts: tuple[Any, ...]) -> None:
        super().__init__(interrupts)
        self.interrupts = interrupts


@dataclass(frozen=True, slots=True)
class Interrupt:
    """One pending question: what `interrupt(value)` asked, and the id to answer it by."""

    value: Any
    id: str
    response_schema: Any = None  # JSON Schema of the expected answer, when one was given (D5)


class Durability(str, enum.Enum):
    """F11: when a step's progress is saved (only with a checkpointer)."""

    SYNC = "sync"  # wait for each step's save before the next step starts
    ASYNC = "async"  # save in the background while the next step starts (default)
    EXIT = "exit"  # save once, when the run ends (however it ends)


class StreamMode(str, enum.Enum):
    VALUES = "values"  # the output channels after each step
    UPDATES = "updates"  # each task's update, in task order
    MESSAGES = "messages"  # deltas nodes `ctx.emit("messages", …)` as they arrive
    CUSTOM = "custom"  # anything nodes `ctx.emit("custom", …)`
    DEBUG = "debug"  # tasks, results and checkpoints
    EVENTS = "events"  # model and tool calls starting and ending (`events.ModelStart`, …)
