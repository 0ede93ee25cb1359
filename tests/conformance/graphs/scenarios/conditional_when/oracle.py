import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    draft: str
    attempts: int
    approved: bool
    log: Annotated[list[str], operator.add]


def build(kit, **compile_kw):
    s = kit.steps
    g = StateGraph(State)
    g.add_node("write", s.write)
    g.add_node("check", s.check)
    g.add_node("publish", s.publish)
    g.add_edge(START, "write")
    g.add_edge("write", "check")
    g.add_conditional_edges("check", s.after_check, ["publish", "write"])
    g.add_edge("publish", END)
    return g.compile(checkpointer=kit.checkpointer, **compile_kw)
