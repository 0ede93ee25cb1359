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
    g.add_node("child", child.compile(), destinations=("escalate",))
    g.add_node("escalate", s.escalate)
    g.add_node("normal", s.normal)
    g.add_edge(START, "child")
    g.add_edge("escalate", END)
    g.add_edge("normal", END)
    return g.compile()
