"""Runtime errors: each carries a stable diagnostic code and, where known, an IR span.

Input: nothing (definitions only). The runtime raises these for user mistakes (a bad
update, a limit reached, a resume that cannot be honoured); a bug stays a plain exception.
"""

from __future__ import annotations

from typing import Any


class AgentcRuntimeError(Exception):
    """Base of every user-facing runtime error; `code` is a stable kebab-case slug."""

    code = "runtime-error"

    def __init__(self, message: str, *, span: Any = None, help: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.help = help

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span is not None else ""
        hint = f" (help: {self.help})" if self.help else ""
        return f"{where}error[{self.code}]: {self.message}{hint}"


class InvalidUpdateError(AgentcRuntimeError):
    """A write the channels cannot take (LangGraph's InvalidUpdateError)."""

    code = "invalid-update"


class RecursionLimitError(AgentcRuntimeError):
    """F1: the run needed more supersteps than its recursion limit allows."""

    code = "recursion-limit"


class StepTimeoutError(AgentcRuntimeError, TimeoutError):
    """F2: a step (or one node with `timeout`) ran longer than allowed."""

    code = "step-timeout"


class EmptyInputError(AgentcRuntimeError):
    """A5: `None` input with nothing to resume."""

    code = "empty-input"


class CheckpointerRequiredError(AgentcRuntimeError):
    """D4: resuming, reading or updating state needs a checkpointer and a thread id."""

    code = "checkpointer-required"


class ResumeError(AgentcRuntimeError):
    """A `Command(resume=…)` that does not fit the pending interrupts."""

    code = "bad-resume"


class ResumeValidationError(ResumeError):
    """D5: the answer does not match the interrupt's response schema."""

    code = "invalid-resume"


class SerializationError(AgentcRuntimeError):
    """A value of a type that is not registered for checkpoints (never pickled)."""

    code = "unserializable-value"


class UnknownStoredTypeError(SerializationError):
    """D6: a checkpoint names a type this process has not registered; refused."""

    code = "unknown-stored-type"


class BindError(AgentcRuntimeError):
    """An `ImportRef` that cannot be imported or is not callable the right way."""

    code = "bind-error"


class GraphStructureError(AgentcRuntimeError):
    """A route, goto or Send that names no node of the graph."""

    code = "unknown-target"


class StoreRequiredError(AgentcRuntimeError, ValueError):
    """E4 / I1: a tool declares the long-term store (`InjectedStore`) but the run has none."""

    code = "store-required"
