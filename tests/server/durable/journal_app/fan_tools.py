"""The journal tests' nodes: each tool call appends `<tool>` to the file `$JOURNAL_CALLS`
(read at each call, so every test names its own file)."""

from __future__ import annotations

import os
from typing import Any

from agentc import Send, interrupt
from agentc.stdlib.messages import AIMessage, ToolMessage

NAMES = ("a", "b", "c")


def plan(state: dict[str, Any]) -> dict[str, Any]:
    calls = [{"name": n, "args": {}, "id": f"call_{n}"} for n in NAMES]
    return {"messages": [AIMessage(content="", tool_calls=calls)]}


def fan(state: dict[str, Any]) -> list[Send]:
    return [Send("call", {"call": c}) for c in state["messages"][-1].tool_calls]


def call(state: dict[str, Any]) -> dict[str, Any]:
    c = state["call"]
    with open(os.environ["JOURNAL_CALLS"], "a") as f:
        f.write(c.name + "\n")
    return {"messages": [ToolMessage(content=c.name, tool_call_id=c.id, name=c.name)]}


def answer(state: dict[str, Any]) -> dict[str, Any]:
    done = sorted(str(m.content) for m in state["messages"][2:])
    return {"messages": [AIMessage(content="done: " + ",".join(done))]}


def ask(state: dict[str, Any]) -> dict[str, Any]:
    return {"answer": interrupt("ok?")}
