"""The prebuilt tool node when a call goes wrong: arguments that do not validate come back
to the model as an error tool message; then the model answers."""


def divide(a: int, b: int) -> float:
    """Divide a by b."""
    return a / b
