"""The reference side of the graph twin: a plain StateGraph (custom events, an interrupt, a
reducer channel), served by `langgraph dev`. Its twin is `flow` in twin.agent."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt


class State(TypedDict):
    topic: str
    draft: str
    approved: bool
    log: Annotated[list[str], operator.add]


def draft(state: State) -> dict:
    write = get_stream_writer()
    write({"progress": 1, "of": 2})
    write({"progress": 2, "of": 2})
    return {"draft": f"A post about {state['topic']}", "log": ["drafted"]}


def approve(state: State) -> dict:
    return {"approved": interrupt({"question": "Publish this draft?", "draft": state["draft"]})}


def publish(state: State) -> dict:
    return {"log": ["published" if state["approved"] else "discarded"]}


builder = StateGraph(State)
builder.add_node("draft", draft)
builder.add_node("approve", approve)
builder.add_node("publish", publish)
builder.add_edge(START, "draft")
builder.add_edge("draft", "approve")
builder.add_edge("approve", "publish")
builder.add_edge("publish", END)
graph = builder.compile()
