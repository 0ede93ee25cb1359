"""The oracle's side of the seat tests: a LangChain chat model that answers from a script
(an `AIMessage`, or an exception raised by that call) and keeps every request it received,
and the normalisers both sides' traces go through before they are compared. Imported only
by tests that run the real LangChain."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field


class LcScripted(BaseChatModel):
    """Replies in order; an exception in the script is raised by the call that reaches it."""

    script: list[Any] = Field(default_factory=list)
    calls: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> LcScripted:
        return self  # one object, so `calls` sees every request of the run

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        self.calls.append(list(messages))
        if len(self.calls) > len(self.script):
            raise RuntimeError("the scripted model ran out of replies")
        entry = self.script[len(self.calls) - 1]
        if isinstance(entry, BaseException):
            raise entry
        message = AIMessage(content=entry) if isinstance(entry, str) else entry
        return ChatResult(generations=[ChatGeneration(message=message)])


def lc_reply(entry: Any) -> Any:
    """The agentc script's form of one reply (a string, a dict with tool calls) for LangChain."""
    if isinstance(entry, dict) and "tool_calls" in entry:
        return AIMessage(content=entry.get("content", ""), tool_calls=entry["tool_calls"])
    return entry


def trace(messages: Any) -> list[tuple]:
    """(type, text, tool calls, answered call id, tool status) of each message, ids aside."""
    out = []
    for m in messages:
        calls = tuple(
            (c["name"], tuple(sorted(c["args"].items())), c["id"])
            if isinstance(c, dict)
            else (c.name, tuple(sorted(c.args.items())), c.id)
            for c in getattr(m, "tool_calls", None) or []
        )
        status = getattr(m, "status", None) if m.type == "tool" else None
        out.append((m.type, m.content, calls, getattr(m, "tool_call_id", None), status))
    return out


def seen(requests: Any) -> list[list[tuple]]:
    """What each model call received: agentc `ModelRequest`s or LangChain message lists."""
    return [trace(getattr(r, "messages", r)) for r in requests]
