"""Tools for the check cases (read statically, never imported)."""

from typing import Annotated

from langchain.agents.middleware import AgentMiddleware, after_model, before_model, hook_config
from langchain.tools import InjectedState, tool
from pydantic import BaseModel


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@tool("add")
def plus(a: int, b: int) -> int:
    """Add, under another name."""
    return a + b


def undocumented(x: str) -> str:
    return x


@tool(return_direct=True)
def lookup(query: str, state: Annotated[dict, InjectedState]) -> str:
    """Look something up."""
    return query


def check_draft(state):
    return {}


def pick(state):
    return "a"


def is_done(state) -> bool:
    return True


@before_model
def log_turn(state, runtime):
    return None


@after_model(can_jump_to=["end"])
def stop_early(state, runtime):
    return None


def not_a_hook(state):
    return None


class Audit(AgentMiddleware):
    def before_agent(self, state, runtime):
        return None


class Invoice:
    pass


class JumpsToTools(AgentMiddleware):
    @hook_config(can_jump_to=["tools"])
    def after_model(self, state, runtime):
        return None


class Configurable(AgentMiddleware):
    def __init__(self, level: int, *, label: str = "x"):
        super().__init__()
        self.level = level

    def before_model(self, state, runtime):
        return None


class Flexible(AgentMiddleware):
    def __init__(self, **kwargs):
        super().__init__()

    def before_model(self, state, runtime):
        return None


class Section(BaseModel):
    """What a Send to a worker carries."""

    name: str
    description: str
