import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    name: str
    log: Annotated[list[str], operator.add]


def build(kit):
    s = kit.steps
    child = StateGraph(State)
    child.add_node("ask", s.ask)
    child.add_edge(START, "ask")
    child.add_edge("ask", END)
    g = StateGraph(State)
    g.add_node("prepare", s.prepare)
    g.add_node("child", child.compile())
    g.add_node("greet", s.greet)
    g.add_edge(START, "prepare")
    g.add_edge("prepare", "child")
    g.add_edge("child", "greet")
    g.add_edge("greet", END)
    return g.compile(checkpointer=kit.checkpointer)
