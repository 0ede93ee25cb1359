import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class Overall(TypedDict):
    topic: str
    subjects: list[str]
    jokes: Annotated[list, operator.add]
    best_selected_joke: str


class JokeInput(TypedDict):
    subject: str


def build(kit):
    s = kit.steps
    g = StateGraph(Overall)
    g.add_node("generate_topics", s.generate_topics)
    g.add_node("generate_joke", s.generate_joke, input_schema=JokeInput)
    g.add_node("best_joke", s.best_joke)
    g.add_edge(START, "generate_topics")
    g.add_conditional_edges("generate_topics", s.continue_to_jokes, ["generate_joke"])
    g.add_edge("generate_joke", "best_joke")
    g.add_edge("best_joke", END)
    return g.compile()
