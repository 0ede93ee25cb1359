import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    log: Annotated[list[str], operator.add]


def build(kit):
    s = kit.steps
    g = StateGraph(State)
    g.add_node("ask_name", s.ask_name)
    g.add_node("ask_city", s.ask_city)
    g.add_node("summary", s.summary)
    g.add_edge(START, "ask_name")
    g.add_edge(START, "ask_city")
    g.add_edge(["ask_name", "ask_city"], "summary")
    g.add_edge("summary", END)
    return g.compile(checkpointer=kit.checkpointer)
