import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    topic: str
    notes: Annotated[str, operator.add]
    summary: str


def build(kit):
    s = kit.steps

    def summarize(state):
        prompt = f"Summarize these notes on {state['topic']}: {state['notes']}"
        return {"summary": kit.model("summarize").invoke(prompt).content}

    g = StateGraph(State)
    g.add_node("quick", s.quick)
    g.add_node("slow_1", s.slow_1)
    g.add_node("slow_2", s.slow_2)
    g.add_node("summarize", summarize, defer=True)
    g.add_edge(START, "quick")
    g.add_edge(START, "slow_1")
    g.add_edge("slow_1", "slow_2")
    g.add_edge("quick", "summarize")
    g.add_edge("slow_2", "summarize")
    g.add_edge("summarize", END)
    return g.compile()
