import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    topic: str
    subject: str
    text: str
    log: Annotated[list[str], operator.add]


def build(kit):
    s = kit.steps
    g = StateGraph(State)
    g.add_node("pick", s.pick)
    g.add_node("write", s.write)
    g.add_node("finish", s.finish)
    g.add_edge(START, "pick")
    g.add_edge("pick", "write")
    g.add_edge("write", "finish")
    g.add_edge("finish", END)
    return g.compile(checkpointer=kit.checkpointer)
