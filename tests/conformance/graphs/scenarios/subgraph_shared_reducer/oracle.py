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
    g.add_node("prepare", s.prepare)
    g.add_node("child", child.compile())
    g.add_node("after", s.after)
    g.add_edge(START, "prepare")
    g.add_edge("prepare", "child")
    g.add_edge("child", "after")
    g.add_edge("after", END)
    return g.compile()
