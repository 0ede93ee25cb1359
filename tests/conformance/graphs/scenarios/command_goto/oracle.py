import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    n: int
    log: Annotated[list[str], operator.add]


def build(kit, destinations=("big", "small")):
    s = kit.steps
    g = StateGraph(State)
    g.add_node("decide", s.decide, destinations=tuple(destinations))
    g.add_node("big", s.big)
    g.add_node("small", s.small)
    g.add_edge(START, "decide")
    g.add_edge("big", END)
    g.add_edge("small", END)
    return g.compile()
