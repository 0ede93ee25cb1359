"""The Python nodes docs/coming-from-langchain.md shows beside its `Command` example."""

from agentc import Command, interrupt


def write(state):
    return {"draft": f"A note about {state['topic']}."}


def review(state):
    answer = interrupt({"draft": state["draft"]})
    return Command(update={"verdict": answer}, goto="__end__" if answer == "ok" else "write")
