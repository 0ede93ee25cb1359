"""The intermediate representation: the contract between the compiler and the runtime.

Input: nothing (definitions only). The compiler's `lower` builds a `Program`; the runtime
and the review tools read it and never see the AST. Invariants: pydantic, frozen,
`extra="forbid"`, JSON-serialisable and round-trippable (`Program.model_validate_json(
p.model_dump_json()) == p`); no Python callables, only `ImportRef`s that the runtime binds;
every element carries the `SourceSpan` of the text that made it (the prelude's spans point
into `stdlib/prelude.agent`); names are unique within a graph; declaration order is kept.

Lowering conventions (compiler/lower.py): a graph block's `hook before X = python(f)` is a
PYTHON node `f.before_X` (marked `hook=GraphHook(when=before, node="X")`; its config keeps
`{"hook": "before", "node": "X"}` for older readers) spliced in front of X;
`hook after X` a node `f.after_X` between X and its successors; `before_model`/`after_model`
hooks without a node apply to every model node, `before_agent`/`after_agent` sit after START
/ before END; `wrap_model_call`/`wrap_tool_call` hooks are listed in the model/tools nodes'
`config["wrap"]`. A reference to a Python object inside a config is `{"$import":
"module:attr", "is_file": bool}`; durations are seconds; `tokens(n)` is `["tokens", n]`.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

IR_VERSION = 1
START = "__start__"
END = "__end__"

JSON = Any  # a JSON value: None, bool, int, float, str, list[JSON], dict[str, JSON]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class SourceSpan(Frozen):
    """Where an element came from: 1-based line/col (code points), 0-based offsets."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int
    offset: int
    end_offset: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class ImportRef(Frozen):
    """A Python object the runtime binds: `module:attr`.

    `module` is a dotted module name (`agentc.stdlib.routing`), or with `is_file` a path
    relative to the directory of the `.agent` file that named it (`./tools.py`).
    """

    module: str
    attr: str
    is_file: bool = False
    span: SourceSpan | None = None

    @property
    def key(self) -> str:
        return f"{self.module}:{self.attr}"


class SourceRef(Frozen):
    file: str
    sha256: str


class ModuleKind(str, enum.Enum):
    PYTHON = "python"
    AGENT = "agent"
    MCP = "mcp"  # an MCP server over streamable HTTP (A10: http/https URLs only)


class ModuleSpec(Frozen):
    """A `use` declaration: a Python module, another `.agent` file or an MCP server URL."""

    alias: str
    target: str
    kind: ModuleKind
    is_file: bool
    span: SourceSpan


# ---------------------------------------------------------------- types and schemas


class TypeSpec(Frozen):
    """A value type: the JSON Schema the runtime validates with, and how it was written."""

    display: str
    json_schema: dict[str, JSON]


class SchemaSpec(Frozen):
    """A structured-output or state schema, declared in the file or named from Python."""

    name: str
    json_schema: dict[str, JSON]
    ref: ImportRef | None = None
    doc: str | None = None
    span: SourceSpan


class ChannelSpec(Frozen):
    """One state channel. `reducer` None means last value wins (one write per step)."""

    name: str
    type: TypeSpec
    reducer: ImportRef | None = None
    default: JSON = None
    has_default: bool = False
    input: bool = True  # accepted from the caller's input (A5)
    output: bool = True  # included in the run's result
    ephemeral: bool = False  # cleared after each step (`jump_to`)
    span: SourceSpan


# ---------------------------------------------------------------- models and tools


class ModelSpec(Frozen):
    """`model "openai:gpt-4o-mini" { … }` resolved as init_chat_model would (A1, A2)."""

    spec: str
    provider: str
    name: str
    options: dict[str, JSON] = Field(default_factory=dict)
    span: SourceSpan


class InjectedKind(str, enum.Enum):
    STATE = "state"
    STORE = "store"
    RUNTIME = "runtime"
    TOOL_CALL_ID = "tool_call_id"


class InjectedArg(Frozen):
    param: str
    kind: InjectedKind
    field: str | None = None  # InjectedState("field") reads one key


class ToolSpec(Frozen):
    """A local tool: a Python function (B11) or an agent used as a tool (H1)."""

    name: str
    description: str
    parameters: dict[str, JSON]  # JSON Schema of the model-visible arguments
    ref: ImportRef | None = None
    agent: str | None = None  # the graph that runs when the tool is an agent
    is_async: bool = False
    return_direct: bool = False
    response_format: Literal["content", "content_and_artifact"] = "content"
    injected: list[InjectedArg] = Field(default_factory=list)
    span: SourceSpan


MCP_ALL_TOOLS = "*"


class McpToolRef(Frozen):
    """`tools [files]` (every tool the server lists, A9) or `tools [files.read_file]` (one,
    checked against the server's list at run time) from `use "http://…/mcp" as files`."""

    server: str  # the `use` alias
    url: str  # http or https (A10)
    tool: str = MCP_ALL_TOOLS  # a tool name, or MCP_ALL_TOOLS
    span: SourceSpan


class ProviderToolSpec(Frozen):
    """A tool given as a plain map: bound to the model as written, run by the provider (A8)."""

    definition: dict[str, JSON]
    span: SourceSpan


