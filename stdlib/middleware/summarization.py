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
from collections.abc import Callable, Mapping, Sequence
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
from ..providers.base import ModelRequest
from .base import AgentMiddleware
from .tokens import ContextSize, SizeKind, buffer_xml, count_tokens_approximately

DEFAULT_PROMPT = (Path(__file__).resolve().parent.parent / "data" / "summary_prompt.txt").read_text(
    encoding="utf-8"
)
SUMMARY_PREFIX = "Here is a summary of the conversation to date:\n\n"
NO_HISTORY = "No previous conversation history."
TOO_LONG = "Previous conversation was too long to summarize."
DEFAULT_KEEP = 20
SUMMARY_ATTEMPTS = 3  # F5: the summary call is retried up to 3 attempts (with_retry)


def safe_cutoff(messages: Sequence[BaseMessage], cutoff: int) -> int:
    """F6: move a cut that lands on tool results back to the AI message that called them."""
    if cutoff >= len(messages) or not isinstance(messages[cutoff], ToolMessage):
        return cutoff
    ids, idx = set(), cutoff
    while idx < len(messages) and isinstance(messages[idx], ToolMessage):
        if messages[idx].tool_call_id:
            ids.add(messages[idx].tool_call_id)
        idx += 1
    for i in range(cutoff - 1, -1, -1):
        m = messages[i]
        if isinstance(m, AIMessage) and m.tool_calls and ids & {c.id for c in m.tool_calls if c.id}:
            return i
    return idx


def trim_for_summary(
    messages: Sequence[BaseMessage],
    max_tokens: int | None,
    count: Callable[[Sequence[BaseMessage]], int],
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
        model: Any = None,
        *,
        trigger: Any = None,
        keep: Any = ("messages", 20),
        summary_prompt: str | None = None,
        trim_tokens_to_summarize: int | None = 4000,
        summarizer: Callable[..., Any] | None = None,
    ) -> None:
        self.model_spec = model
        self.model: Any = None if isinstance(model, str) or model is None else model
        self.triggers = parse_triggers(trigger)
        self.keep = ContextSize.parse(keep, "keep")
        self.summary_prompt = summary_prompt or DEFAULT_PROMPT
        self.trim_tokens = trim_tokens_to_summarize
        self.summarizer = summarizer
        self.count: Callable[[Sequence[BaseMessage]], int] = count_tokens_approximately
        self._info: Any = None

    def agentc_bind(self, info: Any) -> None:
        self._info = info

    def summary_model(self) -> Any:
        if self.model is None:
            if self._info is None:
                raise ValueError("summarization needs a `model`")
            self.model = self._info.model(self.model_spec)
        return self.model

    def window(self) -> int | None:
        """The summary model's context window (fractions need it, F4)."""
        profile = getattr(self.summary_model(), "profile", None)
        return getattr(profile, "context_window", None)

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

    async def abefore_model(self, state: Mapping[str, Any], runtime: Any) -> dict | None:
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
        model, last = self.summary_model(), None
        for _ in range(SUMMARY_ATTEMPTS):
            try:
                return await model.generate(ModelRequest(messages=(HumanMessage(content=prompt),)))
            except Exception as exc:  # noqa: BLE001 - F5: retried like with_retry
                last = exc
        raise last  # type: ignore[misc]


def parse_triggers(trigger: Any) -> list[ContextSize]:
    if trigger is None:
        return []
    items = (
        trigger
        if isinstance(trigger, list) and trigger and isinstance(trigger[0], (list, tuple, dict))
        else [trigger]
    )
    return [ContextSize.parse(t, "trigger") for t in items]


SummarizationMiddleware = Summarization
