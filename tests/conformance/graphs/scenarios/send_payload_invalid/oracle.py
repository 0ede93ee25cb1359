import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    log: Annotated[list[str], operator.add]


class WorkInput(TypedDict):
    subject: str


def build(kit):
    s = kit.steps
    g = StateGraph(State)
    g.add_node("plan", s.plan)
    g.add_node("work", s.work, input_schema=WorkInput)
    g.add_edge(START, "plan")
    g.add_conditional_edges("plan", s.fan_out, ["work"])
    g.add_edge("work", END)
    return g.compile()
