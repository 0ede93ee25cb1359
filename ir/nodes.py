"""The typed configs of a graph block's built-in nodes: `model(…)`, `tools(…)` and
`subgraph(…)`/`agent(…)`, and the prompt templates model nodes fill from state.

The compiler writes one of these into `NodeSpec.config` (as JSON, `model_dump(mode=
"json")`); the node's factory reads it back with `model_validate`, so the seam is checked
at both ends and a config the factory cannot read is a bind error, not a KeyError.
"""

import enum

from .agent import ModelSpec, OutputSpec, ToolSpec
from .base import JSON, Field, Frozen, SourceSpan


class TemplateField(Frozen):
    """`{topic}` or `{section.name}` in a template: a state channel (or, for a node fed by
    `Send`, a key of the Send's payload) and a path into it."""

    name: str
    path: list[str] = Field(default_factory=list)


class Template(Frozen):
    """A string with `{channel}` placeholders, split at compile time: literal text and
    fields alternate in `parts`. `{{` and `}}` are literal braces (already unescaped)."""

    parts: list[str | TemplateField]
    span: SourceSpan

    @property
    def fields(self) -> list[TemplateField]:
        return [p for p in self.parts if isinstance(p, TemplateField)]


class AnswerKind(str, enum.Enum):
    """What a model node writes into its `into` channel."""

    MESSAGE = "message"  # the AI message, appended through the channel's reducer
    TEXT = "text"  # the reply's text content (a `str` channel)
    STRUCTURED = "structured"  # the parsed structured answer (`output:` given)


class ModelNodeConfig(Frozen):
    """`node n = model("provider:name", prompt: …, input: …, tools: […], output: S, into: c)`.

    The call's messages are: the system prompt (`prompt`, rendered, never saved: B1), then
    either the rendered `input` as one user message, or the conversation read from the
    `messages` channel. The answer goes to `into` as `answer` says; with `output`, the
    structured answer is parsed by `output.strategy` (tool / provider / auto, as the agent's).
    """

    model: ModelSpec
    prompt: Template | None = None
    input: Template | None = None
    messages: str | None = None  # the conversation channel read when `input` is None
    into: str  # the channel the answer is written to
    answer: AnswerKind
    tools: list[ToolSpec] = Field(default_factory=list)  # bound and offered each call (B5)
    provider_tools: list[dict[str, JSON]] = Field(default_factory=list)
    output: OutputSpec | None = None
    wrap: list[dict[str, JSON]] = Field(default_factory=list)  # wrap_model_call hooks
    span: SourceSpan


class ToolNodeConfig(Frozen):
    """`node act = tools([tools.a, tools.b])`: LangGraph's ToolNode over `messages`."""

    tools: list[ToolSpec]
    messages: str = "messages"  # the channel whose last AI message's tool calls run
    wrap: list[dict[str, JSON]] = Field(default_factory=list)  # wrap_tool_call hooks
    span: SourceSpan


class SubgraphNodeConfig(Frozen):
    """`node sub = subgraph(g, input: { child: parent }, output: { parent: child })`.

    Without maps the child reads and writes the channels it shares with the parent by name
    (LangGraph's shared-key subgraph). With `input`, the child starts from exactly the
    mapped values; with `output`, only the mapped child channels are written back."""

    graph: str
    input: dict[str, str] | None = None  # child channel → parent channel
    output: dict[str, str] | None = None  # parent channel → child channel
