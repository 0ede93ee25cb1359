from langchain_core.messages import SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

PROMPT = "You are a helpful assistant tasked with performing arithmetic on a set of inputs."


def build(kit):
    tools = [kit.steps.add, kit.steps.multiply]

    def llm_call(state):
        model = kit.model("llm").bind_tools(tools)
        return {"messages": [model.invoke([SystemMessage(content=PROMPT), *state["messages"]])]}

    g = StateGraph(MessagesState)
    g.add_node("llm_call", llm_call)
    g.add_node("tools", ToolNode(tools))
    g.add_edge(START, "llm_call")
    g.add_conditional_edges("llm_call", tools_condition, {"tools": "tools", END: END})
    g.add_edge("tools", "llm_call")
    return g.compile()
