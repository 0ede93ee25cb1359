"""What an `agent` block needs beyond its graph: models, tools, structured output and
middleware."""

import enum
from typing import Literal

from .base import JSON, ChannelSpec, Field, Frozen, ImportRef, SourceSpan

# ---------------------------------------------------------------- models and tools


class ModelSpec(Frozen):
    """`model "openai:gpt-4o-mini" { … }` resolved as init_chat_model would (A1, A2), or
    `model tools.make_model { … }`: a Python factory called with the options (`factory`)."""

    spec: str
    provider: str
    name: str
    options: dict[str, JSON] = Field(default_factory=dict)
    factory: ImportRef | None = None
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
    # `use "…" as files { timeout: 30s, connect_timeout: 10s }`: seconds a tool call may
    # take, and seconds to connect and list the tools (None: the client's defaults)
    timeout_s: float | None = None
    connect_timeout_s: float | None = None
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
