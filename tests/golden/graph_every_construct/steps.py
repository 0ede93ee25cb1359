"""Python nodes and routers for the every-construct golden case (read statically)."""

from pydantic import BaseModel


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def plan(state):
    return {"sections": []}


def assign(state):
    return []


def gate(state):
    return None


def merge(state):
    return {}


def slow(state):
    return {}


class Payload(BaseModel):
    """What a Send to `outline` carries."""

    name: str
    description: str
