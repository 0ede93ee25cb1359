"""Tools for the example agents: plain functions; name, docstring and signature make the tool."""


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def fetch_report(topic: str) -> str:
    """Fetch a long report."""
    return "LONG REPORT " * 50
