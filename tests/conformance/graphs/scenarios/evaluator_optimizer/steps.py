"""The workflows guide's evaluator-optimizer: generate, grade, loop until accepted. The
guide's label `Rejected + Feedback` is `Rejected` here: route labels are names in `.agent`."""

from typing import Literal

import dualside as ds
from pydantic import BaseModel, Field


class Feedback(BaseModel):
    """The evaluator's grade."""

    grade: Literal["funny", "not funny"] = Field(description="Decide if the joke is funny or not.")
    feedback: str = Field(
        description="If the joke is not funny, provide feedback on how to improve it."
    )


def llm_call_generator(state):
    """LLM generates a joke"""
    if state.get("feedback"):
        msg = ds.model("generator").invoke(
            f"Write a joke about {state['topic']} but take into account the feedback: "
            f"{state['feedback']}"
        )
    else:
        msg = ds.model("generator").invoke(f"Write a joke about {state['topic']}")
    return {"joke": msg.content}


def llm_call_evaluator(state):
    """LLM evaluates the joke"""
    grade = (
        ds.model("evaluator")
        .with_structured_output(Feedback)
        .invoke(f"Grade the joke {state['joke']}")
    )
    return {"funny_or_not": grade.grade, "feedback": grade.feedback}


def route_joke(state):
    """Route back to joke generator or end based upon feedback from the evaluator."""
    if state["funny_or_not"] == "funny":
        return "Accepted"
    return "Rejected"
