from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


def build(kit):
    tools = [kit.steps.divide]

    def llm_call(state):
        return {"messages": [kit.model("llm").bind_tools(tools).invoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node("llm_call", llm_call)
    g.add_node("tools", ToolNode(tools))
    g.add_edge(START, "llm_call")
    g.add_conditional_edges("llm_call", tools_condition, {"tools": "tools", END: END})
    g.add_edge("tools", "llm_call")
    return g.compile()
