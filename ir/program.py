"""Graph structure: nodes, edges, branches and their conditions, interrupts, limits,
checkpointing, the long-term store, and the `Program` that holds the graphs."""

import enum
from typing import Annotated, Literal

from .agent import AgentSpec, HookPoint
from .base import (
    IR_VERSION,
    JSON,
    ChannelSpec,
    Field,
    Frozen,
    ImportRef,
    ModuleSpec,
    SchemaSpec,
    SourceRef,
    SourceSpan,
)

# ---------------------------------------------------------------- graph structure


class NodeKind(str, enum.Enum):
    MODEL = "model"
    TOOLS = "tools"
    PYTHON = "python"
    AGENT = "agent"
    SUBGRAPH = "subgraph"
    HOOK = "hook"  # a middleware hook node of the agent template


class RetryPolicy(Frozen):
    """LangGraph's RetryPolicy shape (E7: none unless set)."""

    max_attempts: int = 3
    initial_interval: float = 0.5
    backoff_factor: float = 2.0
    max_interval: float = 128.0
    jitter: bool = True
    retry_on: list[str] = Field(default_factory=list)  # exception class names; empty = default set


class CachePolicy(Frozen):
    """LangGraph's CachePolicy: a node's result is reused for the same input (its state or
    its Send payload) until `ttl_s` seconds pass (None: until the cache is cleared)."""

    ttl_s: float | None = None


class InterruptWhen(str, enum.Enum):
    BEFORE = "before"
    AFTER = "after"


class GraphHook(Frozen):
    """What a graph block's `hook before X = python(f)` made of a PYTHON node."""

    when: InterruptWhen  # before / after (the same two words as breakpoints)
    node: str | None = None  # the node it wraps; None: a hook point (before_model …)
    point: HookPoint | None = None


class NodeSpec(Frozen):
    name: str
    kind: NodeKind
    impl: ImportRef
    config: dict[str, JSON] = Field(default_factory=dict)
    retry: RetryPolicy | None = None
    timeout_s: float | None = None
    span: SourceSpan
    hook: GraphHook | None = None  # set on a graph block's hook nodes (explicit, not config)
    cache: CachePolicy | None = None
    defer: bool = False  # runs once no other task is pending (LangGraph's `defer=True`)
    # The nodes a `Command(goto=…)` from this node may name (END allowed); None: not
    # declared, any node is accepted at run time (as LangGraph does without annotations).
    goto: list[str] | None = None
    input_schema: str | None = None  # a Program.schemas name: what a Send to this node carries


class EdgeSpec(Frozen):
    """A static edge; `source` may be START, `target` may be END."""

    source: str
    target: str
    span: SourceSpan


class FieldCond(Frozen):
    """The truthiness (or value, inside a comparison) of a state channel."""

    kind: Literal["field"] = "field"
    name: str
    path: list[str] = Field(
        default_factory=list
    )  # `review.approved` → name review, path [approved]


class LiteralCond(Frozen):
    kind: Literal["literal"] = "literal"
    value: JSON


class CompareCond(Frozen):
    kind: Literal["compare"] = "compare"
    op: Literal["==", "!=", "<", "<=", ">", ">=", "in"]
    left: "Condition"
    right: "Condition"


class NotCond(Frozen):
    kind: Literal["not"] = "not"
    operand: "Condition"


class BoolCond(Frozen):
    kind: Literal["and", "or"]
    operands: list["Condition"]


class PredicateCond(Frozen):
    """A Python function of the state returning a bool."""

    kind: Literal["predicate"] = "predicate"
    ref: ImportRef


Condition = Annotated[
    FieldCond | LiteralCond | CompareCond | NotCond | BoolCond | PredicateCond,
    Field(discriminator="kind"),
]


class JoinSpec(Frozen):
    """`edge [a, b] -> c`: `c` runs once every source has run since `c` last ran
    (LangGraph's `add_edge(["a", "b"], "c")`, a barrier), not once per source."""

    sources: list[str]
    target: str
    span: SourceSpan


class BranchKind(str, enum.Enum):
    WHEN = "when"  # ordered `when` cases and an `otherwise`
    ROUTER = "router"  # a router returns labels (or Sends) mapped through `routes`


class BranchCase(Frozen):
    condition: Condition | None  # None: `otherwise`
    target: str
    span: SourceSpan


