from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    value: str


def build(kit):
    g = StateGraph(State)
    g.add_node("left", kit.steps.left)
    g.add_node("right", kit.steps.right)
    g.add_edge(START, "left")
    g.add_edge(START, "right")
    g.add_edge("left", END)
    g.add_edge("right", END)
    return g.compile()
