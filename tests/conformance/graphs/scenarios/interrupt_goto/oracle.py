import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    topic: str
    draft: str
    log: Annotated[list[str], operator.add]


def build(kit):
    s = kit.steps
    g = StateGraph(State)
    g.add_node("draft", s.draft)
    g.add_node("review", s.review, destinations=("publish", "revise"))
    g.add_node("revise", s.revise)
    g.add_node("publish", s.publish)
    g.add_edge(START, "draft")
    g.add_edge("draft", "review")
    g.add_edge("revise", "review")
    g.add_edge("publish", END)
    return g.compile(checkpointer=kit.checkpointer)
