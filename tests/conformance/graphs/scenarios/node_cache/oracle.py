from typing import TypedDict

from langgraph.cache.memory import InMemoryCache
from langgraph.graph import END, START, StateGraph
from langgraph.types import CachePolicy


class State(TypedDict):
    x: int
    result: int


def build(kit):
    g = StateGraph(State)
    g.add_node("expensive", kit.steps.expensive, cache_policy=CachePolicy(ttl=60))
    g.add_edge(START, "expensive")
    g.add_edge("expensive", END)
    return g.compile(cache=InMemoryCache())
