"""Tools and a model-switching hook for the supervisor case (read by the compiler, never
run by these tests)."""

from agentc.middleware import wrap_model_call


def create_event(title: str, start: str) -> str:
    """Book a calendar event."""
    return f"booked {title} at {start}"


def send_email(to: str, subject: str) -> str:
    """Send an email."""
    return f"sent {subject} to {to}"


def lookup(name: str) -> str:
    """Look up a colleague's address."""
    return f"{name}@example.com"


@wrap_model_call
def pick_model(request, handler):
    """Send long conversations to a bigger model."""
    if len(request.messages) > 10:
        request = request.override(model="openai:gpt-4.1")
    return handler(request)


class Judge:
    """A decision model for auto_mode and model_router (never asked by these tests)."""

    def classify(self, state, questions):
        raise NotImplementedError


risk = Judge()
router = Judge()
