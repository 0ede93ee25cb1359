import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    task: str
    result: str
    log: Annotated[list[str], operator.add]


def build(kit):
    g = StateGraph(State)
    g.add_node("work", kit.steps.work)
    g.add_node("report", kit.steps.report)
    g.add_edge(START, "work")
    g.add_edge("work", "report")
    g.add_edge("report", END)
    return g.compile()
