from typing import Literal, TypedDict

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, Field


class Route(BaseModel):
    """Where the request goes."""

    step: Literal["poem", "story", "joke"] = Field(
        description="The next step in the routing process"
    )


class State(TypedDict):
    input: str
    decision: Route
    output: str


def build(kit):
    def call(name):
        def node(state):
            return {"output": kit.model(name).invoke(state["input"]).content}

        return node

    def llm_call_router(state):
        router = kit.model("router").with_structured_output(Route)
        decision = router.invoke(
            [
                SystemMessage(
                    content="Route the input to story, joke, or poem based on the user's request."
                ),
                HumanMessage(content=state["input"]),
            ]
        )
        return {"decision": decision}

    g = StateGraph(State)
    g.add_node("llm_call_1", call("story"))
    g.add_node("llm_call_2", call("joke"))
    g.add_node("llm_call_3", call("poem"))
    g.add_node("llm_call_router", llm_call_router)
    g.add_edge(START, "llm_call_router")
    g.add_conditional_edges(
        "llm_call_router",
        kit.steps.route_decision,
        {"llm_call_1": "llm_call_1", "llm_call_2": "llm_call_2", "llm_call_3": "llm_call_3"},
    )
    for n in ("llm_call_1", "llm_call_2", "llm_call_3"):
        g.add_edge(n, END)
    return g.compile()
