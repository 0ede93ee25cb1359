from typing import TypedDict

from langgraph.graph import START, StateGraph


class SubgraphState(TypedDict):
    foo: str
    bar: str


class ParentState(TypedDict):
    foo: str


def build(kit):
    s = kit.steps
    sub = StateGraph(SubgraphState)
    sub.add_node("subgraph_node_1", s.subgraph_node_1)
    sub.add_node("subgraph_node_2", s.subgraph_node_2)
    sub.add_edge(START, "subgraph_node_1")
    sub.add_edge("subgraph_node_1", "subgraph_node_2")
    g = StateGraph(ParentState)
    g.add_node("node_1", s.node_1)
    g.add_node("node_2", sub.compile())
    g.add_edge(START, "node_1")
    g.add_edge("node_1", "node_2")
    return g.compile()
