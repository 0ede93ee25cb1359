"""The tools of {{name}}.agent's calculator: plain functions; the name, docstring and
type hints make the tool the model sees."""


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b
