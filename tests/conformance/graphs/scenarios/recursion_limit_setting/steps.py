"""A loop that never ends: the recursion limit stops it."""


def tick(state):
    return {"n": state["n"] + 1}


def again(state):
    return "tick"
