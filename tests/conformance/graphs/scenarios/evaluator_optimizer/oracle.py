from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    joke: str
    topic: str
    feedback: str
    funny_or_not: str


def build(kit):
    s = kit.steps
    g = StateGraph(State)
    g.add_node("llm_call_generator", s.llm_call_generator)
    g.add_node("llm_call_evaluator", s.llm_call_evaluator)
    g.add_edge(START, "llm_call_generator")
    g.add_edge("llm_call_generator", "llm_call_evaluator")
    g.add_conditional_edges(
        "llm_call_evaluator",
        s.route_joke,
        {"Accepted": END, "Rejected": "llm_call_generator"},
    )
    return g.compile()
