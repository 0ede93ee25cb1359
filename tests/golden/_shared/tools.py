"""Tools for golden cases (read statically, never imported)."""
from typing import Annotated, Literal, Optional

from langchain.agents.middleware import AgentMiddleware, after_agent, after_model, before_agent, before_model, hook_config, wrap_model_call, wrap_tool_call
from langchain.tools import InjectedState, InjectedToolCallId, ToolRuntime, tool
from pydantic import BaseModel, Field


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def nodoc(x: str) -> str:
    return x


@tool("search", return_direct=True)
def find(query: str, limit: Optional[int] = 5) -> str:
    """Search the web and return the answer directly."""
    return query


@tool
def remember(note: Annotated[str, "what to remember"], state: Annotated[dict, InjectedState], call_id: Annotated[str, InjectedToolCallId], runtime: ToolRuntime, mode: Literal["short", "long"] = "short") -> str:
    """Store a note."""
    return note


class Invoice(BaseModel):
    """An invoice."""
    number: str = Field(description="invoice number")
    total: float
    lines: list[str] = []


def check_draft(state):
    return {"approved": True}


def publish(state):
    return {}


def pick(state):
    return "done"


def log_turn(state):
    return None


@before_model
def trim(state, runtime):
    return None


@after_model(can_jump_to=["end"])
def guard(state, runtime):
    return None


@before_agent
def start(state, runtime):
    return None


@after_agent
def finish(state, runtime):
    return None


@wrap_model_call
def retry_model(request, handler):
    return handler(request)


@wrap_tool_call
def log_tool(request, handler):
    return handler(request)


class Audit(AgentMiddleware):
    def before_agent(self, state, runtime):
        return None

    @hook_config(can_jump_to=["end"])
    def after_model(self, state, runtime):
        return None
