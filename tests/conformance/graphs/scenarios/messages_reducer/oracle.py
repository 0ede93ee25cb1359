from langgraph.graph import END, START, MessagesState, StateGraph


def build(kit):
    g = StateGraph(MessagesState)
    g.add_node("edit", kit.steps.edit)
    g.add_edge(START, "edit")
    g.add_edge("edit", END)
    return g.compile()
