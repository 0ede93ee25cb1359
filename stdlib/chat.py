"""Chat models a Python node calls itself: what `agentc.models.init_chat_model` returns.

Input: a `ModelSpec` (a model string resolved as a file's are: A1, A2) and, per call, the
messages (agentc messages, role dicts, `(role, content)` pairs or a plain string: A6).
Output: `ChatHandle.invoke` / `ainvoke` → an `AIMessage`; `.bind_tools([...])` → a handle
that offers those tools on every call; `.with_structured_output(S)` → a handle whose calls
return the parsed answer (a pydantic instance for a class, a dict for a JSON-schema dict,
read as LangChain's parsers read it: `structured_output.parse_answer`).

Invariants: the chat model is built at the first call, not when the handle is made, so a
handle made at import needs no key until used. Inside `agentc run --record/--replay` (a
`models.model_source(...)` block, seen when the handle is made or when it is called) the
model comes through the source, keyed `models.<model string>` — one cassette per distinct
model string and options, shared by every handle of it. A call inside a running task whose
reader asked for `messages` streams its deltas as the graph's own model nodes do.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import re
import sys
import threading
import weakref
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import field, replace
from typing import Any, TypeVar

from ..ir import ModelSpec, OutputStrategy, ToolSpec
from ..runtime.errors import AgentcRuntimeError
from ..runtime.records import dataclass
from ..runtime.types import RunContext
from .agent.model_node import build_request, generate_reply
from .messages import AIMessage, BaseMessage, coerce_messages
from .models import ModelSource, current_model_dir, current_model_source
from .providers.base import ChatModel, ToolChoice, ToolDefinition
from .providers.registry import resolve_model
from .structured_output import (
    OutputSchema,
    StructuredOutput,
    StructuredOutputError,
    parse_answer,
    schema_from_python,
)
from .tools import Tool, make_tool

T = TypeVar("T")

# The model of each (source, key) pair: handles of one model string share one recording.
_SHARED: weakref.WeakKeyDictionary[Any, dict[str, ChatModel]] = weakref.WeakKeyDictionary()
_BUILDING = threading.Lock()


@dataclass(slots=True)
class ModelResolver:
    """Builds a handle's chat model once, through the run's model source when there is one."""

    spec: ModelSpec
    source: ModelSource | None  # the source seen when the handle was made
    base_dir: str | None  # the `.agent` directory seen when the handle was made
    built: ChatModel | None = None  # the model built when no source is in force

    @property
    def key(self) -> str:
        """The name a model source files this model under (its cassette: `FILE.models.…`)."""
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", self.spec.spec).strip("-") or "model"
        if not self.spec.options:
            return f"models.{slug}"
        digest = hashlib.blake2b(
            json.dumps(self.spec.options, sort_keys=True).encode(), digest_size=3
        ).hexdigest()
        return f"models.{slug}-{digest}"

    def model(self) -> ChatModel:
        source = current_model_source() or self.source
        base_dir = current_model_dir() or self.base_dir or "."
        with _BUILDING:  # parallel first calls build (and open a cassette) once
            if source is None:
                if self.built is None:
                    self.built = resolve_model(self.spec, base_dir)
                return self.built
            shared = _SHARED.setdefault(source, {})
            if self.key not in shared:
                spec = self.spec
                shared[self.key] = source(self.key, spec, lambda: resolve_model(spec, base_dir))
            return shared[self.key]


def _current_task() -> RunContext | None:
    from ..runtime.context import current  # the runtime's task lookup, only when called

    try:
        return current()
    except AgentcRuntimeError:
        return None


def run_blocking(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """A coroutine run to its end from sync code: on this thread's own loop, or, when this
    thread runs a loop already (a sync node the runtime placed on it), on a helper thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        from ..runtime.syncrun import run_sync  # the runtime's one sync adapter

        return run_sync(make)

    async def closing() -> T:
        try:
            return await make()
        finally:  # this loop ends here: close the HTTP clients it opened, if any
            http = sys.modules.get("agentc.stdlib.providers.http")
            if http is not None:
                await http.close_clients()

    # the helper runs in this context: the run's model source and task stay visible there
    context = contextvars.copy_context()
    with ThreadPoolExecutor(1, thread_name_prefix="agentc-model") as pool:
        return pool.submit(context.run, asyncio.run, closing()).result()


