"""The workflows guide's agent: a model with tools, the prebuilt tool node, tools_condition."""


def add(a: int, b: int) -> int:
    """Adds a and b."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply a and b."""
    return a * b
