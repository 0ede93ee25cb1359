import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class Ctx(TypedDict):
    user_id: str
    tone: str


class State(TypedDict):
    text: str
    greeting: str
    log: Annotated[list[str], operator.add]


def build(kit):
    g = StateGraph(State, context_schema=Ctx)
    g.add_node("greet", kit.steps.greet)
    g.add_node("sign", kit.steps.sign)
    g.add_edge(START, "greet")
    g.add_edge("greet", "sign")
    g.add_edge("sign", END)
    return g.compile()
