"""The one tool both servers' agents call: a plain function, as `.agent` files and
create_agent both take it."""


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b
