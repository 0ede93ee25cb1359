from typing import Annotated, TypedDict

from langchain_core.messages import AnyMessage, SystemMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition

PROMPT = "You are a helpful assistant tasked with performing arithmetic on a set of inputs."


class State(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    llm_calls: int


def build(kit):
    s = kit.steps
    tools = [s.add, s.multiply, s.divide]

    def llm_call(state):
        model = kit.model("llm").bind_tools(tools)
        return {"messages": [model.invoke([SystemMessage(PROMPT), *state["messages"]])]}

    g = StateGraph(State)
    g.add_node("llm_call", llm_call)
    g.add_node("count", s.count)
    g.add_node("tool_node", ToolNode(tools))
    g.add_edge(START, "llm_call")
    g.add_edge("llm_call", "count")
    g.add_conditional_edges("count", tools_condition, {"tools": "tool_node", END: END})
    g.add_edge("tool_node", "llm_call")
    return g.compile()
