import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    items: list[int]
    log: Annotated[list[str], operator.add]


def build(kit):
    s = kit.steps
    g = StateGraph(State)
    g.add_node("plan", s.plan, destinations=("work",))
    g.add_node("work", s.work)
    g.add_edge(START, "plan")
    g.add_edge("work", END)
    return g.compile()
