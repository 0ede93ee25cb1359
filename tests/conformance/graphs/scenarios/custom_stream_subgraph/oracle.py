import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    log: Annotated[list[str], operator.add]


def build(kit):
    s = kit.steps
    child = StateGraph(State)
    child.add_node("inner", s.inner)
    child.add_edge(START, "inner")
    child.add_edge("inner", END)
    g = StateGraph(State)
    g.add_node("outer", s.outer)
    g.add_node("child", child.compile())
    g.add_edge(START, "outer")
    g.add_edge("outer", "child")
    g.add_edge("child", END)
    return g.compile()
