from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    topic: str
    joke: str
    story: str
    poem: str
    combined_output: str


def build(kit, join=False):
    def call(name, what, key):
        def node(state):
            return {key: kit.model(name).invoke(f"Write a {what} about {state['topic']}").content}

        return node

    g = StateGraph(State)
    g.add_node("call_llm_1", call("joke", "joke", "joke"))
    g.add_node("call_llm_2", call("story", "story", "story"))
    g.add_node("call_llm_3", call("poem", "poem", "poem"))
    g.add_node("aggregator", kit.steps.aggregator)
    for n in ("call_llm_1", "call_llm_2", "call_llm_3"):
        g.add_edge(START, n)
    if join:
        g.add_edge(["call_llm_1", "call_llm_2", "call_llm_3"], "aggregator")
    else:
        for n in ("call_llm_1", "call_llm_2", "call_llm_3"):
            g.add_edge(n, "aggregator")
    g.add_edge("aggregator", END)
    return g.compile()
