"""The tools of supervisor_python.agent (the supervisor) and of team/specialists.agent
(the specialists it runs).

`schedule_event` and `manage_email` are the supervisor's tools, written as LangChain's
supervisor tutorial writes them: each invokes a specialist agent with the request and
returns the specialist's last message. Called inside a running tool, `invoke` is a nested
run of the tool's task (see docs/graphs.md, "Running a graph from Python code").
"""

from functools import cache
from pathlib import Path

import agentc

HERE = Path(__file__).resolve().parent


@cache
def specialist(name: str):
    """A specialist agent of team/specialists.agent, loaded once on first use."""
    return agentc.load_agent(HERE / "team" / "specialists.agent", name)


def _ask(name: str, request: str) -> str:
    out = specialist(name).invoke({"messages": [{"role": "user", "content": request}]})
    return out["messages"][-1].text


# ---------------------------------------------------------------- the supervisor's tools


def schedule_event(request: str) -> str:
    """Schedule calendar events from a request in plain language (who, what, when)."""
    return _ask("calendar", request)


def manage_email(request: str) -> str:
    """Write and send email from a request in plain language (to whom, about what)."""
    return _ask("email", request)


# ---------------------------------------------------------------- the specialists' tools


def create_calendar_event(title: str, start: str) -> str:
    """Create a calendar event called `title` starting at `start`."""
    return f"created {title!r} at {start}"


def send_email(to: str, subject: str) -> str:
    """Send an email to `to` with the subject `subject`."""
    return f"sent {subject!r} to {to}"
