"""Span attributes: the OpenTelemetry GenAI conventions, the hints backends read, and
agentc's own. Pure functions of events and IR facts; imports nothing of OpenTelemetry.

Input: model and tool events (`runtime/events.py`), usage metadata, request options.
Output: attribute dicts (`Attrs`: str → str | bool | int | float | a list of str).
Invariants: names follow the GenAI semantic conventions of the installed
`opentelemetry-semantic-conventions` (`gen_ai.usage.cache_creation.input_tokens`,
`gen_ai.usage.reasoning.output_tokens`, `gen_ai.response.time_to_first_chunk` …); request
options are copied from an allow-list only (never a key, header or URL); no attribute here
carries message text (contents are `content.py`'s, and only when asked for).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentc.runtime.errors import AgentcRuntimeError
from agentc.runtime.events import ModelEnd
from agentc.stdlib.messages import AIMessage, UsageMetadata
from agentc.stdlib.providers.errors import ProviderError

AttrValue = str | bool | int | float | list[str]
Attrs = dict[str, AttrValue]

OPERATION = "gen_ai.operation.name"
PROVIDER = "gen_ai.provider.name"
REQUEST_MODEL = "gen_ai.request.model"
CONVERSATION = "gen_ai.conversation.id"
AGENT_NAME = "gen_ai.agent.name"
WORKFLOW_NAME = "gen_ai.workflow.name"
ERROR_TYPE = "error.type"
INPUT_TOKENS = "gen_ai.usage.input_tokens"
OUTPUT_TOKENS = "gen_ai.usage.output_tokens"
TTFC = "gen_ai.response.time_to_first_chunk"
STREAM = "gen_ai.request.stream"
TOOL_CALL_ID = "gen_ai.tool.call.id"

# agentc's own
SUPERSTEP = "agentc.superstep"
CHECKPOINT = "agentc.checkpoint_id"
SEAT = "agentc.seat"
SOURCE = "agentc.source"
NODE = "agentc.node"
PAUSED = "agentc.paused"
RUN_ID = "agentc.run_id"

# what the popular backends read to draw a span: (LangSmith, OpenInference/Phoenix, Langfuse)
KINDS: dict[str, tuple[str, str, str]] = {
    "chat": ("llm", "LLM", "generation"),
    "execute_tool": ("tool", "TOOL", "tool"),
    "invoke_agent": ("chain", "AGENT", "agent"),
    "invoke_workflow": ("chain", "CHAIN", "chain"),
    "node": ("chain", "CHAIN", "span"),
}

# request options → GenAI attribute (the allow-list: nothing else is copied)
_OPTIONS = {
    "temperature": "gen_ai.request.temperature",
    "max_tokens": "gen_ai.request.max_tokens",
    "max_completion_tokens": "gen_ai.request.max_tokens",
    "top_p": "gen_ai.request.top_p",
    "top_k": "gen_ai.request.top_k",
    "frequency_penalty": "gen_ai.request.frequency_penalty",
    "presence_penalty": "gen_ai.request.presence_penalty",
    "seed": "gen_ai.request.seed",
    "n": "gen_ai.request.choice.count",
}
# input usage detail → GenAI attribute
_DETAILS = (
    ("cache_read", "gen_ai.usage.cache_read.input_tokens"),
    ("cache_creation", "gen_ai.usage.cache_creation.input_tokens"),
)
# agentc's provider keys → the conventions' well-known `gen_ai.provider.name` values
_PROVIDERS = {
    "azure_openai": "azure.ai.openai",
    "bedrock": "aws.bedrock",
    "google_genai": "gcp.gemini",
    "google_vertexai": "gcp.vertex_ai",
    "mistralai": "mistral_ai",
}


_HINTS: dict[str, Attrs] = {
    kind: {
        "langsmith.span.kind": langsmith,
        "openinference.span.kind": openinference,
        "langfuse.observation.type": langfuse,
    }
    for kind, (langsmith, openinference, langfuse) in KINDS.items()
}


def kind_hints(kind: str) -> Attrs:
    """The backends' words for a span of this kind (one shared dict: copy, never change)."""
    return _HINTS[kind]


def provider_name(provider: str) -> str:
    return _PROVIDERS.get(provider, provider or "_OTHER")


def provider_key(name: str) -> str:
    """agentc's provider key of a `gen_ai.provider.name` (`provider_name` undone)."""
    return next((key for key, value in _PROVIDERS.items() if value == name), name)


def chat_request(model: str, provider: str, options: Mapping[str, Any], stream: bool) -> Attrs:
    """A `chat` span's opening attributes: who is asked, and with which sampling options."""
    attrs: Attrs = {
        OPERATION: "chat",
        PROVIDER: provider_name(provider),
        REQUEST_MODEL: model,
        **kind_hints("chat"),
    }
    if stream:  # the conventions ask for it on streaming requests
        attrs[STREAM] = True
    for key, value in options.items():
        name = _OPTIONS.get(key)
        if name is not None and isinstance(value, (int, float)) and not isinstance(value, bool):
            attrs[name] = value
    stop = options.get("stop")
    if isinstance(stop, str):
        attrs["gen_ai.request.stop_sequences"] = [stop]
    elif isinstance(stop, list) and all(isinstance(s, str) for s in stop):
        attrs["gen_ai.request.stop_sequences"] = list(stop)
    return attrs


def chat_response(event: ModelEnd) -> Attrs:
    """What the reply says about itself: model, id, finish reason, token usage."""
    reply = event.message
    if not isinstance(reply, AIMessage):
        return {}
    meta, attrs = reply.response_metadata, Attrs()
    if isinstance(meta.get("model_name"), str) and meta["model_name"]:
        attrs["gen_ai.response.model"] = meta["model_name"]
    if reply.id:
        attrs["gen_ai.response.id"] = reply.id
    reason = meta.get("finish_reason") or meta.get("stop_reason")
    if isinstance(reason, str) and reason:
        attrs["gen_ai.response.finish_reasons"] = [reason]
    attrs.update(usage(reply.usage_metadata))
    return attrs


def usage(value: UsageMetadata | None) -> Attrs:
    """Token counts in the GenAI names (Phoenix, Langfuse and LangSmith read these; Phoenix
    derives OpenInference's `llm.token_count.*` from them)."""
    if value is None:
        return {}
    attrs: Attrs = {INPUT_TOKENS: value.input_tokens, OUTPUT_TOKENS: value.output_tokens}
    for detail, name in _DETAILS:
        count = value.input_token_details.get(detail)
        if count:
            attrs[name] = count
    reasoning = value.output_token_details.get("reasoning")
    if reasoning:
        attrs["gen_ai.usage.reasoning.output_tokens"] = reasoning
    return attrs


def tool_call(tool: str, tool_type: str) -> Attrs:
    """An `execute_tool` span's opening attributes (its call id is the recorder's)."""
    return {
        OPERATION: "execute_tool",
        "gen_ai.tool.name": tool,
        "gen_ai.tool.type": tool_type,
        **kind_hints("execute_tool"),
    }


def error_type(exc: BaseException) -> str:
    """A low-cardinality name for a failure: an agentc error's code, else the class name."""
    if isinstance(exc, (AgentcRuntimeError, ProviderError)) and exc.code:
        return exc.code
    return type(exc).__qualname__
