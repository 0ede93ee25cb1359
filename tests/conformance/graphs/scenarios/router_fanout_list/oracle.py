import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    want: str
    log: Annotated[list[str], operator.add]


def build(kit):
    s = kit.steps
    g = StateGraph(State)
    for n in ("start", "alpha", "beta", "gamma"):
        g.add_node(n, getattr(s, n))
    g.add_edge(START, "start")
    g.add_conditional_edges("start", s.pick, {"alpha": "alpha", "beta": "beta", "gamma": "gamma"})
    for n in ("alpha", "beta", "gamma"):
        g.add_edge(n, END)
    return g.compile()
