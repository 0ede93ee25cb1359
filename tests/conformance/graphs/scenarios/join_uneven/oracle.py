import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    log: Annotated[list[str], operator.add]


def build(kit):
    s = kit.steps
    g = StateGraph(State)
    for n in ("a", "b1", "b2", "c"):
        g.add_node(n, getattr(s, n))
    g.add_edge(START, "a")
    g.add_edge(START, "b1")
    g.add_edge("b1", "b2")
    g.add_edge(["a", "b2"], "c")
    g.add_edge("c", END)
    return g.compile()
