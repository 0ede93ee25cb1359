"""Steps of the joke graph (a review case: read, never run by the review tests)."""

from agentc.runtime.types import Command, Send


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def plan(state):
    return {"sections": [{"name": "intro", "description": "set the scene"}]}


def assign(state):
    return [Send("worker", s) for s in state["sections"]]


def gate(state):
    return Command(goto="write" if not state["joke"] else "__end__")


def merge(state):
    return {}


def slow(state):
    return {}