# ---------------------------------------------------------------- tools a handle offers


def tool_definition(obj: Any) -> ToolDefinition | dict[str, Any]:
    """One entry of `bind_tools([...])`: a function, a `Tool`, an `ir.ToolSpec`, a pydantic
    class, an OpenAI- or Anthropic-shaped tool dict, or any other dict: a provider tool (A8)."""
    if isinstance(obj, ToolDefinition):
        return obj
    if isinstance(obj, (Tool, ToolSpec)):
        return ToolDefinition(obj.name, obj.description, dict(obj.parameters))
    if isinstance(obj, dict):
        fn = obj.get("function") if obj.get("type") == "function" else obj
        if isinstance(fn, dict) and "name" in fn and ("parameters" in fn or "input_schema" in fn):
            params = fn.get("parameters", fn.get("input_schema")) or {}
            return ToolDefinition(str(fn["name"]), str(fn.get("description", "")), dict(params))
        return dict(obj)  # A8: bound as written, run by the provider
    if isinstance(obj, type):
        return schema_from_python(obj).tool()
    if callable(obj):
        t = make_tool(obj)  # B11: the name, the docstring, the signature
        return ToolDefinition(t.name, t.description, t.parameters)
    raise TypeError(
        f"cannot bind {type(obj).__name__} as a tool; pass functions, @tool objects, "
        "pydantic classes or tool dicts"
    )


def pick_tool_choice(choice: Any, names: Sequence[str]) -> ToolChoice:
    """LangChain's spellings: "auto", "any"/"required", "none", a tool name, True (the one
    tool), or {"type": "function", "function": {"name": …}}."""
    if choice is None or choice in ("auto", "any", "none"):
        return choice
    if choice == "required":
        return "any"
    if choice is True and len(names) == 1:
        return names[0]
    if isinstance(choice, dict):
        choice = (choice.get("function") or {}).get("name") or choice.get("name")
    if isinstance(choice, str) and choice in names:
        return choice
    raise ValueError(
        f"tool_choice {choice!r} names no bound tool; use 'auto', 'any', 'none' or one of: "
        f"{', '.join(names) or 'no tools are bound'}"
    )


# ---------------------------------------------------------------- the handles

METHODS = {
    None: OutputStrategy.AUTO,
    "function_calling": OutputStrategy.TOOL,
    "json_schema": OutputStrategy.PROVIDER,
    "tool": OutputStrategy.TOOL,
    "provider": OutputStrategy.PROVIDER,
    "auto": OutputStrategy.AUTO,
}


