import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    log: Annotated[list[str], operator.add]


def build(kit):
    s = kit.steps
    g = StateGraph(State)
    for n in ("first", "quiet", "silent", "last"):
        g.add_node(n, getattr(s, n))
    g.add_edge(START, "first")
    g.add_edge("first", "quiet")
    g.add_edge("quiet", "silent")
    g.add_edge("silent", "last")
    g.add_edge("last", END)
    return g.compile()
