"""`llm_tool_selector` (B5): a model call first picks the tools the main call may see.

Input: the request's tools and newest human message; `model` (none: the agent's own),
`system_prompt`, `max_tools`, `always_include`, `max_retries` (1), `on_parsing_failure`
("error" | "none" | "all" | a list of names). Output: the request with only the chosen
tools (in the agent's order, the always-included ones after them, provider tools kept).
The selection is asked for as the selector model's own structured output asks (LangChain's
`model.with_structured_output(schema)`): native JSON-schema output when the model's profile or
name says it has it, else the schema as a tool the model must call (`tool_choice` any). The
schema is the one LangChain's TypeAdapter writes, so the model reads the same text.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, Union

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict

from ...ir import OutputStrategy
from ..messages import HumanMessage, SystemMessage
from ..providers.base import ChatModel
from ..providers.base import ModelRequest as ChatRequest
from ..structured_output import OutputSchema, StructuredOutput, parse_answer
from ..tools import Tool
from .base import AgentMiddleware, ModelRequest, ModelResult
from .binding import BindInfo
from .chain import ModelHandler

DEFAULT_PROMPT = "Your goal is to select the most relevant tools for answering the user's query."

# What to choose when the reply is not `{"tools": [...]}`: fail, none, all, these names, or
# what a function of the reply names.
OnParsingFailure = Literal["error", "none", "all"] | Sequence[str] | Callable[[Any], Sequence[str]]


SELECTION_NAME = "ToolSelectionResponse"
SELECTION_DOC = "Use to select relevant tools."
TOOLS_DOC = "Tools to use. Place the most relevant tools first."


@functools.lru_cache(maxsize=64)
def selection_schema(names: tuple[str, ...], descriptions: tuple[str, ...]) -> dict[str, Any]:
    """The JSON schema LangChain's selector writes: built the way it builds it (a TypedDict
    of annotated literals through pydantic), so titles, types and one-tool shapes agree."""
    literals = tuple(
        Annotated[Literal[n], Field(description=d)]
        for n, d in zip(names, descriptions, strict=True)
    )
    fields = {"tools": Annotated[list[Union[literals]], Field(description=TOOLS_DOC)]}  # type: ignore[valid-type]  # noqa: UP007
    response = TypedDict(SELECTION_NAME, fields)  # type: ignore[operator]
    response.__doc__ = SELECTION_DOC
    return TypeAdapter(response).json_schema()


def selection_output(names: tuple[str, ...], descriptions: tuple[str, ...]) -> StructuredOutput:
    """B5: the schema as `with_structured_output` binds it: name and description lifted out
    of the parameters (as `convert_to_openai_tool` does), read unchecked like a dict schema
    (G3) so a malformed answer reaches `on_parsing_failure`."""
    schema = dict(selection_schema(names, descriptions))
    name, doc = str(schema.pop("title")), str(schema.pop("description"))
    return StructuredOutput(
        OutputStrategy.AUTO, (OutputSchema(name, doc, schema, None),), handle_errors=False
    )


def _valid(response: object) -> bool:
    return isinstance(response, dict) and isinstance(response.get("tools"), list)


class LLMToolSelector(AgentMiddleware):
    def __init__(
        self,
        *,
        model: str | ChatModel | None = None,
        system_prompt: str = DEFAULT_PROMPT,
        max_tools: int | None = None,
        always_include: Sequence[str] | None = None,
        max_retries: int = 1,
        on_parsing_failure: OnParsingFailure = "error",
    ) -> None:
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        self.model_spec = model
        self.model = None if isinstance(model, str) else model
        self.system_prompt, self.max_tools = system_prompt, max_tools
        self.always_include = list(always_include or [])
        self.max_retries, self.on_parsing_failure = max_retries, on_parsing_failure
        self._info: BindInfo | None = None

    def agentc_bind(self, info: BindInfo) -> None:
        self._info = info

    def prompt(self) -> str:
        if self.max_tools is None:
            return self.system_prompt
        return (
            self.system_prompt + "\nIMPORTANT: List the tool names in order of relevance, "
            "with the most relevant first. If you exceed the maximum number of tools, "
            f"only the first {self.max_tools} will be used."
        )

    async def awrap_model_call(self, request: ModelRequest, handler: ModelHandler) -> ModelResult:
        local = [t for t in request.tools if not isinstance(t, dict)]
        missing = [n for n in self.always_include if n not in {t.name for t in local}]
        if missing:
            raise ValueError(
                f"Tools in always_include not found in request: {missing}. "
                f"Available tools: {sorted(t.name for t in local)}"
            )
        choosable = [t for t in local if t.name not in self.always_include]
        if not choosable:
            return await handler(request)
        user = next((m for m in reversed(request.messages) if isinstance(m, HumanMessage)), None)
        if user is None:
            raise ValueError("No user message found in request messages")
        names = [t.name for t in choosable]
        response = await self.ask(request, user, choosable)
        capped = True
        if not _valid(response):
            response, capped = {"tools": self.fallback(response, names)}, False
        chosen = self.chosen(response["tools"], names, capped)
        kept: list[Tool | dict[str, Any]] = [t for t in choosable if t.name in chosen]
        kept += [t for t in local if t.name in self.always_include]
        kept += [t for t in request.tools if isinstance(t, dict)]
        return await handler(request.override(tools=kept))

    def selector(self, request: ModelRequest) -> ChatModel:
        """The selection model: `model`, else the agent's model of this request."""
        if self.model is None:
            if isinstance(self.model_spec, str) and self.model_spec:
                assert self._info is not None, "a model string needs the agent (agentc_bind)"
                self.model = self._info.model(self.model_spec)
            else:
                self.model = request.model
        return self.model

    async def ask(self, request: ModelRequest, user: HumanMessage, tools: list[Tool]) -> Any:
        model = self.selector(request)
        out = selection_output(tuple(t.name for t in tools), tuple(t.description for t in tools))
        messages = (SystemMessage(content=self.prompt()), user)
        strategy = out.effective(model.profile, model.name, has_tools=False)
        if strategy is OutputStrategy.TOOL:  # B5: no native output: a forced tool call
            call = ChatRequest(messages=messages, tools=out.tools(), tool_choice="any")
        else:
            call = ChatRequest(messages=messages, response_format=out.response_format())
        response = parse_answer(out, strategy, await model.generate(call))
        for _ in range(self.max_retries):
            if _valid(response):
                break
            response = parse_answer(out, strategy, await model.generate(call))
        return response

    def fallback(self, response: object, names: list[str]) -> list[str]:
        rule = self.on_parsing_failure
        if rule == "error":
            raise ValueError(
                "LLMToolSelectorMiddleware: selection model returned a malformed "
                f"response after {self.max_retries} retries (expected a dict "
                f"with a 'tools' list): {response!r}"
            )
        if rule == "none":
            return []
        if rule == "all":
            return list(names)
        return [n for n in (rule(response) if callable(rule) else rule) if n in names]

    def chosen(self, picked: list[str], names: list[str], capped: bool) -> list[str]:
        invalid = [n for n in picked if n not in names]
        if invalid:
            raise ValueError(f"Model selected invalid tools: {invalid}")
        out: list[str] = []
        for n in picked:
            if n not in out and (not capped or self.max_tools is None or len(out) < self.max_tools):
                out.append(n)
        return out


LLMToolSelectorMiddleware = LLMToolSelector