@dataclass(frozen=True, slots=True)
class ChatHandle:
    """A chat model as a Python node uses one (LangChain's BaseChatModel, the part nodes
    call). Binding returns a new handle; every handle of one `init_chat_model` shares its
    model."""

    resolver: ModelResolver
    tools: tuple[ToolDefinition, ...] = ()
    provider_tools: tuple[dict[str, Any], ...] = ()
    choice: ToolChoice = None
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def provider(self) -> str:
        return self.resolver.spec.provider

    @property
    def name(self) -> str:
        return self.resolver.spec.name

    def __repr__(self) -> str:
        return f"init_chat_model({self.resolver.spec.spec!r})"

    def bind_tools(
        self, tools: Sequence[Any], *, tool_choice: Any = None, **options: Any
    ) -> ChatHandle:
        """A handle that offers `tools` (as definitions; the node runs the calls) every call."""
        defs = [tool_definition(t) for t in tools]
        local = tuple(d for d in defs if isinstance(d, ToolDefinition))
        names = [d.name for d in local]
        return replace(
            self,
            tools=local,
            provider_tools=tuple(d for d in defs if isinstance(d, dict)),
            choice=pick_tool_choice(tool_choice, names),
            options={**self.options, **options},
        )

    def bind(self, **options: Any) -> ChatHandle:
        """A handle whose calls send these options too (`stop`, `temperature` …)."""
        return replace(self, options={**self.options, **options})

    def with_structured_output(
        self,
        schema: Any,
        *,
        method: str | None = None,
        include_raw: bool = False,
        strict: bool | None = None,
        **kwargs: Any,
    ) -> StructuredHandle:
        """A handle whose calls return the answer parsed by `schema` (a pydantic class, a
        TypedDict or dataclass, or a JSON-schema dict: the dict comes back unchecked, G3)."""
        if kwargs:
            raise TypeError(f"with_structured_output got unsupported arguments {sorted(kwargs)}")
        if method not in METHODS:
            raise ValueError(
                f"with_structured_output(method={method!r}) is not supported; use "
                "'function_calling' (a tool call) or 'json_schema' (native structured output)"
            )
        out = StructuredOutput(
            METHODS[method], (_output_schema(schema),), handle_errors=False, strict=strict
        )
        return StructuredHandle(self, out, include_raw)

    def invoke(self, input: Any, config: Any = None, **options: Any) -> AIMessage:
        """The model's reply to `input` (`config` is accepted as LangChain's is; the run's
        own settings reach the call through its task)."""
        ctx = _current_task()
        return run_blocking(lambda: self._reply(input, options, ctx))

    async def ainvoke(self, input: Any, config: Any = None, **options: Any) -> AIMessage:
        return await self._reply(input, options, _current_task())

    async def _reply(
        self, input: Any, options: dict[str, Any], ctx: RunContext | None
    ) -> AIMessage:
        reply, _ = await self._call(input, None, options, ctx)
        return reply

    async def _call(
        self,
        input: Any,
        output: StructuredOutput | None,
        options: dict[str, Any],
        ctx: RunContext | None,
    ) -> tuple[AIMessage, OutputStrategy | None]:
        model = self.resolver.model()
        request, strategy = build_request(
            model,
            tuple(_messages(input)),
            self.tools,
            self.provider_tools,
            self.choice,
            output,
            {**self.options, **options},
        )
        return await generate_reply(model, request, ctx), strategy


def _messages(value: Any) -> list[BaseMessage]:
    return coerce_messages(value if isinstance(value, (str, BaseMessage, dict)) else list(value))


def _output_schema(schema: Any) -> OutputSchema:
    if isinstance(schema, dict) and "name" in schema and "parameters" in schema:  # a function
        return OutputSchema(
            str(schema["name"]), str(schema.get("description", "")), schema["parameters"], None
        )
    return schema_from_python(schema)


@dataclass(frozen=True, slots=True)
class StructuredHandle:
    """`model.with_structured_output(S)`: calls return the parsed answer, or with
    `include_raw` a dict of `raw`, `parsed` and `parsing_error` (LangChain's shape)."""

    model: ChatHandle
    output: StructuredOutput
    include_raw: bool = False

    def invoke(self, input: Any, config: Any = None, **options: Any) -> Any:
        ctx = _current_task()
        return run_blocking(lambda: self._call(input, options, ctx))

    async def ainvoke(self, input: Any, config: Any = None, **options: Any) -> Any:
        return await self._call(input, options, _current_task())

    async def _call(self, input: Any, options: dict[str, Any], ctx: RunContext | None) -> Any:
        reply, strategy = await self.model._call(input, self.output, options, ctx)
        assert strategy is not None  # an output always has one
        if not self.include_raw:
            return parse_answer(self.output, strategy, reply)
        try:
            parsed, error = parse_answer(self.output, strategy, reply), None
        except StructuredOutputError as exc:
            parsed, error = None, exc
        return {"raw": reply, "parsed": parsed, "parsing_error": error}
