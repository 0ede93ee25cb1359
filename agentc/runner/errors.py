"""How `agentc run` fails: a usage error (exit 2) or one paragraph about the run (exit 1).

Input: an exception. Output: `UsageError` for command lines that cannot run, and
`describe_error(exc)` → one paragraph, never a traceback. Invariants: runtime errors keep
their own diagnostic rendering (`error[recursion-limit]: …`); every other exception is named
by its kind.
"""

from __future__ import annotations


class UsageError(Exception):
    """A command line that cannot run: an unreadable file, clashing options (exit 2)."""


def describe_error(exc: BaseException) -> str:
    """One paragraph: what failed and, where we know it, what to do. Runtime errors render
    as their diagnostics (`error[recursion-limit]: …`); others name their kind."""
    text = " ".join((str(exc).strip() or type(exc).__name__).split())
    if isinstance(getattr(exc, "code", None), str) and hasattr(exc, "message"):
        return text  # an AgentcRuntimeError: `[where: ]error[code]: message (help: …)`
    return f"error: {text} [{type(exc).__name__}]"
