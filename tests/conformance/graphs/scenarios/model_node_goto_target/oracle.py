from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    topic: str
    style: str
    text: str


def build(kit):
    def writer(name, ask):
        def node(state):
            return {"text": kit.model(name).invoke(f"{ask} about {state['topic']}").content}

        return node

    g = StateGraph(State)
    g.add_node("gate", kit.steps.gate, destinations=("short", "long"))
    g.add_node("short", writer("short", "Write one line"))
    g.add_node("long", writer("long", "Write a paragraph"))
    g.add_edge(START, "gate")
    g.add_edge("short", END)
    g.add_edge("long", END)
    return g.compile()