class OutputStrategy(str, enum.Enum):
    TOOL = "tool"
    PROVIDER = "provider"
    AUTO = "auto"


class OutputSpec(Frozen):
    """`output Answer via tool`: structured output (B7, G3–G8)."""

    schemas: list[str]  # names in Program.schemas; more than one is a union
    strategy: OutputStrategy = OutputStrategy.AUTO
    handle_errors: bool | str = True
    tool_message_content: str | None = None
    strict: bool | None = None
    span: SourceSpan


# ---------------------------------------------------------------- middleware and hooks


class HookPoint(str, enum.Enum):
    BEFORE_AGENT = "before_agent"
    BEFORE_MODEL = "before_model"
    AFTER_MODEL = "after_model"
    AFTER_AGENT = "after_agent"
    WRAP_MODEL_CALL = "wrap_model_call"
    WRAP_TOOL_CALL = "wrap_tool_call"
    DYNAMIC_PROMPT = "dynamic_prompt"


class JumpTarget(str, enum.Enum):
    MODEL = "model"
    TOOLS = "tools"
    END = "end"


class MiddlewareOrigin(str, enum.Enum):
    MIDDLEWARE = "middleware"  # an entry of the agent's `middleware { … }`
    LIMITS = "limits"  # budgets written in `limits { tokens: … }` (the `budgets` middleware)


class MiddlewareSpec(Frozen):
    """One middleware of an agent, in declaration order (first is outermost for wraps)."""

    name: str  # unique within the agent: the declared name, or the Python hook's name
    declared: str  # the declaration it instantiates (`summarization`) or the Python ref
    impl: ImportRef
    config: dict[str, JSON] = Field(default_factory=dict)  # validated, defaults filled
    hooks: list[HookPoint] = Field(default_factory=list)
    jumps: dict[HookPoint, list[JumpTarget]] = Field(default_factory=dict)
    seats: list[str] = Field(default_factory=list)
    tools: list[ToolSpec] = Field(default_factory=list)
    state: list[ChannelSpec] = Field(default_factory=list)
    span: SourceSpan
    # Where each setting was written: `interrupt_on` → its entry, `interrupt_on.delete_file`
    # → that key's entry (one level of nested maps). Settings left at their defaults have
    # none. Lets review tools point at `delete_file: true` rather than the middleware line.
    config_spans: dict[str, SourceSpan] = Field(default_factory=dict)
    origin: MiddlewareOrigin = MiddlewareOrigin.MIDDLEWARE


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
    left: Condition
    right: Condition


class NotCond(Frozen):
    kind: Literal["not"] = "not"
    operand: Condition


class BoolCond(Frozen):
    kind: Literal["and", "or"]
    operands: list[Condition]


class PredicateCond(Frozen):
    """A Python function of the state returning a bool."""

    kind: Literal["predicate"] = "predicate"
    ref: ImportRef


Condition = Annotated[
    FieldCond | LiteralCond | CompareCond | NotCond | BoolCond | PredicateCond,
    Field(discriminator="kind"),
]


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
    label: str | None = None  # how a diagram names it (`tool calls`, `when approved`)
    span: SourceSpan


class InterruptWhen(str, enum.Enum):
    BEFORE = "before"
    AFTER = "after"


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
    durability: Literal["sync", "async", "exit"] | None = None  # F11; None: the caller's
    span: SourceSpan | None = None


class StoreKind(str, enum.Enum):
    NONE = "none"
    MEMORY = "memory"
    SQLITE = "sqlite"


class StoreSpec(Frozen):
    """`store memory` / `store sqlite("…")` / `store none`: the long-term store that tools
    and middleware may read and write (I1). The agent loop never touches it; a graph run
    as a node or tool of another uses the outer run's store."""

    kind: StoreKind
    path: str | None = None  # the sqlite file, relative to the `.agent` file's directory
    span: SourceSpan | None = None


class GraphKind(str, enum.Enum):
    AGENT = "agent"  # an `agent` block lowered through the create_agent template
    GRAPH = "graph"  # a hand-built `graph` block


class AgentSpec(Frozen):
    """What an `agent` block said, kept beside the graph it lowered to."""

    model: ModelSpec
    prompt: str | None = None
    prompt_span: SourceSpan | None = None
    tools: list[ToolSpec] = Field(default_factory=list)
    provider_tools: list[ProviderToolSpec] = Field(default_factory=list)
    mcp_tools: list[McpToolRef] = Field(default_factory=list)  # A9, B10: listed at run time
    output: OutputSpec | None = None
    middleware: list[MiddlewareSpec] = Field(default_factory=list)


class Graph(Frozen):
    name: str  # qualified: `calculator`, or `shared.calculator` from a used .agent file
    kind: GraphKind
    state: list[ChannelSpec]
    nodes: list[NodeSpec]
    edges: list[EdgeSpec]
    branches: list[BranchSpec] = Field(default_factory=list)
    interrupts: list[InterruptSpec] = Field(default_factory=list)
    limits: Limits
    checkpoint: CheckpointSpec
    agent: AgentSpec | None = None
    store: StoreSpec | None = None  # I1: None (no `store` line) and `store none` mean none
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
