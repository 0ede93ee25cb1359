from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class InputState(TypedDict):
    question: str


class OutputState(TypedDict):
    answer: str


class OverallState(InputState, OutputState):
    notes: str


def build(kit):
    s = kit.steps
    g = StateGraph(OverallState, input_schema=InputState, output_schema=OutputState)
    g.add_node("think", s.think)
    g.add_node("answer", s.answer)
    g.add_edge(START, "think")
    g.add_edge("think", "answer")
    g.add_edge("answer", END)
    return g.compile()
