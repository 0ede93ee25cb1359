"""`summarization` (F3–F6): older conversation replaced by a summary before a model call.

Input: the state's messages before each model call; settings `model` (the summary model),
`trigger` (tokens(n) | messages(n) | fraction(x) of the summary model's context window, or a
list: any one met triggers; none: never, F4), `keep` (default messages(20), F6),
`summary_prompt` (none: LangChain's extraction prompt, `{messages}` filled with the older
messages as XML), `trim_tokens_to_summarize` (4000: only the newest that many tokens of the
older part are shown, starting at a human message, F5), `summarizer` (a Python function
messages → str used instead of the model). Output: the history replaced by one human
message "Here is a summary of the conversation to date:\n\n…" and the kept messages; the
cut never separates an AI tool call from its results (F6).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..messages import (
    REMOVE_ALL_MESSAGES,
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
    with_id,
)
from ..providers.base import ChatModel
from ..providers.base import ModelRequest as ChatRequest
from .base import AgentMiddleware, AgentRuntime, StateUpdate
from .binding import BindInfo
from .tokens import (
    ContextSize,
    Counter,
    RawSize,
    SizeKind,
    buffer_xml,
    count_tokens_approximately,
)

DEFAULT_PROMPT = (Path(__file__).resolve().parent.parent / "data" / "summary_prompt.txt").read_text(
    encoding="utf-8"
)
SUMMARY_PREFIX = "Here is a summary of the conversation to date:\n\n"
NO_HISTORY = "No previous conversation history."
TOO_LONG = "Previous conversation was too long to summarize."
DEFAULT_KEEP = 20
SUMMARY_ATTEMPTS = 3  # F5: the summary call is retried up to 3 attempts (with_retry)

Summarizer = Callable[[list[BaseMessage]], str | Awaitable[str]]  # used instead of the model


def safe_cutoff(messages: Sequence[BaseMessage], cutoff: int) -> int:
    """F6: move a cut that lands on tool results back to the AI message that called them."""
    if cutoff >= len(messages) or not isinstance(messages[cutoff], ToolMessage):
        return cutoff
    ids: set[str] = set()
    idx = cutoff
    while idx < len(messages) and isinstance(m := messages[idx], ToolMessage):
        if m.tool_call_id:
            ids.add(m.tool_call_id)
        idx += 1
    for i in range(cutoff - 1, -1, -1):
        m = messages[i]
        if isinstance(m, AIMessage) and m.tool_calls and ids & {c.id for c in m.tool_calls if c.id}:
            return i
    return idx


def trim_for_summary(
    messages: Sequence[BaseMessage],
    max_tokens: int | None,
    count: Counter,
) -> list[BaseMessage]:
    """The newest messages within `max_tokens`, starting on a human message (F5)."""
    if max_tokens is None:
        return list(messages)
    system = [m for m in messages[:1] if isinstance(m, SystemMessage)]
    rest = list(messages[len(system) :])
    budget = max_tokens - (count(system) if system else 0)
    kept: list[BaseMessage] = []
    for m in reversed(rest):
        if count([*kept, m]) > budget:
            break
        kept.insert(0, m)
    while kept and not isinstance(kept[0], HumanMessage):
        kept.pop(0)
    return [*system, *kept] if kept else []


class Summarization(AgentMiddleware):
    """F4–F6: summarise the older part of the conversation when a trigger is met."""

    def __init__(
        self,
        model: str | ChatModel | None = None,
        *,
        trigger: RawSize | list[RawSize] | None = None,
        keep: RawSize = ("messages", 20),
        summary_prompt: str | None = None,
        trim_tokens_to_summarize: int | None = 4000,
        summarizer: Summarizer | None = None,
    ) -> None:
        self.model_spec = model
        self.model = None if isinstance(model, str) or model is None else model
        self.triggers = parse_triggers(trigger)
        self.keep = ContextSize.parse(keep, "keep")
        self.summary_prompt = summary_prompt or DEFAULT_PROMPT
        self.trim_tokens = trim_tokens_to_summarize
        self.summarizer = summarizer
        self.count: Counter = count_tokens_approximately
        self._info: BindInfo | None = None

    def agentc_bind(self, info: BindInfo) -> None:
        self._info = info

    def summary_model(self) -> ChatModel:
        if self.model is None:
            if self._info is None:
                raise ValueError("summarization needs a `model`")
            spec = self.model_spec if isinstance(self.model_spec, str) else None
            self.model = self._info.model(spec)
        return self.model

    def window(self) -> int | None:
        """The summary model's context window (fractions need it, F4)."""
        return self.summary_model().profile.context_window

    def threshold(self, size: ContextSize) -> int | None:
        if size.kind is SizeKind.FRACTION:
            window = self.window()
            return None if window is None else max(1, int(window * size.value))
        return int(size.value)

    def should_summarize(self, messages: Sequence[BaseMessage], tokens: int) -> bool:
        """F4: any trigger met (none: never)."""
        for t in self.triggers:
            if t.kind is SizeKind.MESSAGES and len(messages) >= t.value:
                return True
            limit = None if t.kind is SizeKind.MESSAGES else self.threshold(t)
            if limit is not None and tokens >= limit:
                return True
        return False

    def cutoff(self, messages: Sequence[BaseMessage]) -> int:
        """F6: where the kept part starts."""
        if self.keep.kind is SizeKind.MESSAGES:
            return self._cut_by_count(messages, int(self.keep.value))
        target = self.threshold(self.keep)
        if target is None:
            return self._cut_by_count(messages, DEFAULT_KEEP)
        if self.count(messages) <= target:
            return 0
        cut = next(
            (i for i in range(len(messages)) if self.count(messages[i:]) <= target),
            len(messages) - 1,
        )
        return safe_cutoff(messages, min(cut, len(messages) - 1))

    @staticmethod
    def _cut_by_count(messages: Sequence[BaseMessage], keep: int) -> int:
        if len(messages) <= keep:
            return 0
        return safe_cutoff(messages, len(messages) - keep)

    async def abefore_model(
        self, state: Mapping[str, Any], runtime: AgentRuntime
    ) -> StateUpdate | None:
        messages = [with_id(m) for m in state.get("messages") or []]
        if not self.should_summarize(messages, self.count(messages)):
            return None
        cut = self.cutoff(messages)
        if cut <= 0:
            return None
        summary = await self.summarize(messages[:cut])
        note = HumanMessage(
            content=SUMMARY_PREFIX + summary, additional_kwargs={"lc_source": "summarization"}
        )
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), note, *messages[cut:]]}

    async def summarize(self, older: Sequence[BaseMessage]) -> str:
        """F5: the summary text (the model's reply, unchecked)."""
        if not older:
            return NO_HISTORY
        shown = trim_for_summary(older, self.trim_tokens, self.count)
        if not shown:
            return TOO_LONG
        if self.summarizer is not None:
            out = self.summarizer(shown)
            out = await out if inspect.isawaitable(out) else out
            if not isinstance(out, str):
                raise TypeError(f"`summarizer` must return a str, got {type(out).__name__}.")
            return out.strip()
        prompt = self.summary_prompt.replace("{messages}", buffer_xml(shown)).rstrip()
        return (await self._ask(prompt)).text.strip()

    async def _ask(self, prompt: str) -> AIMessage:
        model = self.summary_model()
        request = ChatRequest(messages=(HumanMessage(content=prompt),))
        for _ in range(SUMMARY_ATTEMPTS - 1):
            try:
                return await model.generate(request)
            except Exception:  # noqa: BLE001 - F5: retried like with_retry
                continue
        return await model.generate(request)  # the last attempt's failure is raised


def parse_triggers(trigger: RawSize | list[RawSize] | None) -> list[ContextSize]:
    if trigger is None:
        return []
    items = (
        trigger
        if isinstance(trigger, list) and trigger and isinstance(trigger[0], (list, tuple, dict))
        else [trigger]
    )
    return [ContextSize.parse(t, "trigger") for t in items]


SummarizationMiddleware = Summarization
