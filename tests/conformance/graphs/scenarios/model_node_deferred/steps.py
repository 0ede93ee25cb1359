"""Two branches of different lengths, each adding to the notes."""


def quick(state):
    return {"notes": "quick look. "}


def slow_1(state):
    return {"notes": "first pass. "}


def slow_2(state):
    return {"notes": "second pass."}
