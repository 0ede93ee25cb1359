from typing import Annotated, TypedDict

from langchain_core.messages import AnyMessage, SystemMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages


class State(TypedDict):
    persona: str
    history: Annotated[list[AnyMessage], add_messages]
    turns: int


def build(kit):
    def chat(state):
        prompt = SystemMessage(f"You are {state['persona']}. Answer in one line.")
        return {"history": [kit.model("chat").invoke([prompt, *state["history"]])]}

    g = StateGraph(State)
    g.add_node("chat", chat)
    g.add_node("count", kit.steps.count)
    g.add_edge(START, "chat")
    g.add_edge("chat", "count")
    g.add_edge("count", END)
    return g.compile(checkpointer=kit.checkpointer)
