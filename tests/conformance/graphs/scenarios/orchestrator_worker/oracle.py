import operator
from typing import Annotated, TypedDict

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph

WORKER_PROMPT = (
    "Write a report section following the provided name and description. "
    "Include no preamble for each section. Use markdown formatting."
)


def build(kit):
    s = kit.steps

    class State(TypedDict):
        topic: str
        sections: list[s.Section]
        completed_sections: Annotated[list, operator.add]
        final_report: str

    class WorkerState(TypedDict):
        section: s.Section
        completed_sections: Annotated[list, operator.add]

    def llm_call(state: WorkerState):
        section = kit.model("worker").invoke(
            [
                SystemMessage(content=WORKER_PROMPT),
                HumanMessage(
                    content=f"Here is the section name: {state['section'].name} "
                    f"and description: {state['section'].description}"
                ),
            ]
        )
        return {"completed_sections": [section.content]}

    g = StateGraph(State)
    g.add_node("orchestrator", s.orchestrator)
    g.add_node("llm_call", llm_call)
    g.add_node("synthesizer", s.synthesizer)
    g.add_edge(START, "orchestrator")
    g.add_conditional_edges("orchestrator", s.assign_workers, ["llm_call"])
    g.add_edge("llm_call", "synthesizer")
    g.add_edge("synthesizer", END)
    return g.compile()
