"""The prebuilt tool node when the tool itself raises (not an argument error)."""


def divide(a: int, b: int) -> float:
    """Divide a by b."""
    return a / b
