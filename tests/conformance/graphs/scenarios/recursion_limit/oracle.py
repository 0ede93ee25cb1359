from typing import TypedDict

from langgraph.graph import START, StateGraph


class State(TypedDict):
    n: int


def build(kit, limit=None):
    g = StateGraph(State)
    g.add_node("tick", kit.steps.tick)
    g.add_edge(START, "tick")
    g.add_conditional_edges("tick", kit.steps.again, ["tick"])
    graph = g.compile()
    return graph if limit is None else graph.with_config(recursion_limit=limit)
