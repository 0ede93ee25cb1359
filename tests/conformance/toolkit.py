"""The small shared tool library of the conformance scenarios.

Written with agentc's `@tool` and markers; the LangChain side of the harness rebuilds each
as a LangChain tool with the same name, description, schema and options (`harness.py`).
Plain functions are given to both as they are (B11).
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

from pydantic import BaseModel
from typing_extensions import TypedDict

from agentc.runtime.types import Command
from agentc.stdlib.messages import ToolMessage
from agentc.stdlib.tools import (
    InjectedState,
    InjectedStore,
    InjectedToolCallId,
    ToolException,
    ToolRuntime,
    tool,
)


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply two integers.

    Both must be whole numbers."""
    return a * b


def echo(text: str) -> str:
    """Echo the text back."""
    return text


def as_list(n: int) -> list[str]:
    """Return n words as a list of strings."""
    return [f"w{i}" for i in range(n)]


def as_dict(key: str) -> dict[str, Any]:
    """Return a dict."""
    return {"key": key, "ünï": [1, 2.5, None, True]}


def as_blocks(text: str) -> list[dict[str, str]]:
    """Return typed text blocks."""
    return [{"type": "text", "text": text}]


def as_none() -> None:
    """Return nothing."""
    return None


class Point(BaseModel):
    x: int
    y: int


def as_model() -> Point:
    """Return a pydantic model."""
    return Point(x=1, y=2)


def crash(reason: str) -> str:
    """Always fails."""
    raise RuntimeError(reason)


def fails(reason: str) -> str:
    """Raises a ToolException."""
    raise ToolException(reason)


@tool("fails_handled", handle_tool_error=True)
def fails_handled(reason: str) -> str:
    """Raises a ToolException that the tool itself handles."""
    raise ToolException(reason)


@tool("lookup", return_direct=True)
def lookup(key: str) -> str:
    """Look a key up and return the value directly."""
    return f"value of {key}"


@tool("fetch", response_format="content_and_artifact")
def fetch(url: str) -> tuple[str, dict[str, Any]]:
    """Fetch a page: text for the model, raw data as the artifact."""
    return f"page {url}", {"url": url, "bytes": 42}


def count_messages(state: Annotated[dict, InjectedState]) -> str:
    """Count the messages in the conversation."""
    return str(len(state["messages"]))


def who_called(q: str, call_id: Annotated[str, InjectedToolCallId]) -> str:
    """Say which call this is."""
    return f"{q} from {call_id}"


def set_flag(value: str, call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """Answer through a Command that also ends the run."""
    return Command(
        update={"messages": [ToolMessage(content=f"flag={value}", tool_call_id=call_id)]},
        goto="__end__",
    )


def bad_command(value: str) -> Command:
    """Return a Command that does not answer its call."""
    return Command(update={"messages": []})


def remember(user: str, fact: str, store: Annotated[Any, InjectedStore]) -> str:
    """Remember a fact about a user for later conversations."""
    store.put(("memories", user), fact, {"fact": fact})
    return "saved"


def recall(user: str, store: Annotated[Any, InjectedStore]) -> str:
    """Recall the facts known about a user."""
    return ", ".join(i.value["fact"] for i in store.search(("memories", user))) or "nothing"


def has_store(runtime: ToolRuntime) -> str:
    """Say whether this run has a long-term store."""
    return "no store" if runtime.store is None else "a store"


class Answer(BaseModel):
    """A checked answer."""

    value: int
    explanation: str


class Other(BaseModel):
    """Another shape."""

    label: str


class TDAnswer(TypedDict):
    """An answer as a TypedDict."""

    value: int


@dataclasses.dataclass
class DCAnswer:
    """An answer as a dataclass."""

    value: int


RAW_SCHEMA = {
    "title": "Raw",
    "description": "A raw JSON schema.",
    "type": "object",
    "properties": {"value": {"type": "integer"}},
    "required": ["value"],
}


@tool("echo")
def echo_loud(text: str) -> str:
    """Echo the text back, loudly."""
    return text.upper()


def ask_human(question: str) -> str:
    """Ask a person and return the answer."""
    from agentc.runtime import interrupt

    return str(interrupt(question))
