import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    topic: str
    draft: str
    approved: bool
    log: Annotated[list[str], operator.add]


def build(kit, **compile_kw):
    s = kit.steps
    g = StateGraph(State)
    g.add_node("draft", s.draft)
    g.add_node("approve", s.approve)
    g.add_node("publish", s.publish)
    g.add_edge(START, "draft")
    g.add_edge("draft", "approve")
    g.add_edge("approve", "publish")
    g.add_edge("publish", END)
    return g.compile(checkpointer=kit.checkpointer, interrupt_after=["draft"])
