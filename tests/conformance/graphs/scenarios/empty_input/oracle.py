import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    log: Annotated[list[str], operator.add]


def build(kit):
    g = StateGraph(State)
    g.add_node("a", kit.steps.a)
    g.add_edge(START, "a")
    g.add_edge("a", END)
    return g.compile()
