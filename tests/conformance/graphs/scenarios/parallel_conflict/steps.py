"""Two nodes of one step write a channel without a reducer: an invalid update."""


def left(state):
    return {"value": "left"}


def right(state):
    return {"value": "right"}
