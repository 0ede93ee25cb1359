from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class ChildState(TypedDict):
    topic: str
    draft: str
    joke: str


class ParentState(TypedDict):
    topic: str
    joke: str


def build(kit):
    def write(state):
        return {"draft": kit.model("write").invoke(f"Write a joke about {state['topic']}").content}

    child = StateGraph(ChildState)
    child.add_node("write", write)
    child.add_node("polish", kit.steps.polish)
    child.add_edge(START, "write")
    child.add_edge("write", "polish")
    child.add_edge("polish", END)
    g = StateGraph(ParentState)
    g.add_node("prepare", kit.steps.prepare)
    g.add_node("joker", child.compile())
    g.add_edge(START, "prepare")
    g.add_edge("prepare", "joker")
    g.add_edge("joker", END)
    return g.compile()
