"""The tools of {{name}}.agent: plain functions; the name, docstring and type hints make
the tool the model sees."""


def send_email(to: str, body: str) -> str:
    """Send an email (here: only say what would be sent)."""
    return f"sent to {to}: {body}"
