"""State-schema names of LangChain's middleware API, so a `state_schema` ports unchanged.

Input: nothing (definitions only). `AgentState` is the TypedDict a middleware's
`state_schema` extends; `PrivateStateAttr`, `OmitFromInput` and `OmitFromOutput` mark a
field's visibility inside `Annotated[…]`. agentc never reads these at run time: the compiler
reads a `state_schema` statically (compiler/pyscan.py) and lowers each field to a state
channel whose `input` / `output` flags follow the marker, as LangChain omits such fields
from the graph's input and output schemas.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from ...runtime.records import dataclass
from ..messages import BaseMessage

JumpTo = Literal["model", "tools", "end"]  # LangChain's name; ir.JumpTarget's values


@dataclass(frozen=True, slots=True)
class OmitFromSchema:
    """Leave a state field out of the input schema, the output schema, or both."""

    input: bool = True
    output: bool = True


OmitFromInput = OmitFromSchema(input=True, output=False)
OmitFromOutput = OmitFromSchema(input=False, output=True)
PrivateStateAttr = OmitFromSchema(input=True, output=True)


class AgentState(TypedDict, total=False):
    """The agent's own channels; a middleware's `state_schema` subclasses it."""

    messages: list[BaseMessage]
    jump_to: JumpTo | None
    structured_response: Any
