from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    topic: str
    joke: str
    improved_joke: str
    final_joke: str


def build(kit):
    def generate_joke(state):
        msg = kit.model("generate").invoke(f"Write a short joke about {state['topic']}")
        return {"joke": msg.content}

    def improve_joke(state):
        msg = kit.model("improve").invoke(
            f"Make this joke funnier by adding wordplay: {state['joke']}"
        )
        return {"improved_joke": msg.content}

    def polish_joke(state):
        msg = kit.model("polish").invoke(
            f"Add a surprising twist to this joke: {state['improved_joke']}"
        )
        return {"final_joke": msg.content}

    g = StateGraph(State)
    g.add_node("generate_joke", generate_joke)
    g.add_node("improve_joke", improve_joke)
    g.add_node("polish_joke", polish_joke)
    g.add_edge(START, "generate_joke")
    g.add_conditional_edges(
        "generate_joke", kit.steps.check_punchline, {"Fail": "improve_joke", "Pass": END}
    )
    g.add_edge("improve_joke", "polish_joke")
    g.add_edge("polish_joke", END)
    return g.compile()
