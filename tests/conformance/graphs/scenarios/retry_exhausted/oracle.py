import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy


class State(TypedDict):
    log: Annotated[list[str], operator.add]


def build(kit, attempts=2):
    s = kit.steps
    g = StateGraph(State)
    policy = RetryPolicy(max_attempts=attempts, initial_interval=0.01, jitter=False)
    g.add_node("flaky", s.flaky, retry_policy=policy)
    g.add_node("done", s.done)
    g.add_edge(START, "flaky")
    g.add_edge("flaky", "done")
    g.add_edge("done", END)
    return g.compile()
