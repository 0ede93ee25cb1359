from typing import TypedDict

from langgraph.cache.memory import InMemoryCache
from langgraph.graph import END, START, StateGraph
from langgraph.types import CachePolicy


class State(TypedDict):
    topic: str
    joke: str


def build(kit):
    def write(state):
        return {"joke": kit.model("write").invoke(f"Write a joke about {state['topic']}").content}

    g = StateGraph(State)
    g.add_node("write", write, cache_policy=CachePolicy(ttl=60))
    g.add_edge(START, "write")
    g.add_edge("write", END)
    return g.compile(cache=InMemoryCache())
