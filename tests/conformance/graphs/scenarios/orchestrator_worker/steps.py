"""The workflows guide's orchestrator-worker: a planner's sections are sent to workers."""

import dualside as ds
from pydantic import BaseModel, Field


class Section(BaseModel):
    """One section of the report."""

    name: str = Field(description="Name for this section of the report.")
    description: str = Field(description="Brief overview of the main topics of this section.")


class Sections(BaseModel):
    """The report's plan."""

    sections: list[Section] = Field(description="Sections of the report.")


def orchestrator(state):
    """Orchestrator that generates a plan for the report."""
    planner = ds.model("planner").with_structured_output(Sections)
    report_sections = planner.invoke(
        [
            ds.message("system", "Generate a plan for the report."),
            ds.message("human", f"Here is the report topic: {state['topic']}"),
        ]
    )
    return {"sections": report_sections.sections}


def assign_workers(state):
    """Assign a worker to each section in the plan."""
    return [ds.Send("llm_call", {"section": s}) for s in state["sections"]]


def synthesizer(state):
    """Synthesize full report from sections."""
    return {"final_report": "\n\n---\n\n".join(sorted(state["completed_sections"]))}