class BranchSpec(Frozen):
    """A conditional edge out of `source`."""

    source: str
    kind: BranchKind
    cases: list[BranchCase] = Field(default_factory=list)  # WHEN
    router: ImportRef | None = None  # ROUTER
    router_config: dict[str, JSON] = Field(default_factory=dict)
    routes: dict[str, str] = Field(default_factory=dict)  # label → node (or END)
    # `route a by r [x, y]`: the router names nodes directly (labels are node names) and
    # may answer `Send`s to them; a Send to a node not listed is a run-time error.
    sends: bool = False
    label: str | None = None  # how a diagram names it (`tool calls`, `when approved`)
    span: SourceSpan


class InterruptSpec(Frozen):
    when: InterruptWhen
    node: str
    span: SourceSpan


class Bound(Frozen):
    """A limit value with the span of the declaration that set it (None: a default)."""

    value: float | int
    span: SourceSpan | None = None


class Limits(Frozen):
    steps: Bound  # F1: the recursion limit, in supersteps
    step_timeout_s: Bound | None = None  # F2
    extra: dict[str, Bound] = Field(default_factory=dict)  # budgets: tokens, cost, time …


class CheckpointKind(str, enum.Enum):
    NONE = "none"
    MEMORY = "memory"
    SQLITE = "sqlite"
    POSTGRES = "postgres"


class CheckpointSpec(Frozen):
    kind: CheckpointKind
    path: str | None = None  # sqlite file or postgres URL (never a secret: use an env var name)
    url_env: str | None = None  # postgres: the environment variable holding the URL
    durability: Literal["sync", "async", "exit"] | None = None  # F11; None: the caller's
    # D6: `types: [...]`, the types a load may rebuild beyond agentc's own ([]: none);
    # None: every registered type, as without the option
    types: list[ImportRef] | None = None
    span: SourceSpan | None = None


class StoreKind(str, enum.Enum):
    NONE = "none"
    MEMORY = "memory"
    SQLITE = "sqlite"
    POSTGRES = "postgres"


class StoreSpec(Frozen):
    """`store memory` / `sqlite("…")` / `postgres(…)` / `none`: the long-term store that tools
    and middleware may read and write (I1). The agent loop never touches it; a graph run
    as a node or tool of another uses the outer run's store."""

    kind: StoreKind
    path: str | None = None  # the sqlite file, relative to the `.agent` file's directory
    url_env: str | None = None  # postgres: the environment variable holding the URL
    span: SourceSpan | None = None


class TraceSpec(Frozen):
    """`trace "run.jsonl"` / `trace "otlp://localhost:6006"` / `trace { to: …, content: true }`
    / `trace none`: where `agentc run` sends the run's OpenTelemetry spans unless `--trace`
    says otherwise. `target` None is `trace none`: off, even when the OTEL_* variables are
    set. A `.jsonl` path is relative to the `.agent` file's directory."""

    target: str | None
    content: bool = False  # messages, prompts, tool arguments and results on the spans
    span: SourceSpan | None = None


class GraphKind(str, enum.Enum):
    AGENT = "agent"  # an `agent` block lowered through the create_agent template
    GRAPH = "graph"  # a hand-built `graph` block


class Graph(Frozen):
    name: str  # qualified: `calculator`, or `shared.calculator` from a used .agent file
    kind: GraphKind
    state: list[ChannelSpec]
    nodes: list[NodeSpec]
    edges: list[EdgeSpec]
    joins: list[JoinSpec] = Field(default_factory=list)
    branches: list[BranchSpec] = Field(default_factory=list)
    interrupts: list[InterruptSpec] = Field(default_factory=list)
    limits: Limits
    checkpoint: CheckpointSpec
    agent: AgentSpec | None = None
    store: StoreSpec | None = None  # I1: None (no `store` line) and `store none` mean none
    trace: TraceSpec | None = None  # None: no `trace` line (the command line and OTEL_* decide)
    # `context { user_id: str }`: the per-run context (LangGraph's context_schema), a
    # Program.schemas name; the run's `context` is validated against it before step one.
    context: str | None = None
    doc: str | None = None
    span: SourceSpan


class Program(Frozen):
    ir_version: int = IR_VERSION
    language_version: int = 1
    source: SourceRef
    modules: list[ModuleSpec] = Field(default_factory=list)
    schemas: list[SchemaSpec] = Field(default_factory=list)
    graphs: list[Graph] = Field(default_factory=list)

    def graph(self, name: str) -> Graph:
        for g in self.graphs:
            if g.name == name:
                return g
        raise KeyError(name)
