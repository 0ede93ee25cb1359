"""LangChain twins of the toolkit tools whose types are LangChain's own (injection markers,
Command, ToolException). Imported only by the LangChain side of the harness."""

from typing import Annotated, Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import InjectedToolCallId, StructuredTool, ToolException
from langgraph.prebuilt import InjectedState, InjectedStore, ToolRuntime
from langgraph.types import Command


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


def fails_handled(reason: str) -> str:
    """Raises a ToolException that the tool itself handles."""
    raise ToolException(reason)


def ask_human(question: str) -> str:
    """Ask a person and return the answer."""
    from langgraph.types import interrupt

    return str(interrupt(question))


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


TWINS = {
    "remember": remember,
    "recall": recall,
    "has_store": has_store,
    "ask_human": ask_human,
    "count_messages": count_messages,
    "who_called": who_called,
    "set_flag": set_flag,
    "bad_command": bad_command,
    "fails_handled": StructuredTool.from_function(
        fails_handled, name="fails_handled", handle_tool_error=True
    ),
}
