from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    user: str
    fact: str
    saved: str
    recalled: list[str]


def build(kit):
    g = StateGraph(State)
    g.add_node("remember", kit.steps.remember)
    g.add_node("recall", kit.steps.recall)
    g.add_edge(START, "remember")
    g.add_edge("remember", "recall")
    g.add_edge("recall", END)
    return g.compile(store=kit.store)
