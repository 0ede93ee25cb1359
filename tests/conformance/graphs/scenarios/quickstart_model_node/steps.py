"""The quickstart calculator as a model node, a ToolNode and a Python counter node."""


def add(a: int, b: int) -> int:
    """Adds `a` and `b`."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply `a` and `b`."""
    return a * b


def divide(a: int, b: int) -> float:
    """Divide `a` and `b`."""
    return a / b


def count(state):
    return {"llm_calls": state.get("llm_calls", 0) + 1}
