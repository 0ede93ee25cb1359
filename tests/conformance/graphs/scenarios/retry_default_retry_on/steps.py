"""LangGraph's default retry_on does not retry a ValueError: one attempt, then the error."""

ATTEMPTS = {"strict": 0}


def reset():
    ATTEMPTS["strict"] = 0


def probe():
    return dict(ATTEMPTS)


def strict(state):
    ATTEMPTS["strict"] += 1
    raise ValueError("bad input")
