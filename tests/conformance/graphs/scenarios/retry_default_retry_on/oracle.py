import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy


class State(TypedDict):
    log: Annotated[list[str], operator.add]


def build(kit):
    g = StateGraph(State)
    g.add_node("strict", kit.steps.strict, retry_policy=RetryPolicy(initial_interval=0.01))
    g.add_edge(START, "strict")
    g.add_edge("strict", END)
    return g.compile()
