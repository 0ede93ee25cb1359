"""Python nodes, routers and tools of the graph examples in this folder.

Each function takes the graph's state (and, where it asks for one, the run's `ctx`) and
returns the channels it writes, a `Send` list, or a label. The models Python nodes call are
scripted so the examples run offline; put a real model string (e.g. "openai:gpt-4o-mini")
in `model_for` to run them against a provider.
"""

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from agentc.models import init_chat_model
from agentc.runtime.types import Send
from agentc.stdlib.messages import SystemMessage, ToolMessage

HERE = Path(__file__).resolve().parent


def model_for(example: str, node: str):
    """The scripted model of one node of an example (`replies/EXAMPLE/NODE.json`)."""
    return init_chat_model(f"scripted:{HERE / 'replies' / example / (node + '.json')}")


# ---------------------------------------------------------------- calculator tools


def add(a: int, b: int) -> int:
    """Adds `a` and `b`."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply `a` and `b`."""
    return a * b


def divide(a: int, b: int) -> float:
    """Divide `a` and `b`."""
    return a / b


def count_call(state):
    """Count the model calls of the run."""
    return {"llm_calls": state.get("llm_calls", 0) + 1}


# ---------------------------------------------------------------- quickstart in Python

CALCULATOR_PROMPT = (
    "You are a helpful assistant tasked with performing arithmetic on a set of inputs."
)
TOOLS = {"add": add, "multiply": multiply, "divide": divide}
_models: dict = {}


def _model(example: str, node: str):
    # one model per node for the whole process: its scripted replies are used in turn
    key = (example, node)
    if key not in _models:
        _models[key] = model_for(example, node)
    return _models[key]


def llm_call(state):
    """Ask the model, with the calculator tools bound; count the call."""
    model = _model("quickstart_python", "llm_call").bind_tools([add, multiply, divide])
    reply = model.invoke([SystemMessage(content=CALCULATOR_PROMPT), *state["messages"]])
    return {"messages": [reply], "llm_calls": state.get("llm_calls", 0) + 1}


def tool_node(state):
    """Run every tool call of the last model reply."""
    out = []
    for call in state["messages"][-1].tool_calls:
        result = TOOLS[call.name](**call.args)
        out.append(ToolMessage(content=str(result), tool_call_id=call.id, name=call.name))
    return {"messages": out}


def should_continue(state):
    """Run the tools the model asked for, or end."""
    return "tool_node" if state["messages"][-1].tool_calls else "__end__"


# ---------------------------------------------------------------- prompt chaining


def check_punchline(state):
    """Gate: a joke with a punchline (? or !) is done; another is improved."""
    if "?" in state["joke"] or "!" in state["joke"]:
        return "Pass"
    return "Fail"


# ---------------------------------------------------------------- parallelization


def aggregator(state):
    """Combine the joke, story and poem into a single output."""
    combined = f"Here's a story, joke, and poem about {state['topic']}!\n\n"
    combined += f"STORY:\n{state['story']}\n\n"
    combined += f"JOKE:\n{state['joke']}\n\n"
    combined += f"POEM:\n{state['poem']}"
    return {"combined_output": combined}


# ---------------------------------------------------------------- routing


def route_decision(state):
    """The node that handles the request, from the router's structured answer."""
    return {"story": "llm_call_1", "joke": "llm_call_2", "poem": "llm_call_3"}[
        state["decision"]["step"]
    ]


# ---------------------------------------------------------------- orchestrator-worker


class Section(BaseModel):
    """One section of the report."""

    name: str = Field(description="Name for this section of the report.")
    description: str = Field(description="Brief overview of the main topics of this section.")


class Sections(BaseModel):
    """The report's plan."""

    sections: list[Section] = Field(description="Sections of the report.")


def orchestrator(state):
    """Plan the report: a structured list of sections."""
    planner = _model("orchestrator_worker", "orchestrator").with_structured_output(Sections)
    plan = planner.invoke(f"Generate a plan for the report. The topic: {state['topic']}")
    return {"sections": [s.model_dump() for s in plan.sections]}


def assign_workers(state):
    """One worker per planned section."""
    return [Send("llm_call", {"section": s}) for s in state["sections"]]


def synthesizer(state):
    """Join the written sections into the final report."""
    return {"final_report": "\n\n---\n\n".join(state["completed_sections"])}


# ---------------------------------------------------------------- evaluator-optimizer


class Feedback(BaseModel):
    """The evaluator's grade."""

    grade: Literal["funny", "not funny"] = Field(description="Decide if the joke is funny or not.")
    feedback: str = Field(description="If the joke is not funny, how to improve it.")


def generator(state):
    """Write a joke, taking the last feedback into account when there is some."""
    model = _model("evaluator_optimizer", "generator")
    if state.get("feedback"):
        prompt = (
            f"Write a joke about {state['topic']} but take into account the feedback: "
            f"{state['feedback']}"
        )
    else:
        prompt = f"Write a joke about {state['topic']}"
    return {"joke": model.invoke(prompt).content}


def evaluator(state):
    """Grade the joke with a structured answer."""
    grader = _model("evaluator_optimizer", "evaluator").with_structured_output(Feedback)
    grade = grader.invoke(f"Grade the joke {state['joke']}")
    return {"funny_or_not": grade.grade, "feedback": grade.feedback}


def route_joke(state):
    """Done when the joke is funny; otherwise write it again."""
    return "Accepted" if state["funny_or_not"] == "funny" else "Rejected"
