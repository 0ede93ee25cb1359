import operator
from typing import Annotated, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph import END, START, StateGraph


class MessagesState(TypedDict):
    messages: Annotated[list[AnyMessage], operator.add]
    llm_calls: int


def build(kit):
    s = kit.steps
    g = StateGraph(MessagesState)
    g.add_node("llm_call", s.llm_call)
    g.add_node("tool_node", s.tool_node)
    g.add_edge(START, "llm_call")
    g.add_conditional_edges("llm_call", s.should_continue, ["tool_node", END])
    g.add_edge("tool_node", "llm_call")
    return g.compile()
