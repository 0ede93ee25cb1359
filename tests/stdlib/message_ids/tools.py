from agentc import interrupt


def ask(q: str) -> str:
    """Ask a person."""
    return str(interrupt(q))


def add(a: int, b: int) -> int:
    """Add."""
    return a + b
